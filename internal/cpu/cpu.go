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
