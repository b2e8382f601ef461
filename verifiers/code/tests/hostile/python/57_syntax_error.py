# expect: compile_error
print('ok'
