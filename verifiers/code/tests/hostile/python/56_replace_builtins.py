# expect: wrong_answer
import builtins
builtins.print = lambda *a, **k: None
builtins.__import__ = None
print('ok')
