# expect: runtime_error
print(open('/proc/self/environ').read())
