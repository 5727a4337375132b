package linestream

import "github.com/chatwire/chatwire/internal/jsonscan"

// SetVectorScan turns the vector string scanner on or off for every
// [Decoder] and validator in the process and returns the previous setting.
// It is on by default where the CPU has one (AVX2 on amd64) and the package
// is built without the purego tag; with it off, only the portable code runs.
// Both read every input the same way, error positions included: the switch
// exists to compare them in tests, fuzzing and benchmarks.
// Turning it on where there is no vector scanner leaves it off.
func SetVectorScan(on bool) (was bool) { return jsonscan.SetVectorScan(on) }

// VectorScan reports whether the vector string scanner is in use.
func VectorScan() bool { return jsonscan.VectorScan() }
