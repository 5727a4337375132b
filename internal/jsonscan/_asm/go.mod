module github.com/chatwire/chatwire/internal/jsonscan/_asm

go 1.26.8

require (
	github.com/chatwire/chatwire v0.0.0
	github.com/mmcloughlin/avo v0.6.0
	golang.org/x/tools v0.52.0
)

require (
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
)

replace github.com/chatwire/chatwire => ../../..
