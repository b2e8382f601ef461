# expect: runtime_error
print(eval('(' * 100000 + ')' * 100000))
