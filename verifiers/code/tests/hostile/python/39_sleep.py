# expect: time_limit
import time
time.sleep(1000)
print('ok')
