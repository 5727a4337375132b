package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// checkRegisters reads the assembly written to path and reports a function
// that uses a register the CPUs it runs on may not have, or may not leave
// to it, where avo's register allocator chose one:
//
//   - X16 to X31, Y16 to Y31 and Z registers in a function that requires no
//     AVX-512 feature: the assembler would encode its instructions as
//     EVEX, which a CPU with AVX2 only faults on (and this machine would not
//     tell, having AVX-512);
//   - R15, which a global variable's access clobbers when the package is
//     built to be linked dynamically.
func checkRegisters(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var (
		fn       string
		avx512   bool
		requires string
		evex     = regexp.MustCompile(`\b([XY](1[6-9]|2[0-9]|3[01])|Z[0-9]+)\b`)
		r15      = regexp.MustCompile(`\bR15\b`)
	)
	s := bufio.NewScanner(f)
	for n := 1; s.Scan(); n++ {
		line := s.Text()
		switch {
		case strings.HasPrefix(line, "// Requires: "):
			requires = line
		case strings.HasPrefix(line, "TEXT "):
			fn, avx512, requires = line, strings.Contains(requires, "AVX512"), ""
		case strings.HasPrefix(line, "\t"):
			if !avx512 && evex.MatchString(line) {
				return fmt.Errorf("%s:%d: %s needs AVX-512 for %s", path, n, fn, strings.TrimSpace(line))
			}
			if r15.MatchString(line) {
				return fmt.Errorf("%s:%d: %s uses R15: %s", path, n, fn, strings.TrimSpace(line))
			}
		}
	}
	return s.Err()
}
