package jsonscan

import "sync/atomic"

// vector_amd64.s is written by the avo program in _asm (a module of its own,
// which the go command ignores here); docs/assembly.md tells how to change
// it. The line is here, in a file every build reads, for go generate to run
// it on any GOARCH.
//
//go:generate go run -C _asm . -out ../vector_amd64.s -pkg jsonscan

// This file holds the switch between the two string scanners: the portable
// one of scan.go (eight bytes at a time, SWAR), the reference, and a vector
// one that checks 32 or 64 bytes at a time where the CPU has one (AVX2 on amd64,
// vector_amd64.s). The vector scanner only speeds up strings longer than 16
// bytes; it never decides anything the portable code would decide
// differently: it stops at the first byte it does not handle itself, and
// scan.go takes over from there.

// vectorOn tells whether scanString calls the vector scanner.
var vectorOn atomic.Bool

func init() { vectorOn.Store(haveVector) }

// SetVectorScan turns the vector string scanner on or off for every
// [Decoder] and validator in the process and returns the previous setting.
// It is on by default where the CPU has one (AVX2 on amd64) and the package
// is built without the purego tag; with it off, only the portable code runs.
// Both read every input the same way, error positions included: the switch
// exists to compare them in tests, fuzzing and benchmarks.
// Turning it on where there is no vector scanner leaves it off.
func SetVectorScan(on bool) (was bool) {
	return vectorOn.Swap(on && haveVector)
}

// VectorScan reports whether the vector string scanner is in use.
func VectorScan() bool { return vectorOn.Load() }

// countVector tells scanString to count its calls of the vector scanner in
// vectorCalls: the tests show with it that long strings take the vector
// path (CountVectorCalls).
var (
	countVector bool
	vectorCalls atomic.Int64
)

// CountVectorCalls makes the validator count the strings it hands to the
// vector scanner, and returns the count so far and a function that stops
// the counting. It is for tests, which show with it that the vector path is
// taken where it should be; it is not safe to call while other goroutines
// validate.
func CountVectorCalls() (count func() int64, stop func()) {
	vectorCalls.Store(0)
	countVector = true
	return vectorCalls.Load, func() { countVector = false }
}
