package judge

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDiff: what differs between a joined stream and its reference is
// named as its user would name it.
func TestDiff(t *testing.T) {
	types := []string{"start", "text-start", "text-delta", "text-delta", "text-end", "finish"}
	ref := []string{"s", "ts", "d1", "d2", "te", "f"}
	for _, c := range []struct {
		name string
		got  []string
		want string
	}{
		{"the same", []string{"s", "ts", "d1", "d2", "te", "f"}, ""},
		{"unfinished", []string{"s", "ts", "d1", "d2"}, "unfinished: it stops after item 4 of the reference's 6"},
		{"lost", []string{"s", "ts", "d2", "te", "f"}, "lost: items 2 to 2 of the reference's are missing before item 2 (text-delta)"},
		{"duplicated", []string{"s", "ts", "d1", "d1", "d2", "te", "f"}, "duplicated: item 3 (text-delta) repeats item 2"},
		{"reordered", []string{"s", "ts", "d2", "d1", "te", "f"}, "reordered: item 2 (text-delta) comes before items 2 to 2 of the reference's"},
		{"altered", []string{"s", "ts", "dX", "d2", "te", "f"}, "altered: item 2 (text-delta) is not the reference's"},
		{"duplicated after the end", []string{"s", "ts", "d1", "d2", "te", "f", "d2"}, "duplicated: item 6 (?) repeats item 3 after the end"},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, diff(c.got, ref, types))
		})
	}
}
