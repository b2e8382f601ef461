# expect: runtime_error
import os
os.remove('/etc/hostname')
