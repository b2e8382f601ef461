import os
print(os.environ['HOME'])
