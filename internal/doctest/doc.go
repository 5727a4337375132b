// Package doctest keeps the code and the command output shown in the
// module's Markdown pages (README.md and docs/) true to what they show.
//
// A page names the source of a fenced code block in an HTML comment on the
// line before it, which Markdown renders as nothing:
//
//	<!-- go: linestream/example_test.go Example -->
//	```go
//	…the body of func Example, up to its // Output: comment…
//	```
//
//	<!-- output: linestream/example_test.go Example -->
//	```
//	…the lines of its // Output: comment…
//	```
//
//	<!-- go: client/example/bakery/main.go -->         (the whole file)
//
//	<!-- run: chatwire -->
//	```
//	$ chatwire decode corpus/streams/invalid/mid-stream-bom.stream
//	…what it prints, standard output and standard error together…
//	$ echo $?
//	1
//	```
//
// Paths are relative to the module root. A go or output block must hold
// exactly what [Want] reads from its source: [CheckSources] and [Shown]
// fail, with the page and line, on a stale block, a source file or function
// that is gone, and [Parse] on an unknown marker, a marker with no block
// after it and a go block with no marker (nothing would keep it true).
// TestModuleDocs checks every page's go and output blocks; with -update it
// rewrites the stale ones ([Update]). Each package's readme test calls
// [Shown] for the examples the pages must keep, so changing an example
// fails that package's tests until the page follows.
//
// A run block is a shell transcript of one program: [Commands] reads its
// "$ PROGRAM ARGS" lines (optionally after "printf 'FORMAT' | " or
// "NAME=value" assignments, optionally ending in "&" and a "# comment"),
// the output after each and an optional "$ echo $?" with the status (0 when
// not shown). The program's own tests replay them (cmd/chatwire's
// TestDocsShowRealOutput) and compare with [Match]: ports and durations
// normalized ([Normalize]), a line "…" standing for any lines. A command in
// the background (a mock: "$ chatwire serve &") runs for the rest of its
// block, the page showing the first line it prints (its URL); the test maps
// the port the page shows to the one it got. Commands refuses what it
// cannot replay; output no test can replay (other programs, a live
// service, timings) is not pasted.
//
// # Files
//
//	block.go       Block, the markers and Parse; Files and Load find the pages
//	source.go      Want: the text a go or output block must hold
//	transcript.go  Command, Commands, Match and Normalize, for run blocks
//	check.go       CheckSources, Shown and Update, which tests call
package doctest
