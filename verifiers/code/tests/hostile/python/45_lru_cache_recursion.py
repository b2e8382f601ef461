# expect: runtime_error
import sys, functools
sys.setrecursionlimit(10**6)
@functools.lru_cache(None)
def f(n):
    return 0 if n == 0 else f(n - 1) + 1
print(f(10**6))
