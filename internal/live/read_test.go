package live

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/protocol"
)

// TestReadJSONRoundTrip writes a report as JSON and reads it back: the
// aggregates, samples and counts must come back as they were.
func TestReadJSONRoundTrip(t *testing.T) {
	rep := sampleReport(t, Config{Requests: 4, Rate: 20, Concurrency: 2, Seed: 7, Model: "gamma-k3"})
	rep.ChatsCreated, rep.WarmupFailed = 3, 1
	var b bytes.Buffer
	require.NoError(t, WriteJSON(&b, rep))
	got, err := ReadJSON(&b)
	require.NoError(t, err, "read back the JSON of sampleReport")

	assert.Equal(t, rep.Tool, got.Tool)
	assert.Equal(t, rep.Target, got.Target)
	assert.True(t, rep.StartedAt.Equal(got.StartedAt), "started_at %v, want %v", got.StartedAt, rep.StartedAt)
	assert.Equal(t, rep.Duration, got.Duration)
	assert.Equal(t, "https://user:xxxxx@api.example.com", got.Config.BaseURL, "the base URL comes back redacted")
	assert.Equal(t, "", got.Config.Key, "no key in a report")
	assert.Equal(t, rep.Config.Rate, got.Config.Rate)
	assert.Equal(t, rep.Config.Seed, got.Config.Seed)
	assert.Equal(t, rep.Config.Model, got.Config.Model)
	assert.Equal(t, rep.Mode(), got.Mode())
	assert.Equal(t, rep.Sent, got.Sent)
	assert.Equal(t, rep.OK, got.OK)
	assert.Equal(t, rep.Errors, got.Errors)
	assert.Equal(t, rep.BadLines, got.BadLines)
	assert.Equal(t, 3, got.ChatsCreated)
	assert.Equal(t, 1, got.WarmupFailed)
	for name, pair := range map[string][2]Summary{
		"ttfb": {rep.TTFB, got.TTFB}, "ttfl": {rep.TTFL, got.TTFL}, "ttft": {rep.TTFT, got.TTFT},
		"e2e": {rep.E2E, got.E2E}, "line gap": {rep.LineGap, got.LineGap}, "send delay": {rep.SendDelay, got.SendDelay},
	} {
		assert.Equal(t, pair[0], pair[1], "%s summary after the round trip", name)
	}
	require.Len(t, got.Samples, len(rep.Samples))
	for i := range rep.Samples {
		w, g := rep.Samples[i], got.Samples[i]
		w.BadLine = nil // kept in BadLines
		assert.Equal(t, w, g, "sample %d", i)
	}
}

func TestReadJSONErrors(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"not JSON", "{\n  \"tool\": x\n}", "read bench JSON: line 2:11: invalid character 'x'"},
		{"wrong type", "{\n  \"per_request\": [{\"lines\": \"many\"}]\n}", "read bench JSON: line 2:"},
		{"no records", `{"tool": "chatwire"}`, "no per_request records"},
		{"a conformance report", `{"tool": "chatwire", "checks": []}`, "no per_request records"},
		{"negative", `{"per_request": [{"lines": -1}]}`, "per_request[0]: negative"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadJSON(strings.NewReader(c.in))
			require.Error(t, err, "ReadJSON(%q)", c.in)
			assert.Contains(t, err.Error(), c.want, "error of ReadJSON(%q)", c.in)
		})
	}
}

// TestReadJSONRoundTripUI does the same for a UI run: its keys named after
// events, read back into the same samples, ends, notes and bad events.
func TestReadJSONRoundTripUI(t *testing.T) {
	good := sse(`{"type":"start","messageMetadata":{"chatId":"c1"}}`, `{"type":"text-delta","id":"t","delta":"caf`+"\xe9"+`"}`) + "data: [DONE]\n\n"
	bad := sse(`{"type":"start"}`, `{"type":"nope"}`)
	rep := runPaced(t, &streamHandler{body: func(i int) string { return []string{good, bad, good}[i] }, header: uiHeader()}, 3,
		func(int) pacing {
			return pacing{headers: msec, lines: []time.Duration{msec, 2 * msec, 3 * msec, 4 * msec}}
		})
	require.Equal(t, map[string]int{ErrBadEventType: 1}, rep.Errors)
	var b bytes.Buffer
	require.NoError(t, WriteJSON(&b, rep))
	assert.NotContains(t, b.String(), `"line_gap`, "no key of a UI report is named after lines")
	assert.NotContains(t, b.String(), `"lines"`, "no key of a UI report is named after lines")
	got, err := ReadJSON(&b)
	require.NoError(t, err, "read back the JSON of a UI run")
	assert.Equal(t, protocol.UI, got.Protocol)
	assert.Equal(t, rep.Ends, got.Ends)
	assert.Equal(t, map[string]int{"done": 2}, got.Ends)
	assert.Equal(t, map[string]int{"invalid_utf8": 2}, got.Notes)
	assert.Equal(t, rep.BadLines, got.BadLines)
	assert.Equal(t, 2, got.BadLines[0].Event, "the bad event's index")
	assert.Equal(t, rep.LineGap, got.LineGap, "the event gap")
	require.Len(t, got.Samples, len(rep.Samples))
	for i := range rep.Samples {
		w, g := rep.Samples[i], got.Samples[i]
		w.BadEvent = nil // kept in BadLines
		assert.Equal(t, w, g, "sample %d", i)
	}
}
