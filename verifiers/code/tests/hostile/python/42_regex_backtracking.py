# expect: time_limit
import re
print(re.match('(a+)+$', 'a' * 64 + 'b'))
