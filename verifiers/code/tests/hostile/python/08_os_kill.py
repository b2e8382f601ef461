import os
os.kill(1, 9)
