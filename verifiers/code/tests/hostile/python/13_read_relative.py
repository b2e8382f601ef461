# expect: runtime_error
print(open('../../../../etc/hostname').read())
