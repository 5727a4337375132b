// Command _asm writes uistream/utf8_amd64.s with avo: utf8Blocks, the AVX2
// check of UTF-8 that validPrefix (uistream/utf8.go) calls where the vector
// paths run. go generate ./uistream runs it (the //go:generate line of
// uistream/utf8_amd64.go); the directory's leading underscore keeps it out
// of the chatwire module, and its own go.mod holds avo. The CPU check is
// internal/cpu's, through jsonscan.Vector.
//
// The portable Go code is the reference: validPrefixRunes (unicode/utf8
// rune by rune) and validPrefixSWAR, eight bytes at a time. uistream's
// tests run the three over the same inputs (every kind of ill-formed
// sequence at every offset, and FuzzValidPrefix). The UTF-8 rule itself
// is internal/utf8rule/_asm's, shared with internal/jsvalue/_asm, whose
// tests run its tables against unicode/utf8.
//
// Files:
//
//	utf8_asm.go   main: what the output holds
//	utf8.go       utf8Blocks: the UTF-8 rule (internal/utf8rule/_asm) on blocks of 32 bytes
//	files_test.go this map, kept true to the directory
package main

import (
	. "github.com/mmcloughlin/avo/build"
)

func main() {
	ConstraintExpr("!purego")
	t := declareTables()
	utf8Blocks(t)
	Generate()
}
