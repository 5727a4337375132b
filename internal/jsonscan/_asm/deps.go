//go:build generate_deps

package main

// The generator reads jsonscan's declarations (avo's Package, layout.go)
// from source, so it never imports the package; this file, never built,
// keeps the requirement on the module holding it in go.mod for go mod tidy.
import _ "github.com/chatwire/chatwire/internal/jsonscan"
