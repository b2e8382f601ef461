import itertools
print(len(list(itertools.count())))
