// expect: compile_error
// A static array larger than the address space.
package main

import "fmt"

var big [1 << 40]byte

func main() { fmt.Println(big[7]) }
