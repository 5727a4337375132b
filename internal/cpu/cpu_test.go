package cpu_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/cpu"
	"github.com/chatwire/chatwire/internal/cpu/cputest"
)

// TestDetectedIsTheCPUsOwn compares the detection (CPUID and XGETBV through
// golang.org/x/sys/cpu) with the flags the kernel lists for the CPU.
func TestDetectedIsTheCPUsOwn(t *testing.T) {
	flags, err := cputest.Level()
	if err != nil && os.Getenv("CI") != "true" {
		t.Skipf("the CPU's flags are unreadable: %v", err)
	}
	require.NoError(t, err, "reading /proc/cpuinfo")
	assert.Equal(t, flags, cpu.Detected(), "the level /proc/cpuinfo's flags support, against the one detected")
}

// TestActive: the process runs what the CPU has, unless CHATWIRE_CPU
// lowers it; a value CHATWIRE_CPU does not know fails here (and is shown by
// chatwire version), rather than being ignored silently.
func TestActive(t *testing.T) {
	env, err := cpu.Env()
	require.NoError(t, err, "CHATWIRE_CPU=%q", env)
	if cpu.Purego {
		assert.Equal(t, cpu.Portable, cpu.Active(), "with the purego tag")
		return
	}
	if env == "" || env == "native" {
		assert.Equal(t, cpu.Detected(), cpu.Active(), "with CHATWIRE_CPU unset")
		return
	}
	want, err := cpu.ParseLevel(env)
	require.NoError(t, err)
	assert.Equal(t, min(want, cpu.Detected()), cpu.Active(), "with CHATWIRE_CPU=%s", env)
}

func TestParseLevel(t *testing.T) {
	for _, l := range []cpu.Level{cpu.Portable, cpu.AVX2, cpu.AVX512} {
		got, err := cpu.ParseLevel(l.String())
		require.NoError(t, err)
		assert.Equal(t, l, got)
	}
	_, err := cpu.ParseLevel("AVX2")
	assert.ErrorContains(t, err, `unknown CPU level "AVX2"`)
}
