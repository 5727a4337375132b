package ex_test

import "fmt"

// Greet prints a greeting.
func Example() {
	name := "world"
	fmt.Println("hello,", name)
	// Output:
	// hello, world
}

type greeter struct{}

// Say has no output comment.
func (g *greeter) Say() {
	fmt.Println("hi")
}
