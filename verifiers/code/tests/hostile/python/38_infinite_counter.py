i = 0
while i >= 0:
    i += 1
