// expect: time_limit
// Sleeping takes no fuel: the wall-clock backstop ends it.
package main

import (
	"fmt"
	"time"
)

func main() {
	time.Sleep(time.Hour)
	fmt.Println("ok")
}
