package mock

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/uistream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// uiStreamBody is a create that streams, with reasoning, so that the UI
// stream carries every kind of chunk the mock writes.
const uiStreamBody = `{"content":"a page for my café \"Chez Ünïcode\"\n","reasoningEffort":"high"}`

// uiStreamContent is the content of uiStreamBody.
const uiStreamContent = "a page for my café \"Chez Ünïcode\"\n"

// uiThrowers says, for each UI fault, which of the default releases of a
// skew report (sdk.DefaultReleases) throw on its stream, or report an
// error chunk through onError (an error to useChat, which stops there):
// what the fault's description claims. The Go emulation (TestUIFaultClients) and the real
// clients (TestUIRealClients) must both agree with it.
var uiThrowers = map[string][]string{
	faultUIUnknownChunkType:    {"5.0.0", "5.0.277", "6.0.0", "6.0.326", "7.0.0", "7.0.173"},
	faultUIDeltaNotStarted:     {"5.0.0", "5.0.277", "6.0.0", "6.0.326", "7.0.0", "7.0.173"},
	faultUIDeltaAfterEnd:       {"5.0.0", "5.0.277", "6.0.0", "6.0.326", "7.0.0", "7.0.173"},
	faultUIOutputUnknownCall:   {"5.0.0", "5.0.277", "6.0.0", "6.0.326", "7.0.0", "7.0.173"},
	faultUINoTextStart:         {"5.0.0", "5.0.277", "6.0.0", "6.0.326", "7.0.0", "7.0.173"},
	faultUIFinishReasonUnknown: {"5.0.0", "6.0.0", "6.0.326", "7.0.0", "7.0.173"},
	faultUIChunkFrom7:          {"5.0.0", "5.0.277", "6.0.0", "6.0.326"},
	faultUIJSONSplit:           {"5.0.0", "5.0.277", "6.0.0", "6.0.326", "7.0.0", "7.0.173"},
	faultUIStrictUnknownKey:    {"5.0.0"},
	faultUINoFinalBlankLine:    nil,
	faultUIContentType:         nil,
	faultUIChatIDMissing:       nil,
	faultUINoDone:              nil,
	faultUIEmptyStream:         nil,
	faultUINoFinish:            nil,
	faultUITextUnfinished:      nil,
	faultUIChunkOutsideData:    nil,
	faultUIMessageIDChanges:    nil,
	faultUINotUTF8:             nil,
	faultUIErrorThenFinish:     {"5.0.0", "5.0.277", "6.0.0", "6.0.326", "7.0.0", "7.0.173"},
	faultUIChatIDChanges:       nil,
	faultUIChatIDReused:        nil,
}

// uiReading is what the Go emulation of the clients makes of a UI stream.
type uiReading struct {
	events   int      // events with data, [DONE] included
	done     bool     // a data: [DONE] was read
	dropped  bool     // the last event was dropped (no blank line after it)
	decodeOK bool     // the framing and the JSON hold to the end
	throwers []string // the default releases that throw, oldest first
	messages map[string]string
}

// readUIStream reads body as the decoder and every default release's
// schema (sdk CheckChunk) and assembly (client/uimessage) do.
func readUIStream(t *testing.T, body string) uiReading {
	t.Helper()
	d := uistream.NewDecoder(strings.NewReader(body))
	var chunks [][]byte
	rd := uiReading{messages: map[string]string{}}
	for d.Next() {
		chunks = append(chunks, slices.Clone(d.Chunk().Data))
	}
	rd.done = d.Done()
	rd.events = d.Events()
	rd.decodeOK = d.Err() == nil
	for _, w := range d.Warnings() {
		if w.Kind == uistream.WarnUnterminated {
			rd.dropped = true
		}
	}
	for _, rel := range sdk.DefaultReleases() {
		a := uimessage.NewAssembler(rel)
		threw := !rd.decodeOK
		for _, c := range chunks {
			if threw {
				break
			}
			if err := rel.CheckChunk(c); err != nil {
				threw = true
				break
			}
			if err := a.Add(c); err != nil || bytes.HasPrefix(c, []byte(`{"type":"error"`)) {
				threw = true
			}
		}
		if threw {
			rd.throwers = append(rd.throwers, rel.String())
		} else {
			rd.messages[rel.String()] = string(a.AppendJSON(nil))
		}
	}
	return rd
}

