// expect: compile_error
#include <sys/socket.h>
int main(void) { return socket(AF_INET, SOCK_STREAM, 0); }
