# expect: runtime_error
import ctypes
ctypes.CDLL(None).system(b'id')
