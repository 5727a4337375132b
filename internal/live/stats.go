package live

import (
	"encoding/json"
	"math"
	"slices"
	"time"
)

// A Summary describes a set of durations: their count, percentiles, mean,
// extremes and standard deviation.
//
// Percentiles are linearly interpolated between the two nearest ranks
// (Hyndman and Fan's definition 7, the default of NumPy's percentile, which
// vLLM's bench serve and GenAI-Perf use): for p in [0,1] over the n sorted
// values x[0..n-1], h = (n-1)·p and the percentile is
// x[⌊h⌋] + (h-⌊h⌋)·(x[⌊h⌋+1] - x[⌊h⌋]). Stddev is the population standard
// deviation (divisor n, as NumPy's std). The zero Summary (N = 0) describes
// no values; its other fields are meaningless.
type Summary struct {
	N      int
	P50    time.Duration
	P90    time.Duration
	P95    time.Duration
	P99    time.Duration
	P999   time.Duration
	Mean   time.Duration
	Min    time.Duration
	Max    time.Duration
	Stddev time.Duration
}

// Summarize returns the summary of values. It sorts values in place.
func Summarize(values []time.Duration) Summary {
	n := len(values)
	if n == 0 {
		return Summary{}
	}
	slices.Sort(values)
	var sum float64
	for _, v := range values {
		sum += float64(v)
	}
	mean := sum / float64(n)
	var sq float64
	for _, v := range values {
		d := float64(v) - mean
		sq += d * d
	}
	return Summary{
		N:      n,
		P50:    Percentile(values, 0.50),
		P90:    Percentile(values, 0.90),
		P95:    Percentile(values, 0.95),
		P99:    Percentile(values, 0.99),
		P999:   Percentile(values, 0.999),
		Mean:   round(mean),
		Min:    values[0],
		Max:    values[n-1],
		Stddev: round(math.Sqrt(sq / float64(n))),
	}
}

// Percentile returns the p-th quantile (p in [0,1]) of the sorted values,
// linearly interpolated between the nearest ranks as [Summary] describes.
// It returns 0 for no values.
func Percentile(sorted []time.Duration, p float64) time.Duration {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	p = min(max(p, 0), 1)
	h := float64(n-1) * p
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	frac := h - float64(lo)
	return sorted[lo] + round(frac*float64(sorted[lo+1]-sorted[lo]))
}

func round(ns float64) time.Duration { return time.Duration(math.Round(ns)) }

// ms converts a duration to fractional milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// summaryJSON is the JSON form of [Summary] (in milliseconds) and [RateSummary].
type summaryJSON struct {
	N      int     `json:"n"`
	P50    float64 `json:"p50"`
	P90    float64 `json:"p90"`
	P95    float64 `json:"p95"`
	P99    float64 `json:"p99"`
	P999   float64 `json:"p999"`
	Mean   float64 `json:"mean"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	Stddev float64 `json:"stddev"`
}

// MarshalJSON writes the summary in milliseconds:
// {"n":…,"p50":…,"p90":…,"p95":…,"p99":…,"p999":…,"mean":…,"min":…,"max":…,"stddev":…};
// a summary of no values is {"n":0}.
func (s Summary) MarshalJSON() ([]byte, error) {
	if s.N == 0 {
		return []byte(`{"n":0}`), nil
	}
	return json.Marshal(summaryJSON{s.N, ms(s.P50), ms(s.P90), ms(s.P95), ms(s.P99), ms(s.P999), ms(s.Mean), ms(s.Min), ms(s.Max), ms(s.Stddev)})
}

// A RateSummary describes a set of per-request rates (lines or bytes per
// second), with the same percentile method as [Summary].
type RateSummary struct {
	N      int
	P50    float64
	P90    float64
	P95    float64
	P99    float64
	P999   float64
	Mean   float64
	Min    float64
	Max    float64
	Stddev float64
}

// SummarizeRates returns the summary of values. It sorts values in place.
func SummarizeRates(values []float64) RateSummary {
	n := len(values)
	if n == 0 {
		return RateSummary{}
	}
	slices.Sort(values)
	var sum float64
	for _, v := range values {
		sum += v
	}
	mean := sum / float64(n)
	var sq float64
	for _, v := range values {
		sq += (v - mean) * (v - mean)
	}
	return RateSummary{
		N:      n,
		P50:    percentileFloat(values, 0.50),
		P90:    percentileFloat(values, 0.90),
		P95:    percentileFloat(values, 0.95),
		P99:    percentileFloat(values, 0.99),
		P999:   percentileFloat(values, 0.999),
		Mean:   mean,
		Min:    values[0],
		Max:    values[n-1],
		Stddev: math.Sqrt(sq / float64(n)),
	}
}

func percentileFloat(sorted []float64, p float64) float64 {
	n := len(sorted)
	h := float64(n-1) * p
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// MarshalJSON writes the summary with the field names of [Summary]'s JSON;
// a summary of no values is {"n":0}.
func (s RateSummary) MarshalJSON() ([]byte, error) {
	if s.N == 0 {
		return []byte(`{"n":0}`), nil
	}
	return json.Marshal(summaryJSON(s))
}
