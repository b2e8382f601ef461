// expect: memory_limit
// Every goroutine keeps its stack: a million blocked goroutines meet the memory cap.
package main

import "fmt"

func main() {
	block := make(chan bool)
	for i := 0; ; i++ {
		go func() { <-block }()
		if i < 0 {
			break
		}
	}
	fmt.Println("ok")
}
