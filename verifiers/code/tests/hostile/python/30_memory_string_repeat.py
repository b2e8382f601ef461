x = ' ' * 10**10
print(len(x))
