// Package filemap reads the map of files each package of chatwire keeps in
// its documentation, and checks it against the package's directory, so
// that a newcomer's map stays true: its test walks every package of the
// module and fails, naming the package and the file, when a file is
// missing from its package's map or the map names a file that is not
// there.
//
// A map is the "# Files" section of the package comment in doc.go: a code
// block with an entry per line, the names of one or more files (or
// subdirectories, with a final slash) separated by commas or spaces, two
// spaces, and a few words on them, carried on over lines indented further:
//
//	// # Files
//	//
//	//	assembler.go      the Assembler: its state, Add and its dispatch
//	//	text.go, step.go  text and reasoning parts; steps
//	//	httpfail/         package httpfail: the named failure kinds of an
//	//	                  HTTP exchange
//
// A map lists every Go and assembly file of the directory but the tests
// and doc.go, and every subdirectory that holds code ([Required]); it may
// list more (a script, a data directory), but only what is there.
//
// # Files
//
//	filemap.go  Parse, Read, Required, Check and Packages: the map read and
//	            compared with its directory
//	testdata/   wrong/, a tree whose map is wrong both ways; nomap/, a doc.go
//	            without a map; module/, a tree with test data, a generator's
//	            _asm/ and a nested module for Packages to leave out
package filemap
