# expect: memory_limit
src = 'x = ' + '+'.join(['1'] * 10**7)
exec(src)
print('ok')
