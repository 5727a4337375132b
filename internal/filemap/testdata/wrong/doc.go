// Package wrong has a map that is wrong both ways: it names files and
// directories that are not there, and leaves out some that are.
//
// # Files
//
//	a.go, gone.go  a file that is there, and one that is not
//	b.s            an assembly file
//	sub/           a subdirectory with code
//	missing/       a directory that is not there
//	a.go/          a file named as a directory
//
// # After the map
//
//	extra.go  not an entry: this block is past the map
package wrong
