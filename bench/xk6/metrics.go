package chatwire

import (
	"errors"
	"fmt"

	"go.k6.io/k6/js/modules"
	"go.k6.io/k6/metrics"
)

// The names of the custom metrics; the package documentation defines them.
const (
	MetricTTFB         = "chatwire_ttfb"
	MetricTTFL         = "chatwire_ttfl"
	MetricTTFT         = "chatwire_ttft"
	MetricLineGap      = "chatwire_line_gap"
	MetricE2E          = "chatwire_e2e"
	MetricLines        = "chatwire_lines"
	MetricStreamBytes  = "chatwire_stream_bytes"
	MetricBadLines     = "chatwire_bad_lines"
	MetricStreamFailed = "chatwire_stream_failed"

	// The UI message stream's, named after its events where the v4 ones
	// are named after lines; the others (ttfb, ttft, e2e, stream bytes,
	// stream failed) are the same for both.
	MetricTTFE      = "chatwire_ttfe"
	MetricEventGap  = "chatwire_event_gap"
	MetricEvents    = "chatwire_events"
	MetricBadEvents = "chatwire_bad_events"

	// MetricTTFR is the time from a cut (params.cutAfter) to the first
	// line or event past those read, of a stream read whole across it.
	MetricTTFR = "chatwire_ttfr"
)

// streamMetrics are the custom metrics, registered once per test run.
type streamMetrics struct {
	TTFB, TTFL, TTFT, LineGap, E2E *metrics.Metric
	Lines, StreamBytes, BadLines   *metrics.Metric
	StreamFailed                   *metrics.Metric
	TTFE, EventGap                 *metrics.Metric
	Events, BadEvents              *metrics.Metric
	TTFR                           *metrics.Metric
}

// registerMetrics registers the custom metrics in the VU's registry, which
// exists in the init context only. The registry returns the metric it
// already holds when a name is registered again with the same type, so
// every VU gets the same metrics.
func registerMetrics(vu modules.VU) (*streamMetrics, error) {
	env := vu.InitEnv()
	if env == nil || env.Registry == nil {
		return nil, errors.New("k6/x/chatwire: import the module in the init context (at the top of the script)")
	}
	m := &streamMetrics{}
	for _, d := range []struct {
		dst  **metrics.Metric
		name string
		typ  metrics.MetricType
		val  metrics.ValueType
	}{
		{&m.TTFB, MetricTTFB, metrics.Trend, metrics.Time},
		{&m.TTFL, MetricTTFL, metrics.Trend, metrics.Time},
		{&m.TTFT, MetricTTFT, metrics.Trend, metrics.Time},
		{&m.LineGap, MetricLineGap, metrics.Trend, metrics.Time},
		{&m.E2E, MetricE2E, metrics.Trend, metrics.Time},
		{&m.Lines, MetricLines, metrics.Counter, metrics.Default},
		{&m.StreamBytes, MetricStreamBytes, metrics.Counter, metrics.Data},
		{&m.BadLines, MetricBadLines, metrics.Counter, metrics.Default},
		{&m.StreamFailed, MetricStreamFailed, metrics.Rate, metrics.Default},
		{&m.TTFE, MetricTTFE, metrics.Trend, metrics.Time},
		{&m.EventGap, MetricEventGap, metrics.Trend, metrics.Time},
		{&m.Events, MetricEvents, metrics.Counter, metrics.Default},
		{&m.BadEvents, MetricBadEvents, metrics.Counter, metrics.Default},
		{&m.TTFR, MetricTTFR, metrics.Trend, metrics.Time},
	} {
		metric, err := env.Registry.NewMetric(d.name, d.typ, d.val)
		if err != nil {
			return nil, fmt.Errorf("k6/x/chatwire: register metric %s: %w", d.name, err)
		}
		*d.dst = metric
	}
	return m, nil
}
