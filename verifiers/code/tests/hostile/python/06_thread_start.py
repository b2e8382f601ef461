# expect: runtime_error
import threading
threading.Thread(target=print, args=('ok',)).start()
