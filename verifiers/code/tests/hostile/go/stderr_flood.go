// expect: output_limit
package main

import (
	"bufio"
	"os"
)

func main() {
	out := bufio.NewWriter(os.Stderr)
	for {
		out.WriteString("eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee\n")
	}
}
