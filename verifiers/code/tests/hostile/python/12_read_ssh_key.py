print(open('/root/.ssh/id_rsa').read())
