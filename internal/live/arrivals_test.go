package live

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestArrivalsPoisson(t *testing.T) {
	const n = 200_000
	for _, tt := range []struct {
		name string
		rate float64
		seed uint64
	}{
		{"2 per second", 2, 1},
		{"50 per second", 50, 42},
		{"0.1 per second", 0.1, 7},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := NewArrivals(tt.rate, tt.seed)
			require.Zero(t, a.Next(), "the first request is due at once")
			mean := 1 / tt.rate
			var prev time.Duration
			var sum, sumSq float64
			below := 0 // gaps shorter than the mean: P = 1 - 1/e for an exponential
			back := 0
			for range n {
				at := a.Next()
				gap := (at - prev).Seconds()
				if gap < 0 {
					back++
				}
				prev = at
				sum += gap
				sumSq += gap * gap
				if gap < mean {
					below++
				}
			}
			require.Zero(t, back, "intended send times never go back")
			gotMean := sum / n
			gotStd := math.Sqrt(sumSq/n - gotMean*gotMean)
			// The standard error of the mean of n exponential gaps is mean/√n
			// (0.22% here); 1% is over four of them.
			assert.InEpsilon(t, mean, gotMean, 0.01, "mean gap at rate %g/s over %d gaps", tt.rate, n)
			assert.InEpsilon(t, mean, gotStd, 0.02, "an exponential's standard deviation equals its mean")
			assert.InDelta(t, 1-1/math.E, float64(below)/n, 0.005, "share of gaps below the mean")
			assert.InEpsilon(t, float64(n)/tt.rate, prev.Seconds(), 0.01, "the %d-th request is due near n/rate", n)
		})
	}
}

func TestArrivalsSeeded(t *testing.T) {
	a, b, c := NewArrivals(5, 9), NewArrivals(5, 9), NewArrivals(5, 10)
	same, differ := true, false
	for range 100 {
		x, y, z := a.Next(), b.Next(), c.Next()
		same = same && x == y
		differ = differ || x != z
	}
	assert.True(t, same, "the same seed gives the same schedule")
	assert.True(t, differ, "another seed gives another schedule")
}
