# expect: output_limit
import sys
sys.stdout.write('x' * (1 << 24))
