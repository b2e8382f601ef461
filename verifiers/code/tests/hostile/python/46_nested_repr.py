# expect: time_limit
x = []
for _ in range(10**6):
    x = [x]
print(repr(x)[:10])
