// Command relay copies TCP connections to an upstream address, byte for
// byte, both ways: the floor of a hop on a machine, for bench/bridge.sh to
// run beside chatwire bridge. What a proxy adds to a stream beyond this
// relay is its own work (HTTP, translation); the rest is the hop, which
// every proxy on that machine pays.
//
//	go run ./bench/relay UPSTREAM   (such as http://127.0.0.1:8080 or 127.0.0.1:8080)
//
// It listens on a free port of 127.0.0.1 and prints "relay listening on
// http://ADDR" on its standard output, as chatwire serve and bridge print
// theirs.
//
// # Files
//
//	main.go  the relay
package main
