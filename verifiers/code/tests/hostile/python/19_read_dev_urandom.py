print(open('/dev/urandom', 'rb').read(8))
