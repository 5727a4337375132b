package main

import (
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: relay UPSTREAM   (host:port, or an http:// URL)")
		os.Exit(2)
	}
	up := strings.TrimSuffix(strings.TrimPrefix(os.Args[1], "http://"), "/")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "relay:", err)
		os.Exit(1)
	}
	fmt.Printf("relay listening on http://%s\n", ln.Addr())
	for {
		c, err := ln.Accept()
		if err != nil {
			fmt.Fprintln(os.Stderr, "relay:", err)
			os.Exit(1)
		}
		go relay(c.(*net.TCPConn), up)
	}
}

// relay copies c to a new connection to up and back until both sides
// have closed; each side's end is passed on as a half close.
func relay(c *net.TCPConn, up string) {
	defer c.Close()
	uc, err := net.Dial("tcp", up)
	if err != nil {
		fmt.Fprintln(os.Stderr, "relay:", err)
		return
	}
	u := uc.(*net.TCPConn)
	defer u.Close()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		io.Copy(u, c)
		u.CloseWrite()
	}()
	io.Copy(c, u)
	c.CloseWrite()
	wg.Wait()
}
