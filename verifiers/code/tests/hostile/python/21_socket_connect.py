# expect: runtime_error
import socket
s = socket.socket()
s.connect(('127.0.0.1', 22))
print('ok')
