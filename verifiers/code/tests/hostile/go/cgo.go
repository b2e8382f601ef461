// expect: compile_error
// cgo is off: no C code reaches the build.
package main

// #include <stdio.h>
// static void hello(void) { puts("ok"); }
import "C"

func main() { C.hello() }
