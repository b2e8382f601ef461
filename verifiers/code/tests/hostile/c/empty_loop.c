// expect: time_limit
// An infinite loop with no side effects at all still spends fuel on every branch.
int main(void) { for (;;) {} }
