// expect: compile_error
template <int N> struct F { static const int v = F<N - 1>::v + F<N - 2>::v; };
template <> struct F<0> { static const int v = 0; };
int main() { return F<100000>::v; }
