// Package storetest holds the tests every resumable.Store must pass: what
// Append, Read (and its wait), End, Stat and Chat do, the errors they
// name, the bounds and their evictions, and concurrent writers and
// readers. resumable's tests run them on Memory; a store beside it (Redis
// Streams) runs them on itself with [Run].
//
// # Files
//
//	storetest.go  Run and Config: the tests, each a subtest a store may skip
package storetest
