// expect: runtime_error
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Println("ok")
	os.Exit(3)
}
