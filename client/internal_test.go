// Tests of unexported helpers; everything else is tested from package client_test.

package client

import (
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestModuleVersion(t *testing.T) {
	dep := func(path, version string, replace *debug.Module) *debug.Module {
		return &debug.Module{Path: path, Version: version, Replace: replace}
	}
	tests := []struct {
		name string
		info debug.BuildInfo
		want string
	}{
		{"main module, devel", debug.BuildInfo{Main: *dep(modulePath, "(devel)", nil)}, "devel"},
		{"main module, VCS version", debug.BuildInfo{Main: *dep(modulePath, "v0.2.1-0.20261123180000-abcdef123456+dirty", nil)},
			"v0.2.1-0.20261123180000-abcdef123456+dirty"},
		{"dependency", debug.BuildInfo{Main: *dep("example.com/app", "(devel)", nil),
			Deps: []*debug.Module{dep("golang.org/x/perf", "v0.1.0", nil), dep(modulePath, "v0.3.0", nil)}}, "v0.3.0"},
		{"replaced dependency", debug.BuildInfo{Main: *dep("example.com/app", "", nil),
			Deps: []*debug.Module{dep(modulePath, "v0.3.0", dep("example.com/fork", "v0.3.1-fork", nil))}}, "v0.3.1-fork"},
		{"replaced by a directory", debug.BuildInfo{Main: *dep("example.com/app", "", nil),
			Deps: []*debug.Module{dep(modulePath, "v0.3.0", dep("../chatwire", "", nil))}}, "devel"},
		{"not a dependency", debug.BuildInfo{Main: *dep("example.com/app", "v1.0.0", nil)}, "devel"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, moduleVersion(&tt.info))
		})
	}
}

func TestBackoff(t *testing.T) {
	const max = 5 * time.Second
	want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, max, max}
	for attempt, w := range want {
		assert.Equal(t, w, backoff(attempt, max), "attempt %d", attempt)
	}
	assert.Equal(t, max, backoff(1000, max), "no overflow")
}

// TestResumeWait: the k-th attempt waits from 0 to min(max, base·2^(k-1)),
// spread over that range (full jitter).
func TestResumeWait(t *testing.T) {
	const base, most = 100 * time.Millisecond, time.Second
	for k, bound := range map[int]time.Duration{1: base, 2: 2 * base, 4: 8 * base, 5: most, 60: most} {
		var lo, hi time.Duration = bound, 0
		for range 2000 {
			w := resumeWait(k, base, most)
			require.True(t, w >= 0 && w <= bound, "attempt %d waits %v, want 0 to %v", k, w, bound)
			lo, hi = min(lo, w), max(hi, w)
		}
		assert.Less(t, lo, bound/10, "attempt %d: some waits are short", k)
		assert.Greater(t, hi, bound*9/10, "attempt %d: some waits are long", k)
	}
}
