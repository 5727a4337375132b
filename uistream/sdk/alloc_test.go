package sdk

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheckChunkAllocatesNothingOnSuccess checks the claim of
// Release.CheckChunk: a chunk the client takes costs no allocation, for
// every sample some tested release accepts, but those with a key named
// __proto__ or constructor, which secureJsonParse scans (an allocating
// walk, as rare as such keys).
func TestCheckChunkAllocatesNothingOnSuccess(t *testing.T) {
	if testing.Short() {
		t.Skip("AllocsPerRun over every sample")
	}
	samples, _ := readVerdicts(t)
	checked := 0
	for _, s := range samples {
		data := []byte(s.JSON)
		for _, r := range []Release{MustParse("5.0.0"), MustParse("5.0.277"), MustParse("6.0.40"), MustParse("6.0.326"), MustParse("7.0.173")} {
			if r.CheckChunk(data) != nil || r.Schema().proto.suspect(data, ws(data, 0)) {
				continue
			}
			checked++
			allocs := testing.AllocsPerRun(20, func() {
				if r.CheckChunk(data) != nil {
					panic("verdict changed")
				}
			})
			assert.Zero(t, allocs, "ai@%s CheckChunk(%s) allocates", r, s.JSON)
		}
	}
	require.Greater(t, checked, 300, "accepted samples checked")
}
