// Package cputest decides whether a test of a fast path runs from the CPU's
// own flags, as the Linux kernel lists them in /proc/cpuinfo, never from
// the code under test: a fast path the CPU supports but the code turned
// off fails its test rather than skipping it.
//
// # Files
//
//	cputest.go   Level, LevelOf and Require: the level the CPU's flags in /proc/cpuinfo
//	             allow, and a test run only there
//	page_linux.go  PageBeforeGuard: a page followed by an unreadable one, for the
//	             fast paths' page-end tests
package cputest
