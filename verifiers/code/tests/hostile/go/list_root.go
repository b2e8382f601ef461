// expect: runtime_error
// No directory is preopened: there is no root to list.
package main

import (
	"fmt"
	"os"
)

func main() {
	entries, err := os.ReadDir("/")
	if err != nil {
		panic(err)
	}
	fmt.Println(len(entries))
}
