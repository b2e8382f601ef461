# expect: runtime_error
x = 1 << (1 << 40)
print(x > 0)
