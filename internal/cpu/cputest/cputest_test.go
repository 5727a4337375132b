package cputest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/cpu"
	"github.com/chatwire/chatwire/internal/cpu/cputest"
)

func TestLevelOf(t *testing.T) {
	for _, tc := range []struct {
		name, cpuinfo string
		want          cpu.Level
	}{
		{"no flags", "processor\t: 0\nflags\t\t: fpu sse2\n", cpu.Portable},
		{"avx2 without bmi2", "flags\t\t: avx2 bmi1 popcnt pclmulqdq\n", cpu.Portable},
		{"avx2", "processor : 0\nflags : fpu avx2 bmi1 bmi2 popcnt pclmulqdq avx512f\n", cpu.AVX2},
		{"avx512 without vbmi2", "flags : avx2 bmi1 bmi2 popcnt pclmulqdq avx512f avx512bw avx512vl avx512vbmi\n", cpu.AVX2},
		{"avx512", "flags : avx2 bmi1 bmi2 popcnt pclmulqdq avx512f avx512bw avx512vl avx512vbmi avx512_vbmi2\n", cpu.AVX512},
		{"first processor counts", "flags : avx2 bmi1 bmi2 popcnt pclmulqdq\nflags : avx2 bmi1 bmi2 popcnt pclmulqdq avx512f avx512bw avx512vl avx512vbmi avx512_vbmi2\n", cpu.AVX2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := cputest.LevelOf([]byte(tc.cpuinfo))
			require.NoError(t, err)
			assert.Equal(t, tc.want, got, "level of %q", tc.cpuinfo)
		})
	}
	_, err := cputest.LevelOf([]byte("processor : 0\n"))
	assert.Error(t, err, "a cpuinfo without a flags line")
}
