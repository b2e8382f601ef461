// expect: time_limit
// Goroutines share the one thread wasm has: main waits on a channel while they spin.
package main

import "fmt"

func main() {
	done := make(chan bool)
	for i := 0; i < 4; i++ {
		go func() {
			n := 0
			for {
				n++
			}
		}()
	}
	<-done
	fmt.Println("ok")
}
