// Command k6 is k6 with the k6/x/chatwire extension built in: the offline
// alternative to xk6 (`go build ./cmd/k6` inside bench/xk6).
//
// # Files
//
//	main.go           k6's own main, with the extension imported
package main
