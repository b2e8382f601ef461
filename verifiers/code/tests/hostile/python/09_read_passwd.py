# expect: runtime_error
print(open('/etc/passwd').read())
