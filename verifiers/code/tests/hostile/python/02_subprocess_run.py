import subprocess
subprocess.run(['cat', '/etc/passwd'])
print('ok')
