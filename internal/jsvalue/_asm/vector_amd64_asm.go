// Command _asm writes internal/jsvalue/vector_amd64.s with avo:
// textVector, the AVX2 decoder of JSON string text that appendJSRaw
// (internal/jsvalue/text.go) calls through appendVector
// (internal/jsvalue/vector.go). go generate ./internal/jsvalue runs it (the
// //go:generate line of internal/jsvalue/vector.go); the directory's
// leading underscore keeps it out of the chatwire module, and its own
// go.mod holds avo. The CPU check is internal/cpu's.
//
// The portable Go code is the reference: each rule the assembly applies is
// one function here, documented with the Go code it must agree with, and
// internal/jsvalue's tests run both over the same inputs (README.md lists them).
//
// Files:
//
//	vector_amd64_asm.go  main: what the output holds, in order
//	decoder.go           textVector: its registers and its three paths
//	utf8.go              the UTF-8 check (the rule: internal/utf8rule/_asm), a character crossing a point
//	escape.go            the escape rule and the \u stop rule
//	tables.go            the tables, each computed from what it means
//	files_test.go        this map, kept true to the directory
//	objdiff.sh, objdiff/ the object code of a build compared with a revision's
//	benchcmp.sh          the speed of a build compared with a revision's
//	abtime.sh            textVector timed against a revision's in one process
//	README.md            the maintainer's page: tests, glossary, where to change a rule
package main

import (
	. "github.com/mmcloughlin/avo/build"
)

func main() {
	ConstraintExpr("!purego")
	t := declareTables()
	textVector(t)
	Generate()
}
