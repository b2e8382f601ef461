# expect: runtime_error
import multiprocessing
multiprocessing.Pool(2).map(print, [1])
