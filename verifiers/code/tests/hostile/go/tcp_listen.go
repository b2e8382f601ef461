// expect: wrong_answer
// Go's net package for wasip1 has an in-process stand-in network: a listener opens, but nothing
// outside the program can reach it, and it reaches nothing (tcp_connect.go).
package main

import (
	"fmt"
	"net"
)

func main() {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	fmt.Println("listening on", listener.Addr())
}
