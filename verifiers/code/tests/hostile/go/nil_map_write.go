// expect: runtime_error
package main

import "fmt"

func main() {
	var m map[string]int
	m["ok"] = 1
	fmt.Println("ok")
}
