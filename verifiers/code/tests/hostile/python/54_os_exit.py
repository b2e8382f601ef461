# expect: wrong_answer
import os
print('partial', end='')
os._exit(0)
