# expect: runtime_error
import os
os.kill(1, 9)
