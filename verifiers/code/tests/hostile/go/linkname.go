// expect: compile_error
// Reaching into the runtime's internals by linkname is refused by the linker.
package main

import (
	"fmt"
	_ "unsafe"
)

//go:linkname nanotime runtime.nanotime1
func nanotime() int64

func main() { fmt.Println(nanotime() > 0) }
