while True:
    a = []
    a.append(a)
    b = {}
    b['self'] = b
