package live

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// durations turns whole milliseconds into durations.
func durations(msValues ...float64) []time.Duration {
	out := make([]time.Duration, len(msValues))
	for i, v := range msValues {
		out[i] = time.Duration(v * float64(time.Millisecond))
	}
	return out
}

func TestSummarize(t *testing.T) {
	// Expected values are NumPy's: np.percentile(x, p) (linear), np.std(x).
	tests := []struct {
		name   string
		values []time.Duration
		want   Summary
	}{
		{
			name:   "one to ten",
			values: durations(10, 9, 8, 7, 6, 5, 4, 3, 2, 1),
			want: Summary{N: 10, P50: 5500 * time.Microsecond, P90: 9100 * time.Microsecond,
				P95: 9550 * time.Microsecond, P99: 9910 * time.Microsecond, P999: 9991 * time.Microsecond,
				Mean: 5500 * time.Microsecond, Min: time.Millisecond, Max: 10 * time.Millisecond,
				Stddev: time.Duration(math.Round(math.Sqrt(8.25) * 1e6))},
		},
		{
			name:   "single value",
			values: durations(7),
			want: Summary{N: 1, P50: 7 * time.Millisecond, P90: 7 * time.Millisecond, P95: 7 * time.Millisecond,
				P99: 7 * time.Millisecond, P999: 7 * time.Millisecond, Mean: 7 * time.Millisecond,
				Min: 7 * time.Millisecond, Max: 7 * time.Millisecond},
		},
		{
			name:   "two values",
			values: durations(4, 2),
			want: Summary{N: 2, P50: 3 * time.Millisecond, P90: 3800 * time.Microsecond, P95: 3900 * time.Microsecond,
				P99: 3980 * time.Microsecond, P999: 3998 * time.Microsecond, Mean: 3 * time.Millisecond,
				Min: 2 * time.Millisecond, Max: 4 * time.Millisecond, Stddev: time.Millisecond},
		},
		{
			name:   "skewed with a tail",
			values: durations(1, 1, 1, 1, 1, 1, 1, 1, 1, 100),
			want: Summary{N: 10, P50: time.Millisecond, P90: 10900 * time.Microsecond, P95: 55450 * time.Microsecond,
				P99: 91090 * time.Microsecond, P999: 99109 * time.Microsecond, Mean: 10900 * time.Microsecond,
				Min: time.Millisecond, Max: 100 * time.Millisecond, Stddev: 29700 * time.Microsecond},
		},
		{name: "none", values: nil, want: Summary{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Summarize(tt.values)
			assert.Equal(t, tt.want, got, "Summarize(%v)", tt.values)
		})
	}
}

func TestPercentileBounds(t *testing.T) {
	sorted := durations(1, 2, 3)
	tests := []struct {
		p    float64
		want time.Duration
	}{
		{-1, time.Millisecond},
		{0, time.Millisecond},
		{0.25, 1500 * time.Microsecond},
		{1, 3 * time.Millisecond},
		{2, 3 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run("", func(t *testing.T) {
			assert.Equal(t, tt.want, Percentile(sorted, tt.p), "Percentile([1 2 3]ms, %g)", tt.p)
		})
	}
	assert.Zero(t, Percentile(nil, 0.5), "percentile of no values")
}

func TestSummarizeRates(t *testing.T) {
	got := SummarizeRates([]float64{4, 1, 3, 2})
	want := RateSummary{N: 4, P50: 2.5, P90: 3.7, P95: 3.85, P99: 3.97, P999: 3.997, Mean: 2.5, Min: 1, Max: 4, Stddev: math.Sqrt(1.25)}
	assert.InDeltaMapValues(t, rateMap(want), rateMap(got), 1e-12, "SummarizeRates([4 1 3 2])")
	assert.Equal(t, RateSummary{}, SummarizeRates(nil), "rates of no values")
}

func rateMap(s RateSummary) map[string]float64 {
	return map[string]float64{"n": float64(s.N), "p50": s.P50, "p90": s.P90, "p95": s.P95, "p99": s.P99,
		"p999": s.P999, "mean": s.Mean, "min": s.Min, "max": s.Max, "stddev": s.Stddev}
}

func TestSummaryJSON(t *testing.T) {
	tests := []struct {
		name string
		in   Summary
		want string
	}{
		{"milliseconds", Summarize(durations(1, 2, 3, 4)),
			`{"n":4,"p50":2.5,"p90":3.7,"p95":3.85,"p99":3.97,"p999":3.997,"mean":2.5,"min":1,"max":4,"stddev":1.118034}`},
		{"empty", Summary{}, `{"n":0}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.in)
			require.NoError(t, err, "marshal %+v", tt.in)
			assert.JSONEq(t, tt.want, string(b), "JSON of %+v", tt.in)
		})
	}
}
