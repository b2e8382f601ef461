# expect: time_limit
import time
start = time.time()
while time.time() - start < 1000:
    pass
