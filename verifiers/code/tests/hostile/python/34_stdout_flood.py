# expect: output_limit
while True:
    print('y' * 100)
