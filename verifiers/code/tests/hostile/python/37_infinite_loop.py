# expect: time_limit
while True:
    pass
