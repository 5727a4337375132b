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
