# expect: runtime_error
import os
os.makedirs('/tmp/referee-dir')
print('ok')
