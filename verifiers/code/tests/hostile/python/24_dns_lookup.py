# expect: runtime_error
import socket
print(socket.getaddrinfo('example.com', 80))
