// expect: memory_limit
// One allocation over the cap.
package main

import "fmt"

func main() {
	big := make([]byte, 1<<30)
	big[12345] = 7
	fmt.Println(big[12345])
}
