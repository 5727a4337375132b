// Command ex is shown whole.
package main

func main() {}
