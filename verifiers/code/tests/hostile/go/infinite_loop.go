// expect: time_limit
package main

import "fmt"

func main() {
	n := 0
	for n >= 0 {
		n = (n + 1) % 1000
	}
	fmt.Println("ok")
}
