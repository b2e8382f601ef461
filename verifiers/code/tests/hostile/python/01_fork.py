import os
os.fork()
print('ok')
