package cputest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chatwire/chatwire/internal/cpu"
)

// levelFlags are the /proc/cpuinfo flags each level needs, beyond those of
// the levels below it.
var levelFlags = [...][]string{
	cpu.AVX2:   {"avx2", "bmi1", "bmi2", "popcnt", "pclmulqdq"},
	cpu.AVX512: {"avx512f", "avx512bw", "avx512vl", "avx512vbmi", "avx512_vbmi2"},
}

// Level returns the highest level the CPU's flags in the kernel's
// /proc/cpuinfo support.
func Level() (cpu.Level, error) {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return cpu.Portable, err
	}
	return LevelOf(b)
}

// LevelOf returns the highest level the flags of the first processor
// listed in cpuinfo, a /proc/cpuinfo file, support.
func LevelOf(cpuinfo []byte) (cpu.Level, error) {
	s := bufio.NewScanner(bytes.NewReader(cpuinfo))
	s.Buffer(nil, 1<<20)
	for s.Scan() {
		name, value, ok := strings.Cut(s.Text(), ":")
		if !ok || strings.TrimSpace(name) != "flags" {
			continue
		}
		have := map[string]bool{}
		for _, f := range strings.Fields(value) {
			have[f] = true
		}
		l := cpu.Portable
		for next := cpu.AVX2; next <= cpu.AVX512; next++ {
			for _, f := range levelFlags[next] {
				if !have[f] {
					return l, nil
				}
			}
			l = next
		}
		return l, nil
	}
	if err := s.Err(); err != nil {
		return cpu.Portable, err
	}
	return cpu.Portable, fmt.Errorf("no flags line in /proc/cpuinfo")
}

// Require lets the rest of t run only where the process runs level l: it
// skips t, saying why, where the CPU's flags lack l or CHATWIRE_CPU lowers
// the process below l; it fails t where the CPU has l and nothing lowered
// it, but cpu.Active is below l (the detection, or a path's switch, is
// broken). Where the flags cannot be read it skips, except under CI
// (CI=true), where that fails: CI runs on Linux, and a skipped fast-path
// test there would hide a path that never ran.
func Require(t testing.TB, l cpu.Level) {
	t.Helper()
	run, why, err := Check(l)
	if err != nil {
		t.Fatal(err)
	}
	if !run {
		t.Skip(why)
	}
}

// Check tells whether a test of level l runs here, and why not: err is
// what Require fails on, why what it skips with.
func Check(l cpu.Level) (run bool, why string, err error) {
	flags, ferr := Level()
	switch {
	case ferr != nil && os.Getenv("CI") == "true":
		return false, "", fmt.Errorf("cputest: the CPU's flags are unreadable under CI: %w", ferr)
	case ferr != nil:
		return false, fmt.Sprintf("the CPU's flags are unreadable (%v): %s paths not tested", ferr, l), nil
	case flags < l:
		return false, fmt.Sprintf("this CPU's flags support %s, not %s", flags, l), nil
	}
	if cpu.Purego {
		return false, fmt.Sprintf("built with the purego tag: %s paths left out", l), nil
	}
	if env, _ := cpu.Env(); cpu.Active() < l && env != "" && env != "native" {
		return false, fmt.Sprintf("%s=%s lowers the process to %s", cpu.EnvVar, env, cpu.Active()), nil
	}
	if cpu.Active() < l {
		return false, "", fmt.Errorf("cputest: the CPU's flags support %s but internal/cpu runs %s", flags, cpu.Active())
	}
	return true, "", nil
}
