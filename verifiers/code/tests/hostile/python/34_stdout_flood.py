while True:
    print('y' * 100)
