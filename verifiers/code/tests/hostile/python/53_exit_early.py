# expect: wrong_answer
import sys
sys.exit(0)
print('ok')
