# expect: time_limit
import time
while True:
    time.sleep(0.01)
