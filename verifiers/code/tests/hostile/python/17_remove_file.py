import os
os.remove('/etc/hostname')
