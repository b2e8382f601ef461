# expect: runtime_error
import urllib.request
print(urllib.request.urlopen('http://127.0.0.1:8080/').read())
