# expect: memory_limit
x = []
while True:
    x.append(bytearray(1 << 20))
