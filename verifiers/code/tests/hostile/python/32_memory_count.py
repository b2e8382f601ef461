# expect: memory_limit
import itertools
print(len(list(itertools.count())))
