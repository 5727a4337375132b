// Command _asm writes jsonscan's assembly, vector_amd64.s, with avo:
//
//	go generate ./internal/jsonscan
//
// runs it (the //go:generate line of vector.go). Each TEXT symbol has
// its own file here, the tables theirs (tables.go); layout.go reads the Go
// types and constants the assembly uses from jsonscan's source.
// objdiff.sh compares the object code of two revisions of the file.
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
