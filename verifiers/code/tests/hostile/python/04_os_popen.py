# expect: runtime_error
import os
print(os.popen('id').read())
