// Package chatwire is the k6 extension k6/x/chatwire: chatwire's stream
// measurements (internal/live, the engine of `chatwire bench`) inside k6, so the
// same figures come from as many load generators as k6 runs on (k6-operator,
// Grafana Cloud k6). k6's own http module reads a whole body before it
// returns and cannot time the lines of a stream; this module can.
//
//	import chatwire from 'k6/x/chatwire';
//
//	export default function () {
//	  const res = chatwire.post(`${__ENV.BASE_URL}/api/chat`, { content: 'A landing page' }, {
//	    headers: { Authorization: `Bearer ${__ENV.CHATWIRE_API_KEY}` },
//	    timeout: '60s',
//	    firstLineTimeout: '20s',
//	    tags: { prompt: 'landing' },
//	  });
//	  console.log(res.status, res.chat_id, res.lines, res.error_kind);
//	}
//
// post sends one request through the VU's own transport and dialer, so k6's
// TLS options, hosts, blockHostnames, rps, tags and the data_sent and
// data_received metrics apply to it, and reads the response with the strict
// linestream decoder, line by line, or, for the UI message stream of AI SDK
// 5, 6 and 7 (told from each response: its headers, else its first bytes),
// with the strict uistream decoder, event by event. It blocks the VU until
// the stream has ended, like http.post, and gives up when the VU's context
// ends.
//
// # Metrics
//
// The definitions are internal/live's (the README's metric table):
//
//	chatwire_ttfb          trend, time  request handed to the client until the response headers
//	chatwire_ttfl          trend, time  same start, until the first complete line
//	chatwire_ttft          trend, time  same start, until the first 0: line with non-empty text
//	chatwire_line_gap      trend, time  between the arrivals of consecutive lines; every gap
//	chatwire_e2e           trend, time  same start, until the end of the body
//	chatwire_lines         counter      lines read (failed streams included)
//	chatwire_stream_bytes  counter, data  body bytes read (failed streams included)
//	chatwire_bad_lines     counter      streams cut short by a bad line (at most one each)
//	chatwire_stream_failed rate         1 for a failed stream, 0 for a successful one
//	chatwire_ttfe          trend, time  ui: same start, until the first complete event
//	chatwire_event_gap     trend, time  ui: between the arrivals of consecutive events; every gap
//	chatwire_events        counter      ui: events read (failed streams included)
//	chatwire_bad_events    counter      ui: streams cut short by a bad event (at most one each)
//	chatwire_ttfr          trend, time  with params.cutAfter: from the cut to the first unit past those read
//
// A v4 stream's samples go to the line metrics, a UI stream's to the event
// metrics; ttfb, ttft, e2e, stream bytes and stream failed take both.
//
// As in `chatwire bench`, the trends take successful streams only (status
// 200, at least one line, every line valid, the body read to its end); a
// failed stream counts in chatwire_stream_failed, and its kind is in the
// result's error_kind: "http_<status>", "transport", "timeout", "bad_line",
// "empty_stream", a UI stream's "bad_event_json", "bad_event_not_chunk",
// "bad_event_unknown_type" or "event_cap", and the other kinds of
// internal/live. A stream cut off because the VU's context ended (the
// test stopping) is neither: it is marked canceled and adds no sample.
//
// The samples of a stream are sent when it has ended, each stamped with the
// time of what it measures (the headers, the first line, the first text,
// each line's arrival, the end).
//
// # Files
//
//	module.go         RootModule and ModuleInstance: the extension as k6 loads it
//	post.go           post: one request, its stream read and measured; Stream, BadLine
//	params.go         the params of post, and their defaults
//	metrics.go        the custom metrics' names and their registration
//	cmd/k6/           k6 with the extension built in, without xk6
//	examples/         chat.js, a k6-operator TestRun, the image
//	run.sh            one k6 build with the extension, examples/chat.js against the mock
package chatwire
