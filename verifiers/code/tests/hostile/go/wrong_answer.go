// expect: wrong_answer
package main

import "fmt"

func main() { fmt.Println("no") }
