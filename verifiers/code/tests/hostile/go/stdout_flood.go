// expect: output_limit
package main

import (
	"bufio"
	"os"
)

func main() {
	out := bufio.NewWriter(os.Stdout)
	for {
		out.WriteString("yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\n")
	}
}
