# expect: runtime_error
print(str(2 ** 100000))
