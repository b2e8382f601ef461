# expect: output_limit
import sys
while True:
    sys.stderr.write('e' * 1000)
