// Command _asm writes jsonscan's assembly, vector_amd64.s, with avo
// (github.com/mmcloughlin/avo):
//
//	go generate ./internal/jsonscan
//
// runs it (the //go:generate line of vector.go); docs/assembly.md is the
// maintainer's page. Its files:
//
//	main.go          this: the order of the file's symbols
//	tables.go        the constants and tables, computed from what they stand for
//	block.go         blocks of bytes in YMM (AVX2) or ZMM (AVX-512) registers, and their masks
//	rules.go         the rules of strings, one function each, on masks of a block
//	steps.go         the scalar steps both variants of lineSkeleton share
//	scanstring.go    scanStringVector
//	blockmasks.go    blockMasks
//	skeleton512.go   lineSkeleton (lineSkeleton512, AVX-512)
//	skeleton256.go   lineSkeleton256 (AVX2)
//	layout.go        the Go types and constants the code reads, from the package's source
//	asm.go           helpers: arguments, Go symbols, labels, jumps avo lacks
//	check.go         the check that AVX2 code uses no AVX-512 register
//	deps.go          keeps go.mod's requirement on the package's module
//	objdiff.sh       compares the object code of two revisions
package main

import (
	"flag"
	"fmt"
	"os"

	. "github.com/mmcloughlin/avo/build"
)

// pkg is the package the assembly belongs to.
const pkg = "github.com/chatwire/chatwire/internal/jsonscan"

// lay is jsonscan's layout: its constants, struct offsets and sizes.
var lay *layout

func main() {
	// The package's amd64 files declare the functions, whatever the
	// machine that runs this (go/packages passes the environment on).
	if err := os.Setenv("GOARCH", "amd64"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var err error
	if lay, err = loadLayout(pkg); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	Package(pkg)
	ConstraintExpr("!purego")
	declareTables()
	scanStringVector()
	blockMasks()
	lineSkeleton()
	lineSkeleton256()
	Generate()
	if out := flag.Lookup("out").Value.String(); out != "" && out != "-" {
		if err := checkRegisters(out); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
