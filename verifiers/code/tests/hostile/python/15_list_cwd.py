# expect: runtime_error
import os
print(os.listdir('.'))
