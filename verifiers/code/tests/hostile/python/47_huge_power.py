# expect: time_limit
x = 10 ** (10 ** 9)
print(x > 0)
