# expect: runtime_error
print(open('/dev/urandom', 'rb').read(8))
