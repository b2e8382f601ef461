print(str(2 ** 100000))
