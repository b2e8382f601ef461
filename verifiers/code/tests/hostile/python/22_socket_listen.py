# expect: runtime_error
import socket
s = socket.socket()
s.bind(('0.0.0.0', 8081))
s.listen()
print('ok')
