// expect: runtime_error
package main

import (
	"fmt"
	"os"
)

func main() {
	text, err := os.ReadFile("/etc/passwd")
	if err != nil {
		panic(err)
	}
	fmt.Println(len(text))
}
