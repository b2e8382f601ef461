# expect: time_limit
i = 0
while i >= 0:
    i += 1
