// expect: runtime_error
package main

import (
	"fmt"
	"os/exec"
)

func main() {
	out, err := exec.Command("sh", "-c", "cat /etc/passwd").Output()
	if err != nil {
		panic(err)
	}
	fmt.Println(len(out))
}
