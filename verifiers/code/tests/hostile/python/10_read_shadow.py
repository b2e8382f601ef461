print(open('/etc/shadow').read())
