# expect: runtime_error
x = ' ' * 10**10
print(len(x))
