# expect: runtime_error
import signal
signal.alarm(1)
while True:
    pass
