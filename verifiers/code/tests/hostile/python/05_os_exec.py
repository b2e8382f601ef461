# expect: runtime_error
import os
os.execv('/bin/sh', ['sh', '-c', 'id'])
