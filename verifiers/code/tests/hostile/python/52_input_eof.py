# expect: runtime_error
print(input())
