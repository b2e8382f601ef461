// expect: time_limit
package main

func main() {
	for {
	}
}
