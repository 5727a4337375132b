#!/bin/sh
# abtime.sh times internal/jsvalue's textVector as the work tree generates it against
# the textVector of a git revision (default main) in one process: it copies
# the work tree, adds the revision's vector_amd64.s with its textVector
# renamed textVectorOld, checks that both read and write the same on the
# text parts of the 100k-line stream, and times them alternately, ROUNDS
# rounds (default 300) of each in turn, with GOMAXPROCS 1. It prints, for
# the parts joined in one text and one part at a time, the median and
# quartiles of the per-round ratio new/old and the ratio of the best times.
# On a shared machine, where benchcmp.sh's separate runs differ by tens of
# percent, the rounds see the same load.
#
# Usage: internal/jsvalue/_asm/abtime.sh [revision [rounds]]
set -eu

rev=${1:-main}
rounds=${2:-300}
here=$(cd "$(dirname "$0")" && pwd)
root=$(git -C "$here" rev-parse --show-toplevel)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

(cd "$root" && tar -c --exclude=.git --exclude=./internal/jsvalue/_asm --exclude=./bench --exclude=./fuzz .) | tar -x -C "$tmp"
# The revision's textVector alone, renamed (cpuid and xgetbv are dropped:
# the work tree's are the same functions).
git -C "$root" show "$rev:internal/jsvalue/vector_amd64.s" |
	sed 's/^TEXT ·textVector(SB)/TEXT ·textVectorOld(SB)/' |
	awk '/^TEXT ·(cpuid|xgetbv)\(SB\)/ { skip = 1 } !skip { print } skip && /^[ \t]*RET/ { skip = 0 }' \
		>"$tmp/internal/jsvalue/vector_old_amd64.s"
cat >"$tmp/internal/jsvalue/vector_old_amd64.go" <<'GO'
//go:build !purego

package jsvalue

//go:noescape
func textVectorOld(dst, src *byte, n int) (read, written int)
GO
cat >"$tmp/internal/jsvalue/abtime_test.go" <<'GO'
package jsvalue

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"
)

// decodeParts runs f over each part, a byte past each place it stops.
func decodeParts(f func(dst, src *byte, n int) (int, int), parts [][]byte, dst []byte) (sum int) {
	for _, p := range parts {
		for i := 0; i < len(p); {
			r, w := f(&dst[0], &p[i], len(p)-i)
			sum += r + w
			i += r + 1
		}
	}
	return sum
}

func TestTextVectorAB(t *testing.T) {
	rounds, err := strconv.Atoi(os.Getenv("ROUNDS"))
	if err != nil {
		t.Fatal(err)
	}
	parts := textParts(t)
	joined := [][]byte{bytes.Join(parts, nil)}
	dst := make([]byte, len(joined[0])+64)
	fns := [2]func(dst, src *byte, n int) (int, int){textVectorOld, textVector}
	for _, in := range []struct {
		name  string
		parts [][]byte
		reps  int
	}{{"joined", joined, 20}, {"parts", parts, 4}} {
		if old, neu := decodeParts(fns[0], in.parts, dst), decodeParts(fns[1], in.parts, dst); old != neu {
			t.Fatalf("%s: the two read and write differently (%d, %d)", in.name, old, neu)
		}
		var ratios []float64
		var best [2]time.Duration
		for round := range rounds {
			var d [2]time.Duration
			for j := range 2 {
				k := j ^ round&1 // old first in even rounds, new first in odd ones
				start := time.Now()
				for range in.reps {
					decodeParts(fns[k], in.parts, dst)
				}
				d[k] = time.Since(start) / time.Duration(in.reps)
				if best[k] == 0 || d[k] < best[k] {
					best[k] = d[k]
				}
			}
			ratios = append(ratios, float64(d[1])/float64(d[0]))
		}
		slices.Sort(ratios)
		n := len(ratios)
		fmt.Printf("%-6s new/old per round: median %.3f, quartiles %.3f-%.3f; best old %v, new %v: %.3f\n",
			in.name, ratios[n/2], ratios[n/4], ratios[3*n/4], best[0], best[1], float64(best[1])/float64(best[0]))
	}
}
GO
echo "textVector: work tree (new) against $rev (old), $rounds rounds"
cd "$tmp/internal/jsvalue" && ROUNDS=$rounds GOMAXPROCS=1 go test -count=1 -run '^TestTextVectorAB$' -v . | grep -E '^(joined|parts|FAIL|ok|---)'
