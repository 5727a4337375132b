// Package cpu tells which of the module's fast paths this process runs: the
// one place where CPU features are detected, for linestream, the JSON
// validation core and the message assembly alike.
//
// The paths come in three levels, each a superset of the one before:
//
//	portable  Go only: the reference every fast path is tested against
//	avx2      AVX2 with BMI1, BMI2, POPCNT and PCLMULQDQ, the OS saving
//	          the YMM registers (Intel Haswell and later, AMD Zen)
//	avx512    avx2 plus AVX-512 F, BW, VL, VBMI and VBMI2, the OS saving
//	          the ZMM and opmask registers (Intel Ice Lake and later, AMD Zen 4)
//
// The features are read with golang.org/x/sys/cpu, which checks both the
// CPU (CPUID) and the operating system (XGETBV). Every x86 CPU with AVX2
// has the other four of its level: a level names what the module's
// assembly needs, so no path has to ask for a feature of its own.
//
// The environment variable CHATWIRE_CPU, read once at start-up, lowers the
// level for the whole process: "portable" or "avx2" (and "native" or
// nothing: what the CPU has). It exists to test and measure every path on
// one machine (CHATWIRE_CPU=avx2 go test ./fuzz; bench/run.sh -paths); it
// never raises the level above what the CPU has. An unknown value leaves
// the level as detected and is reported by [Env], which `chatwire version`
// prints and this package's tests fail on.
//
// # Files
//
//	cpu.go      the levels, the detection and CHATWIRE_CPU
//	native.go purego.go  Purego: whether the build has the purego tag (then the portable level only)
//	cputest/    what tests use to run a fast path's test only where the CPU's own flags say it can run
package cpu

import (
	"fmt"
	"os"
	"runtime"

	"golang.org/x/sys/cpu"
)

// A Level is a set of CPU features the module's fast paths use.
type Level uint8

// The levels, each a superset of the one before.
const (
	Portable Level = iota
	AVX2
	AVX512
)

var levelNames = [...]string{Portable: "portable", AVX2: "avx2", AVX512: "avx512"}

// String returns the level's name, as CHATWIRE_CPU takes it.
func (l Level) String() string {
	if int(l) < len(levelNames) {
		return levelNames[l]
	}
	return fmt.Sprintf("Level(%d)", l)
}

// ParseLevel returns the level named s, one of "portable", "avx2" and
// "avx512".
func ParseLevel(s string) (Level, error) {
	for l, name := range levelNames {
		if s == name {
			return Level(l), nil
		}
	}
	return Portable, fmt.Errorf("unknown CPU level %q (want portable, avx2 or avx512)", s)
}

// EnvVar is the environment variable that lowers the level.
const EnvVar = "CHATWIRE_CPU"

var (
	detected       = detect()
	active, envErr = choose(detected, os.Getenv(EnvVar))
)

// Detected returns the highest level this CPU and operating system support.
func Detected() Level { return detected }

// Active returns the level the process runs: Detected, or lower where
// CHATWIRE_CPU asks for it, or Portable in a build with the purego tag. The packages with fast paths read it once, at
// start-up.
func Active() Level { return active }

// Env returns CHATWIRE_CPU's value and whether it was understood: an error
// for a value that names no level.
func Env() (string, error) { return os.Getenv(EnvVar), envErr }

// detect returns the level the CPU and the operating system support.
func detect() Level {
	if runtime.GOARCH != "amd64" {
		return Portable
	}
	x := &cpu.X86
	if !(x.HasAVX2 && x.HasBMI1 && x.HasBMI2 && x.HasPOPCNT && x.HasPCLMULQDQ) {
		return Portable
	}
	// HasAVX2 holds only where the OS saves the YMM registers, and
	// HasAVX512 only where it saves the ZMM and opmask ones too.
	if x.HasAVX512 && x.HasAVX512F && x.HasAVX512BW && x.HasAVX512VL && x.HasAVX512VBMI && x.HasAVX512VBMI2 {
		return AVX512
	}
	return AVX2
}

// choose returns the level to run, given the level detected and
// CHATWIRE_CPU's value: the lower of the two.
func choose(detected Level, env string) (Level, error) {
	if Purego {
		detected = Portable
	}
	if env == "" || env == "native" {
		return detected, nil
	}
	l, err := ParseLevel(env)
	if err != nil {
		return detected, fmt.Errorf("%s: %w", EnvVar, err)
	}
	return min(l, detected), nil
}
