// expect: time_limit
// The loop runs in init, before main.
package main

import "fmt"

var spins uint64

func init() {
	for {
		spins++
	}
}

func main() { fmt.Println("ok") }
