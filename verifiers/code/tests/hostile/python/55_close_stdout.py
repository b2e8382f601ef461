# expect: runtime_error
import sys, os
os.close(1)
print('ok')
