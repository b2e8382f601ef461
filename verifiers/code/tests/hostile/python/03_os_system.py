# expect: runtime_error
import os
os.system('touch /tmp/referee-pwned')
print('ok')
