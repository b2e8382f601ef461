# expect: runtime_error
print(open('/root/.ssh/id_rsa').read())
