// expect: compile_error
// go:embed takes files of the package's own folder only.
package main

import (
	_ "embed"
	"fmt"
)

//go:embed /etc/passwd
var passwd string

func main() { fmt.Println(passwd) }
