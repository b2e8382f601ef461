// expect: runtime_error
package main

import (
	"fmt"
	"net"
)

func main() {
	conn, err := net.Dial("tcp", "127.0.0.1:5432")
	if err != nil {
		panic(err)
	}
	fmt.Println("ok", conn.LocalAddr())
}
