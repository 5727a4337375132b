package main

import (
	"go.k6.io/k6/cmd"

	_ "github.com/chatwire/chatwire/bench/xk6" // registers k6/x/chatwire
)

func main() { cmd.Execute() }
