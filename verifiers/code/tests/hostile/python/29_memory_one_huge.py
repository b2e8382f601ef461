# expect: runtime_error
x = b'a' * (1 << 34)
print(len(x))
