package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance"
)

func TestWriteJSONGolden(t *testing.T) {
	tests := []struct {
		name   string
		report *conformance.Report
	}{
		{"report.json", fixtureReport()},
		{"empty.json", emptyReport()},
		{"interrupted.json", interruptedReport()},
		{"unreachable.json", unreachableReport()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, WriteJSON(&b, tt.report), "write %s", tt.name)
			golden(t, tt.name+".golden", b.Bytes())
		})
	}
}

func TestJSONRoundTrip(t *testing.T) {
	tests := []struct {
		name   string
		report *conformance.Report
	}{
		{"fixture", fixtureReport()},
		{"empty", emptyReport()},
		{"interrupted", interruptedReport()},
		{"unreachable", unreachableReport()},
		{"zero", &conformance.Report{}},
		{"a failure kind", func() *conformance.Report {
			r := emptyReport()
			r.Results = []conformance.Result{{ID: "chat/5.3/missing-key-401", Outcome: conformance.Fail,
				Reason: "the service answered, but broke HTTP: not_http: response is not HTTP", Failure: "not_http",
			}}
			return r
		}()},
		{"offset time", func() *conformance.Report {
			r := emptyReport()
			r.StartedAt = time.Date(2026, 5, 4, 11, 30, 0, 123456789, time.FixedZone("", 2*60*60))
			return r
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var first bytes.Buffer
			require.NoError(t, WriteJSON(&first, tt.report))
			back, err := ReadJSON(bytes.NewReader(first.Bytes()))
			require.NoError(t, err, "ReadJSON must read what WriteJSON wrote:\n%s", first.String())

			want, got := *tt.report, *back
			want.Summary = tally(want.Results)
			assert.True(t, want.StartedAt.Equal(got.StartedAt), "started_at must survive the round trip: want %v, got %v", want.StartedAt, back.StartedAt)
			want.StartedAt, got.StartedAt = time.Time{}, time.Time{} // the zone is an offset after the trip
			if want.Results == nil {
				want.Results = []conformance.Result{}
			}
			assert.Equal(t, want, got, "WriteJSON → ReadJSON must give the report back")

			var second bytes.Buffer
			require.NoError(t, WriteJSON(&second, back))
			assert.Equal(t, first.String(), second.String(), "writing the read report must give the same bytes")
		})
	}
}

func TestWriteJSONShape(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteJSON(&b, fixtureReport()))

	t.Run("key order", func(t *testing.T) {
		assert.Equal(t, []string{"format", "tool", "version", "spec", "target", "strict", "started_at", "duration_ms",
			"interrupted", "unreachable", "summary", "spend", "checks"}, objectKeys(t, b.Bytes()), "top-level keys")
		var stopped bytes.Buffer
		require.NoError(t, WriteJSON(&stopped, unreachableReport()))
		assert.Equal(t, []string{"format", "tool", "version", "spec", "target", "strict", "started_at", "duration_ms",
			"interrupted", "unreachable", "stopped", "summary", "spend", "checks"}, objectKeys(t, stopped.Bytes()), "top-level keys of a run that stopped")
		var doc struct {
			Summary json.RawMessage
			Spend   json.RawMessage
			Checks  []json.RawMessage
		}
		require.NoError(t, json.Unmarshal(b.Bytes(), &doc))
		assert.Equal(t, []string{"pass", "warn", "info", "fail", "skip", "inconclusive", "error"}, objectKeys(t, doc.Summary), "summary keys")
		assert.Equal(t, []string{"chats_created"}, objectKeys(t, doc.Spend), "spend keys")
		require.NotEmpty(t, doc.Checks)
		for i, c := range doc.Checks {
			assert.Equal(t, []string{"id", "title", "section", "level", "kind", "cost", "requirement", "outcome", "reason",
				"expected", "actual", "attempts", "duration_ms", "params", "curl", "transcripts"}, objectKeys(t, c), "keys of check %d", i)
		}
	})
	t.Run("no null", func(t *testing.T) {
		assert.NotContains(t, b.String(), "null", "empty lists must be [] and empty params {}, never null")
		assert.Contains(t, b.String(), `"expected": [],`, "a check without expected values has []")
		assert.Contains(t, b.String(), `"params": {},`, "a check without params has {}")
		assert.Contains(t, b.String(), `"transcripts": []`, "a check without transcripts has []")
	})
	t.Run("values", func(t *testing.T) {
		for _, want := range []string{
			`"started_at": "2026-05-04T09:30:00Z",`,
			`"duration_ms": 4213,`,
			`"duration_ms": 1500,`,
			`"chats_created": 3`,
			`"reason": "every line is` + "",
			`"curl": "curl -sS -X POST 'http://127.0.0.1:8080/api/chat' -H \"Authorization: Bearer $CHATWIRE_API_KEY\"`,
			`"actual": "x:1\u001b[31m\u0000|` + "`pipe`" + `|` + "\u202e" + `",`,
		} {
			if strings.HasPrefix(want, `"reason": "every`) {
				continue
			}
			assert.Contains(t, b.String(), want, "JSON must hold the value")
		}
		assert.Contains(t, b.String(), `"title": "every line is <code>:<JSON> & well shaped",`, "no HTML escaping of < > &")
	})
}

