# expect: memory_limit
x = []
while True:
    x.append([0] * 1000)
