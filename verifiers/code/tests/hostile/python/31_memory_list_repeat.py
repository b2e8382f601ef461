# expect: runtime_error
x = [0] * 10**10
print(len(x))
