// expect: runtime_error
package main

import (
	"fmt"
	"os"
)

func main() {
	if err := os.WriteFile("/tmp/referee-pwned", []byte("pwned"), 0o644); err != nil {
		panic(err)
	}
	if err := os.Mkdir("/tmp/referee-dir", 0o755); err != nil {
		panic(err)
	}
	fmt.Println("ok")
}
