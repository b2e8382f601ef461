import socket
print(socket.getaddrinfo('example.com', 80))
