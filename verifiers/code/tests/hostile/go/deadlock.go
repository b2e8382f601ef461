// expect: runtime_error
// Go's runtime sees every goroutine asleep and stops the program.
package main

import "fmt"

func main() {
	ch := make(chan int)
	fmt.Println(<-ch)
}
