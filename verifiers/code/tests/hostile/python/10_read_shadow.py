# expect: runtime_error
print(open('/etc/shadow').read())
