// expect: runtime_error
package main

import "fmt"

func main() {
	var line string
	fmt.Scanln(&line)
	zero := len(line)
	fmt.Println(10 / zero)
}
