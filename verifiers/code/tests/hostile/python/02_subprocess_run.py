# expect: runtime_error
import subprocess
subprocess.run(['cat', '/etc/passwd'])
print('ok')