// uiMock starts a UI stream mock.
func uiMock(t *testing.T, opts Options) *httptest.Server {
	t.Helper()
	opts.Protocol = protocol.UI
	_, ts := newMock(t, opts)
	return ts
}

// uiMessage is the part of a UIMessage the tests look at.
type uiMessage struct {
	ID       string `json:"id"`
	Metadata struct {
		ChatID string `json:"chatId"`
	} `json:"metadata"`
	Parts []struct {
		Type  string          `json:"type"`
		Text  string          `json:"text"`
		State string          `json:"state"`
		Input json.RawMessage `json:"input"`
	} `json:"parts"`
}

func TestUIStream(t *testing.T) {
	for _, specOnly := range []bool{false, true} {
		ts := uiMock(t, Options{SpecPartsOnly: specOnly})
		resp, body := send(t, ts, request{auth: bearer(KeyValid), body: uiStreamBody})
		require.Equal(t, http.StatusOK, resp.StatusCode, body)
		assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
		assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"), "the SDK server's headers")
		assert.Equal(t, "no", resp.Header.Get("X-Accel-Buffering"))
		assert.Equal(t, "v1", resp.Header.Get(protocol.HeaderUI))
		assert.Empty(t, resp.Header.Get(protocol.HeaderV4))
		assert.Equal(t, protocol.UI, protocol.FromHeader(resp.Header))
		assert.Equal(t, protocol.UI, protocol.Sniff([]byte(body)))
		assert.True(t, strings.HasPrefix(body, `data: {"type":"start","messageMetadata":{"chatId":"chat_`), body)
		assert.True(t, strings.HasSuffix(body, "data: {\"type\":\"finish\"}\n\ndata: [DONE]\n\n"), body)

		rd := readUIStream(t, body)
		require.True(t, rd.decodeOK, body)
		assert.True(t, rd.done, "data: [DONE] at the end")
		assert.Empty(t, rd.throwers, "every default release reads the conformant stream: %s", body)
		for rel, js := range rd.messages {
			var m uiMessage
			require.NoError(t, json.Unmarshal([]byte(js), &m), "%s: %s", rel, js)
			assert.True(t, strings.HasPrefix(m.Metadata.ChatID, "chat_"), "%s: the chat id in metadata: %s", rel, js)
			assert.True(t, strings.HasPrefix(m.ID, "msg_"), "%s: the message id: %s", rel, js)
			var text strings.Builder
			var types []string
			for _, p := range m.Parts {
				types = append(types, p.Type)
				text.WriteString(p.Text)
			}
			assert.Contains(t, text.String(), "Reading your request: “a page for my café \"Chez Ünïcode\"”\n", rel)
			assert.Contains(t, text.String(), "Done: your page", rel)
			if specOnly {
				assert.Equal(t, []string{"text"}, types, "%s: %s", rel, js)
				continue
			}
			assert.Equal(t, []string{"step-start", "reasoning", "text", "tool-writeFile", "step-start", "text"}, types, "%s: %s", rel, js)
			assert.Equal(t, "output-available", m.Parts[3].State, rel)
			assert.JSONEq(t, `{"path":"index.html","bytes":`+itoa(1024+37*len(uiStreamContent))+`}`, string(m.Parts[3].Input), rel)
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestUIFollowUpsAndJSON(t *testing.T) {
	ts := uiMock(t, Options{Fault: faultUIUnknownChunkType})
	resp, body := send(t, ts, request{auth: bearer(KeyValid), body: jsonBody})
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	var c created
	require.NoError(t, json.Unmarshal([]byte(body), &c), "stream:false is the same JSON: %s", body)
	for _, req := range []request{
		{method: "GET", path: "/api/chat/" + c.ChatID + "/subscribe", auth: bearer(KeyValid)},
		{path: "/api/chat/" + c.ChatID + "/publish", auth: bearer(KeyValid), body: `{"content":"more"}`},
	} {
		resp, stream := send(t, ts, req)
		assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"), "%s %s", req.method, req.path)
		rd := readUIStream(t, stream)
		assert.Empty(t, rd.throwers, "%s %s streams without the fault: %s", req.method, req.path, stream)
		assert.Contains(t, stream, `"chatId":"`+c.ChatID+`"`, "%s %s", req.method, req.path)
	}
	// Keys and statuses are the v4 mock's.
	for key, status := range map[string]int{KeyNoCredits: 402, KeyOtherTeam: 403, KeyRateLimited: 429, KeyServerError: 500, "cw_test_nope": 401} {
		resp, body := send(t, ts, request{auth: bearer(key), body: uiStreamBody})
		assert.Equal(t, status, resp.StatusCode, "%s: %s", key, body)
	}
}

func TestUIFaultTable(t *testing.T) {
	faults := UIFaults()
	require.Len(t, uiThrowers, len(faults), "a throw list per UI fault")
	v4 := map[string]bool{}
	for _, f := range Faults() {
		v4[f.Name] = true
		assert.Equal(t, protocol.V4, f.Protocol, f.Name)
	}
	for _, f := range faults {
		assert.Equal(t, protocol.UI, f.Protocol, f.Name)
		assert.True(t, strings.HasPrefix(f.Name, "ui-"), f.Name)
		assert.False(t, v4[f.Name], "%s is not also a v4 fault", f.Name)
		assert.NotEmpty(t, append(slices.Clone(f.Fails), f.Warns...), f.Name)
		got, err := LookupFaultFor(protocol.UI, f.Name)
		require.NoError(t, err)
		assert.Equal(t, f, got)
		_, err = LookupFaultFor(protocol.V4, f.Name)
		assert.ErrorContains(t, err, `fault "`+f.Name+`" is a fault of the ui protocol, not of v4 (-protocol ui)`)
		_, ok := uiThrowers[f.Name]
		assert.True(t, ok, "uiThrowers has %s", f.Name)
	}
	_, err := New(Options{Protocol: protocol.UI, Fault: faultMalformedLine})
	assert.ErrorContains(t, err, `fault "malformed-line" is a fault of the v4 protocol, not of ui (-protocol v4)`)
	_, err = New(Options{Protocol: protocol.UI, Fault: "nope"})
	assert.ErrorContains(t, err, `unknown fault "nope"; valid faults: ui-unknown-chunk-type, `)
	_, err = New(Options{Fault: faultUINoDone})
	assert.ErrorContains(t, err, `is a fault of the ui protocol, not of v4`)
}

// TestUIFaultClients checks each UI fault's description with the Go
// emulation of the clients: exactly the releases uiThrowers names throw,
// and the faults no client throws at do what they say.
func TestUIFaultClients(t *testing.T) {
	for _, f := range UIFaults() {
		t.Run(f.Name, func(t *testing.T) {
			ts := uiMock(t, Options{Fault: f.Name})
			resp, body := send(t, ts, request{auth: bearer(KeyValid), body: uiStreamBody})
			require.Equal(t, http.StatusOK, resp.StatusCode, body)
			rd := readUIStream(t, body)
			assert.Equal(t, uiThrowers[f.Name], rd.throwers, "the releases that throw: %s", body)
			clean := readUIStream(t, func() string {
				_, b := send(t, uiMock(t, Options{}), request{auth: bearer(KeyValid), body: uiStreamBody})
				return b
			}())
			switch f.Name {
			case faultUINoFinalBlankLine:
				assert.True(t, rd.dropped, "the last event is dropped")
				assert.False(t, rd.done)
				assert.True(t, strings.HasSuffix(body, "data: {\"type\":\"finish\"}\n"), body)
			case faultUINoDone:
				assert.False(t, rd.done)
				assert.False(t, rd.dropped)
				assert.Equal(t, clean.events-1, rd.events)
			case faultUIContentType:
				assert.Equal(t, "text/plain; charset=utf-8", resp.Header.Get("Content-Type"))
				assert.Empty(t, resp.Header.Get(protocol.HeaderUI))
				assert.Empty(t, resp.Header.Get(protocol.HeaderV4))
				assert.Equal(t, clean.messages, rd.messages, "the body is the conformant one")
			case faultUIChatIDMissing:
				for rel, js := range rd.messages {
					assert.NotContains(t, js, `"metadata"`, rel)
				}
			case faultUIStrictUnknownKey:
				assert.Contains(t, body, `data: {"type":"finish","finishReason":"stop"}`)
			case faultUIEmptyStream:
				assert.Equal(t, "data: [DONE]\n\n", body)
			case faultUINoFinish:
				assert.NotContains(t, body, `{"type":"finish"`)
				assert.True(t, rd.done)
			case faultUITextUnfinished:
				assert.Equal(t, 1, strings.Count(body, `"type":"text-end"`), body)
				for rel, js := range rd.messages {
					assert.Contains(t, js, `"state":"streaming"`, rel)
				}
			case faultUIChunkOutsideData:
				assert.Contains(t, body, "\n\n{\"type\":\"text-delta\"")
				assert.Equal(t, clean.events-1, rd.events, "the client reads one event fewer")
			case faultUIMessageIDChanges:
				assert.Equal(t, 2, strings.Count(body, `"type":"start",`), body)
				for _, rel := range []string{"5.0.277", "6.0.326", "7.0.173"} {
					assert.NotContains(t, rd.messages[rel], "Reading your request", "%s starts anew and loses the first step", rel)
				}
				for _, rel := range []string{"5.0.0", "6.0.0", "7.0.0"} {
					assert.Contains(t, rd.messages[rel], "Reading your request", "%s keeps the first step", rel)
				}
			case faultUINotUTF8:
				assert.False(t, utf8.ValidString(body))
				for rel, js := range rd.messages {
					assert.Contains(t, js, "caf\uFFFD au lait", rel)
				}
			case faultUIErrorThenFinish:
				assert.Contains(t, body, `data: {"type":"error","errorText":"`+errorText+`"}`+"\n\n"+`data: {"type":"finish","finishReason":"stop"}`)
			case faultUIChatIDChanges:
				for rel, js := range rd.messages {
					assert.Contains(t, js, `"metadata":{"chatId":"`+otherChatID+`"}`, rel)
				}
			}
			if f.Name != faultUIContentType {
				assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
			}
		})
	}
}

func TestUIVariants(t *testing.T) {
	ui := UIVariants()
	for _, v := range ui {
		assert.Equal(t, protocol.UI, v.Protocol, v.Name)
		if _, err := LookupVariantFor(protocol.V4, v.Name); err == nil {
			v4, _ := LookupVariant(v.Name)
			assert.Equal(t, protocol.V4, v4.Protocol, "%s is in both: LookupVariant gives the v4 one", v.Name)
		}
	}
	_, err := New(Options{Variants: []string{variantKeepAlive}})
	assert.ErrorContains(t, err, `variant "keepalive" is a variant of the ui protocol, not of v4`)
	clean := func() uiReading {
		_, b := send(t, uiMock(t, Options{}), request{auth: bearer(KeyValid), body: uiStreamBody})
		return readUIStream(t, b)
	}()
	for _, v := range ui {
		t.Run(v.Name, func(t *testing.T) {
			ts := uiMock(t, Options{Variants: []string{v.Name}})
			r, err := http.NewRequest("POST", ts.URL+"/api/chat", strings.NewReader(uiStreamBody))
			require.NoError(t, err)
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Authorization", bearer(KeyValid))
			resp, err := ts.Client().Do(r) // the transport asks for gzip and inflates it
			require.NoError(t, err)
			raw, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			require.NoError(t, err)
			body := string(raw)
			rd := readUIStream(t, body)
			require.True(t, rd.decodeOK, body)
			assert.True(t, rd.done, body)
			assert.Empty(t, rd.throwers, body)
			switch v.Name {
			case variantCRLF:
				assert.Equal(t, strings.Count(body, "\n"), strings.Count(body, "\r\n"))
				assert.Equal(t, clean.messages, rd.messages)
			case variantKeepAlive:
				assert.Equal(t, clean.events-1, strings.Count(body, ": keep-alive\n\n"))
				assert.Equal(t, clean.messages, rd.messages)
			case variantDataNoSpace:
				assert.NotContains(t, body, "data: ")
				assert.Equal(t, clean.messages, rd.messages)
			case variantGzip:
				assert.True(t, resp.Uncompressed, "the body came gzip-compressed")
				assert.Equal(t, clean.messages, rd.messages)
			case variantExtraFields:
				assert.Contains(t, body, `"messageMetadata":{"chatId":"chat_`)
				assert.Contains(t, body, `,"createdAt":"2026-01-01T00:00:00Z"}`)
			case variantLongStream:
				assert.Equal(t, LongStreamLines, strings.Count(body, `"type":"text-delta"`))
			}
		})
	}
}

func TestUIPacingAndStatus(t *testing.T) {
	var mu sync.Mutex
	var slept []time.Duration
	c := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	ts := uiMock(t, Options{Pace: time.Second, Now: c.Now, Variants: []string{variantKeepAlive},
		Sleep: func(ctx context.Context, d time.Duration) error {
			if ctx.Value(http.ServerContextKey) == nil {
				return ctx.Err() // the agent producing a stream nobody reads live
			}
			mu.Lock()
			defer mu.Unlock()
			slept = append(slept, d)
			return ctx.Err()
		}})
	_, body := send(t, ts, request{auth: bearer(KeyValid), body: `{"content":"x","stream":false}`})
	var cr created
	require.NoError(t, json.Unmarshal([]byte(body), &cr), body)
	// stream:false wrote nothing: the chat runs for its events' time at Pace.
	_, st := send(t, ts, request{method: "GET", path: "/api/chat/" + cr.ChatID + "/status", auth: bearer(KeyValid)})
	assert.JSONEq(t, `{"chatId":"`+cr.ChatID+`","status":"running"}`, st)
	c.Add(time.Hour)
	_, st = send(t, ts, request{method: "GET", path: "/api/chat/" + cr.ChatID + "/status", auth: bearer(KeyValid)})
	assert.JSONEq(t, `{"chatId":"`+cr.ChatID+`","status":"done"}`, st)
	_, page := send(t, ts, request{method: "GET", path: "/chat/" + cr.ChatID})
	assert.Contains(t, page, "<li>Done: your page for “x” is ready 🎉</li>", "the page shows the text-deltas as progress")

	mu.Lock()
	slept = nil
	mu.Unlock()
	_, body = send(t, ts, request{auth: bearer(KeyValid), body: `{"content":"x"}`})
	events := strings.Count(body, "\ndata: ") + 1
	mu.Lock()
	defer mu.Unlock()
	assert.Len(t, slept, events-1, "a pause before every event after the first: %s", body)
	assert.Equal(t, events-1, strings.Count(body, ": keep-alive\n\n"), "a keep-alive before each of them")
}

func TestUIStreamStopsWhenClientGoesAway(t *testing.T) {
	done := make(chan Entry, 1)
	_, ts := newMock(t, Options{Protocol: ProtocolUI, Pace: time.Hour, Log: func(e Entry) { done <- e }})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, err := http.NewRequestWithContext(ctx, "POST", ts.URL+"/api/chat", strings.NewReader(`{"content":"x"}`))
	require.NoError(t, err)
	r.Header.Set("Authorization", bearer(KeyValid))
	r.Header.Set("Content-Type", "application/json")
	resp, err := ts.Client().Do(r)
	require.NoError(t, err)
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(line, `data: {"type":"start","messageMetadata":{"chatId":"chat_`), "the first event arrives at once: %q", line)
	cancel()
	resp.Body.Close()
	select {
	case e := <-done:
		assert.Equal(t, 200, e.Status)
	case <-time.After(10 * time.Second):
		t.Fatal("the handler still writes 10s after the client went away")
	}
}
