x = b'a' * (1 << 34)
print(len(x))
