// expect: runtime_error
// Go checks for nil on wasm as elsewhere, even through unsafe.
package main

import (
	"fmt"
	"unsafe"
)

func main() {
	var zero uintptr
	p := (*int)(unsafe.Pointer(zero))
	*p = 42
	fmt.Println("ok")
}