// objectKeys returns the keys of a JSON object in document order.
func objectKeys(t *testing.T, data []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	require.NoError(t, err)
	require.Equal(t, json.Delim('{'), tok, "want an object in %s", data)
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		require.NoError(t, err)
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		require.NoError(t, dec.Decode(&skip))
	}
	return keys
}

func TestWriteJSONRoundsDurations(t *testing.T) {
	r := emptyReport()
	r.Duration = 1499600 * time.Microsecond
	r.Results = []conformance.Result{{ID: "chat/4.6/x", Outcome: conformance.Pass, Duration: 400 * time.Microsecond}}
	var b bytes.Buffer
	require.NoError(t, WriteJSON(&b, r))
	assert.Contains(t, b.String(), `"duration_ms": 1500,`, "1.4996s must round to 1500 ms")
	assert.Contains(t, b.String(), `"duration_ms": 0,`, "0.4ms must round to 0 ms")
}

func TestReadJSONErrors(t *testing.T) {
	var valid bytes.Buffer
	require.NoError(t, WriteJSON(&valid, fixtureReport()))
	good := valid.String()
	replace := func(old, new string) string {
		require.Contains(t, good, old, "the fixture JSON must hold %q to make the bad case", old)
		return strings.Replace(good, old, new, 1)
	}
	// The second check ("chat/5.3/wrong-scheme-401") starts on this line.
	secondCheckLine := strings.Count(good[:strings.Index(good, `"id": "chat/5.3/wrong-scheme-401"`)], "\n")
	attemptsLine := strings.Count(good[:strings.Index(good, `"attempts": 3,`)], "\n") + 1

	tests := []struct {
		name      string
		input     string
		line, col int
		msg       string
	}{
		{"empty input", "", 1, 1, "unexpected end of JSON input"},
		{"syntax", "{\n  \"tool\": \"chatwire\",\n  \"version\" \"0.1.0\"\n}", 3, 13, "invalid character"},
		{"trailing data", "{\"checks\": []} x", 1, 16, "invalid character 'x' after top-level value"},
		{"wrong type", replace(`"attempts": 3,`, `"attempts": "3",`), attemptsLine, 19, "checks.attempts: want an integer, have string"},
		{"list for the report", `[]`, 1, 1, "the report: want an object, have array"},
		{"object for checks", `{"checks": {}}`, 1, 12, "checks: want a list, have object"},
		{"float duration", `{"checks": [{"duration_ms": 1.5}]}`, 1, 29, "checks.duration_ms: want an integer, have number 1.5"},
		{"no checks", `{"tool": "chatwire", "started_at": "2026-05-04T09:30:00Z"}`, 0, 0, "no checks"},
		{"null checks", "{\"started_at\": \"2026-05-04T09:30:00Z\",\n \"checks\": null}", 2, 12, "no checks"},
		{"unknown outcome", replace(`"outcome": "warn"`, `"outcome": "maybe"`), secondCheckLine, 5, `checks[1] "chat/5.3/wrong-scheme-401": unknown outcome "maybe"`},
		{"unknown level", replace(`"level": "SHOULD"`, `"level": "MAY"`), secondCheckLine, 5, `checks[1] "chat/5.3/wrong-scheme-401": unknown level "MAY"`},
		{"no id", replace(`"id": "chat/5.3/wrong-scheme-401"`, `"id": ""`), secondCheckLine, 5, `checks[1] "": no id`},
		{"negative attempts", replace(`"attempts": 3,`, `"attempts": -3,`), 0, 0, "negative attempts -3"},
		{"bad started_at", replace(`"started_at": "2026-05-04T09:30:00Z"`, `"started_at": "yesterday"`), 8, 17, `started_at "yesterday" is not an RFC 3339 time`},
		{"negative duration", replace(`"duration_ms": 4213`, `"duration_ms": -1`), 9, 18, "negative duration_ms -1"},
		{"summary mismatch", replace(`"pass": 4,`, `"pass": 5,`), 12, 14, "summary {Pass:5 Warn:2 Info:2 Fail:2 Skip:2 Inconclusive:1 Error:1} does not match the checks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadJSON(strings.NewReader(tt.input))
			require.Error(t, err, "ReadJSON must reject %s", tt.name)
			var re *ReadError
			require.True(t, errors.As(err, &re), "want a *ReadError, got %T: %v", err, err)
			assert.Contains(t, re.Msg, tt.msg, "message of %s", tt.name)
			if tt.line > 0 {
				assert.Equal(t, tt.line, re.Line, "line of %s: %v", tt.name, err)
				assert.Equal(t, tt.col, re.Col, "column of %s: %v", tt.name, err)
				assert.Contains(t, err.Error(), "report: line ", "the error text names the place")
			}
		})
	}
}

