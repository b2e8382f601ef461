print('ok'
