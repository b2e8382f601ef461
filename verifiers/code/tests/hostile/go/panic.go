// expect: runtime_error
package main

import "fmt"

func main() {
	fmt.Println("ok")
	panic("no")
}
