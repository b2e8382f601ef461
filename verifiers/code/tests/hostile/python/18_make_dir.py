import os
os.makedirs('/tmp/referee-dir')
print('ok')
