# expect: runtime_error
open('/tmp/referee-pwned', 'w').write('pwned')
print('ok')
