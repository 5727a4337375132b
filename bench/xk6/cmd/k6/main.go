// Command k6 is k6 with the k6/x/chatwire extension built in: the offline
// alternative to xk6 (`go build ./cmd/k6` inside bench/xk6).
package main

import (
	"go.k6.io/k6/cmd"

	_ "github.com/chatwire/chatwire/bench/xk6" // registers k6/x/chatwire
)

func main() { cmd.Execute() }
