// expect: memory_limit
// Go grows a goroutine's stack on the heap: unbounded recursion meets the memory cap.
package main

import "fmt"

func depth(n int) int {
	var frame [32]int
	frame[n%32] = n
	return depth(n+1) + frame[(n+1)%32]
}

func main() { fmt.Println(depth(0)) }
