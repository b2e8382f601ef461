print(open('/etc/passwd').read())