func TestReadJSONIgnoresUnknownKeys(t *testing.T) {
	in := `{"tool": "chatwire", "started_at": "2026-05-04T09:30:00Z", "summary": {"pass": 1}, "future": {"x": 1},
	"checks": [{"id": "chat/4.6/documented-status", "outcome": "pass", "new_field": true}]}`
	r, err := ReadJSON(strings.NewReader(in))
	require.NoError(t, err, "keys of a later version must not stop the read")
	require.Len(t, r.Results, 1)
	assert.Equal(t, conformance.Pass, r.Results[0].Outcome)
	assert.Nil(t, r.Results[0].Expected, "missing lists read as nil")
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.ErrUnsupported }

func TestReadJSONReadError(t *testing.T) {
	_, err := ReadJSON(errReader{})
	assert.ErrorIs(t, err, errors.ErrUnsupported, "a failing reader's error must be wrapped")
}

// TestReadJSONVersions reads a report of version 1 (no format key), whose
// unreachable stands for a stop, and refuses a document of another format.
func TestReadJSONVersions(t *testing.T) {
	v1 := `{"tool": "chatwire", "started_at": "2026-05-04T09:30:00Z", "interrupted": false, "unreachable": "target unreachable: refused",
	"summary": {"inconclusive": 1}, "checks": [{"id": "chat/5.3/missing-key-401", "outcome": "inconclusive", "reason": "target unreachable: refused"}]}`
	r, err := ReadJSON(strings.NewReader(v1))
	require.NoError(t, err, "a version 1 report reads")
	require.NotNil(t, r.Stopped, "its unreachable is a stop")
	assert.Equal(t, conformance.Stop{Kind: conformance.StopUnreachable, Reason: "target unreachable: refused"}, *r.Stopped)

	var b bytes.Buffer
	require.NoError(t, WriteJSON(&b, keyRejectedReport()))
	back, err := ReadJSON(&b)
	require.NoError(t, err)
	assert.Equal(t, keyRejectedReport().Stopped, back.Stopped, "a stop reads back")
	assert.Empty(t, back.Unreachable, "a rejected key is no unreachable target")

	_, err = ReadJSON(strings.NewReader(`{"format": "chatwire-transcript/1", "checks": []}`))
	var re *ReadError
	require.ErrorAs(t, err, &re, "a transcript header is not a report")
	assert.Contains(t, re.Msg, `format "chatwire-transcript/1" is not a chatwire report's`)
	assert.Equal(t, 1, re.Line)
}
