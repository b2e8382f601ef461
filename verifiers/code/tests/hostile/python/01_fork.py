# expect: runtime_error
import os
os.fork()
print('ok')
