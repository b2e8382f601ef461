// expect: wrong_answer
// A run has no environment variables; its one argument is the program's name.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Println(os.Environ(), os.Args)
}
