module github.com/chatwire/chatwire/internal/jsvalue/_asm

go 1.26.8

require (
	github.com/mmcloughlin/avo v0.6.0
	github.com/stretchr/testify v1.12.1
)

require (
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)

require github.com/chatwire/chatwire/internal/utf8rule/_asm v0.0.0

replace github.com/chatwire/chatwire/internal/utf8rule/_asm => ../../utf8rule/_asm
