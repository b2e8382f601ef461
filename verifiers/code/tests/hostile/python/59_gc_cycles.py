# expect: time_limit
while True:
    a = []
    a.append(a)
    b = {}
    b['self'] = b
