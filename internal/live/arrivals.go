package live

import (
	"math/rand/v2"
	"time"
)

// Arrivals generates the send schedule of an open-loop run: a Poisson
// process of the given rate, that is, independent exponentially distributed
// gaps between intended send times with mean 1/rate. The same seed gives the
// same schedule. Arrivals is not safe for concurrent use.
type Arrivals struct {
	rng  *rand.Rand
	rate float64 // requests per second
	next time.Duration
}

// NewArrivals returns a schedule of rate requests per second (rate > 0)
// drawn from a PCG generator seeded with seed. The first request is due at
// offset 0.
func NewArrivals(rate float64, seed uint64) *Arrivals {
	return &Arrivals{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), rate: rate}
}

// Next returns the intended send time of the next request, as an offset from
// the start of the run.
func (a *Arrivals) Next() time.Duration {
	at := a.next
	gap := a.rng.ExpFloat64() / a.rate * float64(time.Second)
	a.next += time.Duration(gap)
	return at
}
