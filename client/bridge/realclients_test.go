package bridge

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client/message"
	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/internal/corpus"
	"github.com/chatwire/chatwire/internal/protocol"

	"github.com/chatwire/chatwire/uistream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// needNode returns the node binary, or skips the test where node or the
// clients' node_modules are missing (npm ci in testdata/sdk installs them);
// under CI=true it fails instead.
func needNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat("testdata/sdk/node_modules/ai-7.0.173/package.json")
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the real clients must run in CI (cd client/bridge/testdata/sdk && npm ci): %v", err)
		}
		t.Skipf("no node or no node_modules in testdata/sdk (npm ci there): %v", err)
	}
	return node
}

// recorder keeps the body an upstream handler wrote.
type recorder struct {
	http.ResponseWriter
	buf bytes.Buffer
}

func (r *recorder) Write(b []byte) (int, error) {
	r.buf.Write(b)
	return r.ResponseWriter.Write(b)
}

func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// uiMockStream writes a UI stream shaped like the mock's v4 stream, with
// uistream's encoder: the chat id in the start chunk's messageMetadata,
// reasoning, text blocks, a tool call streamed and its output, a source, a
// file, a data part, two steps, finish.
func uiMockStream(w http.ResponseWriter, chatID string) {
	uistream.Headers(w.Header())
	w.WriteHeader(http.StatusOK)
	var b []byte
	b = uistream.AppendStartChunk(b, "msg_1", []byte(`{"chatId":`+strconv.Quote(chatID)+`}`))
	b = uistream.AppendStartStepChunk(b)
	b = uistream.AppendReasoningStartChunk(b, "r1")
	b = uistream.AppendReasoningDeltaChunk(b, "r1", "The user asks for a page. ")
	b = uistream.AppendReasoningDeltaChunk(b, "r1", "Plan: header, main, footer.")
	b = uistream.AppendReasoningEndChunk(b, "r1")
	b = uistream.AppendTextStartChunk(b, "t1")
	b = uistream.AppendTextDeltaChunk(b, "t1", "Reading your request: “a bakery”\n")
	b = uistream.AppendTextDeltaChunk(b, "t1", "Creating index.html with <header> & \"quotes\" \\ and\ttabs\n")
	b = uistream.AppendTextEndChunk(b, "t1")
	b = uistream.AppendToolInputStartChunk(b, "call_1", "writeFile")
	b = uistream.AppendToolInputDeltaChunk(b, "call_1", `{"path":"index`)
	b = uistream.AppendToolInputDeltaChunk(b, "call_1", `.html","bytes":1024}`)
	b = uistream.AppendToolInputAvailableChunk(b, "call_1", "writeFile", []byte(`{"path":"index.html","bytes":1024}`))
	b = uistream.AppendToolOutputAvailableChunk(b, "call_1", []byte(`{"ok":true}`))
	b = uistream.AppendSourceURLChunk(b, "src_1", "https://example.com/bread", "Bread")
	b = uistream.AppendFileChunk(b, "text/plain", "data:text/plain;base64,aGVsbG8=")
	b = uistream.AppendDataChunk(b, "progress", "", []byte(`{"done":1,"of":2}`), false)
	b = uistream.AppendFinishStepChunk(b)
	b = uistream.AppendStartStepChunk(b)
	b = uistream.AppendTextStartChunk(b, "t2")
	b = uistream.AppendTextDeltaChunk(b, "t2", "Done: 1 page.")
	b = uistream.AppendTextEndChunk(b, "t2")
	b = uistream.AppendFinishStepChunk(b)
	b = uistream.AppendFinishChunk(b, "stop", nil)
	b = uistream.AppendDone(b)
	w.Write(b)
}

// clientRequest is one request of clients.mjs, and what the test expects.
type clientRequest struct {
	Client string         `json:"client"`
	API    string         `json:"api"`
	Body   map[string]any `json:"body"`

	name   string
	want   func() (normMessage, error) // the Go assembly's message, once the stream is known
	errors bool                        // the client reports errors (an error chunk)
}

// TestRealClients proves the bridge with the real SDK clients: (a) ai
// 7.0.173's DefaultChatTransport and readUIMessageStream post through the
// bridge to v4 services (the mock of conformance/mock, and every v4 corpus
// stream whose messages TestToUICorpus compares), and the message the
// client last yields equals the one client/message assembles from the v4
// stream the service sent; (b) ai 4's callChatApi posts the spec's body
// through the bridge to UI-stream services (the mock with Options.Protocol
// ProtocolUI, as `chatwire serve -protocol ui` runs it; a stream written
// here with uistream's encoder, with the sources, files and data the mock
// does not send; and the streams the real ai 5, 6 and 7 servers wrote in
// corpus/ui), and its message equals the one client/uimessage assembles
// as ai 7 does. compare_test.go defines "equals".
func TestRealClients(t *testing.T) {
	node := needNode(t)

	srv, err := mock.New(mock.Options{Seed: 24})
	require.NoError(t, err)
	uiSrv, err := mock.New(mock.Options{Seed: 24, Protocol: mock.ProtocolUI})
	require.NoError(t, err)
	var mu sync.Mutex
	sent := map[string][]byte{} // upstream path → the bytes the service wrote
	v4Streams := map[string][]byte{}
	uiStreams := map[string][]byte{}
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &recorder{ResponseWriter: w}
		defer func() {
			mu.Lock()
			sent[r.URL.Path] = rec.buf.Bytes()
			mu.Unlock()
		}()
		switch p := r.URL.Path; {
		case strings.HasPrefix(p, "/mock/"):
			r2 := r.Clone(r.Context())
			r2.URL.Path = "/api/chat"
			srv.ServeHTTP(rec, r2)
		case strings.HasPrefix(p, "/v4/"):
			w.Header().Set("Content-Type", "text/plain; charset=utf-8") // no SDK header: the bridge sniffs
			rec.Write(v4Streams[strings.TrimPrefix(p, "/v4/")])
		case strings.HasPrefix(p, "/mockui/"):
			r2 := r.Clone(r.Context())
			r2.URL.Path = "/api/chat"
			uiSrv.ServeHTTP(rec, r2)
		case p == "/uimock/api/chat":
			var body struct{ Content string }
			_ = json.NewDecoder(r.Body).Decode(&body)
			uiMockStream(rec, "chat_ui_"+strconv.Itoa(len(body.Content)))
		case strings.HasPrefix(p, "/ui/"):
			uistream.Headers(w.Header())
			rec.Write(uiStreams[strings.TrimPrefix(p, "/ui/")])
		default:
			http.NotFound(w, r)
		}
	}))
	defer upstream.Close()
	u, err := url.Parse(upstream.URL)
	require.NoError(t, err)
	var entries []Entry
	proxy := &Proxy{Upstream: u, Log: func(e Entry) { mu.Lock(); entries = append(entries, e); mu.Unlock() }}
	bridge := httptest.NewServer(proxy)
	defer bridge.Close()

	var reqs []*clientRequest
	v4Want := func(path string) func() (normMessage, error) {
		return func() (normMessage, error) {
			res, err := message.Assemble(bytes.NewReader(sent[path]))
			if err != nil {
				return normMessage{}, err
			}
			return normV4(res.AppendJSON(nil))
		}
	}
	uiWant := func(path string) func() (normMessage, error) {
		return func() (normMessage, error) {
			a := uimessage.NewAssembler(sdk.Newest())
			d := uistream.NewDecoder(bytes.NewReader(sent[path]))
			for d.Next() {
				if err := a.Add(d.Chunk().Data); err != nil {
					return normMessage{}, err
				}
			}
			if err := d.Err(); err != nil {
				return normMessage{}, err
			}
			return normUI(a.AppendJSON(nil))
		}
	}

	// (a) ai 7 in front of v4 services.
	for i, body := range []map[string]any{
		{"prompt": "Build a page for a bakery", "reasoningEffort": "high"},
		{"prompt": "A landing page — “quotes”, \\backslashes\\ and émojis 🍞", "executionMode": "planning", "model": "gamma-k3"},
	} {
		path := "/mock/" + strconv.Itoa(i) + "/api/chat"
		reqs = append(reqs, &clientRequest{Client: "ui", API: bridge.URL + path, Body: body, name: "mock " + path, want: v4Want(path)})
	}
	streams, err := corpus.Streams(os.DirFS("../../corpus"), corpus.Valid)
	require.NoError(t, err)
	for _, s := range streams {
		tr := NewToUI(Options{})
		out, err := V4ToUIBytes(s.Data, tr)
		if err != nil || tr.Stats.Losses[LossContinued]+tr.Stats.Losses[LossRejected] > 0 || v4Quirks[s.ID()] != "" || len(out) == 0 {
			continue
		}
		if _, err := message.Assemble(bytes.NewReader(s.Data)); err != nil {
			continue // the v4 client throws (an error part): no message to compare
		}
		v4Streams[s.Name] = s.Data
		path := "/v4/" + s.Name
		reqs = append(reqs, &clientRequest{Client: "ui", API: bridge.URL + path, Body: map[string]any{"prompt": "x"},
			name: s.ID(), want: v4Want(path), errors: tr.Stats.Out > 0 && bytes.Contains(out, []byte(`"type":"error"`))})
	}

	// (b) ai 4 in front of UI-stream services: the mock speaking the UI
	// stream (serve -protocol ui), ...
	for i, body := range []map[string]any{
		{"content": "Build a page for a bakery", "reasoningEffort": "high"},
		{"content": "A landing page — “quotes”, \\backslashes\\ and émojis 🍞", "executionMode": "build"},
	} {
		path := "/mockui/" + strconv.Itoa(i) + "/api/chat"
		reqs = append(reqs, &clientRequest{Client: "v4", API: bridge.URL + path, Body: body, name: "mock -protocol ui " + path, want: uiWant(path)})
	}
	// ... a stream written here with uistream's encoder, and the streams
	// of the real ai 5, 6 and 7 servers.
	reqs = append(reqs, &clientRequest{Client: "v4", API: bridge.URL + "/uimock/api/chat",
		Body: map[string]any{"content": "Build a page for a bakery", "reasoningEffort": "high"}, name: "uimock", want: uiWant("/uimock/api/chat")})
	paths, err := filepath.Glob("../../corpus/ui/streams/*/*.sse")
	require.NoError(t, err)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		tr := NewToV4(Options{})
		out, err := UIToV4Bytes(data, tr)
		if err != nil || showsInMessage(&tr.Stats) || !readsWhole(data) {
			continue
		}
		if _, err := message.Assemble(bytes.NewReader(out)); err != nil {
			continue // an error chunk: the v4 client throws at its 3: line
		}
		name, _ := filepath.Rel("../../corpus/ui/streams", p)
		uiStreams[name] = data
		reqs = append(reqs, &clientRequest{Client: "v4", API: bridge.URL + "/ui/" + name,
			Body: map[string]any{"content": "x"}, name: "ui/" + name, want: uiWant("/ui/" + name)})
	}

	in, err := json.Marshal(reqs)
	require.NoError(t, err)
	cmd := exec.Command(node, "clients.mjs")
	cmd.Dir = "testdata/sdk"
	cmd.Stdin = bytes.NewReader(in)
	cmd.Env = append(os.Environ(), "CHATWIRE_API_KEY="+mock.KeyValid)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	require.NoError(t, err, "node clients.mjs: %s", stderr.String())
	var results []struct {
		Message json.RawMessage `json:"message"`
		Data    json.RawMessage `json:"data"`
		Errors  []string        `json:"errors"`
		Error   string          `json:"error"`
	}
	require.NoError(t, json.Unmarshal(out, &results))
	require.Len(t, results, len(reqs))
	clients := map[string]int{}
	for i, r := range reqs {
		res := results[i]
		require.Empty(t, res.Error, "%s: the %s client threw", r.name, r.Client)
		want, err := r.want()
		require.NoError(t, err, "%s: the Go assembly", r.name)
		var got normMessage
		if r.Client == "ui" {
			got, err = normUI(res.Message)
			if !r.errors {
				assert.Empty(t, res.Errors, "%s: ai 7 reported errors", r.name)
			}
		} else {
			got, err = normV4([]byte(`{"message":` + string(res.Message) + `,"data":` + string(orNull(res.Data)) + `}`))
		}
		require.NoError(t, err, "%s: %s", r.name, res.Message)
		if r.Client == "v4" {
			want.Annotations, got.Annotations = nil, nil // UI metadata has no v4 form of its own
		}
		if os.Getenv("BRIDGE_DUMP") == r.name {
			t.Logf("%s:\n%s", r.name, got)
		}
		if assert.Equal(t, want.String(), got.String(), "%s: the %s client's message through the bridge", r.name, r.Client) {
			clients[r.Client]++
		}
	}
	t.Logf("%d requests in %v: %d messages of ai 7 (v4 services) and %d of ai 4 (UI services) equal the Go assemblies",
		len(reqs), time.Since(start).Round(time.Millisecond), clients["ui"], clients["v4"])
	assert.Greater(t, clients["ui"], 50)
	assert.Greater(t, clients["v4"], 20)
	mu.Lock()
	defer mu.Unlock()
	for _, e := range entries {
		assert.True(t, e.Translated, "%s: translated (want %v, got %v, err %v)", e.Path, e.Want, e.Got, e.Err)
		assert.NotEqual(t, e.Want, e.Got, "%s", e.Path)
		assert.NoError(t, e.Err, "%s", e.Path)
		if e.Want == protocol.UI {
			assert.True(t, e.Request, "%s: the useChat body translated", e.Path)
		}
	}
}

func orNull(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("null")
	}
	return b
}

// readsWhole tells whether ai 7's client reads the UI stream data to its
// end without throwing.
func readsWhole(data []byte) bool {
	d := uistream.NewDecoder(bytes.NewReader(data))
	a := uimessage.NewAssembler(sdk.Newest())
	for d.Next() {
		if sdk.Newest().CheckChunk(d.Chunk().Data) != nil || a.Add(d.Chunk().Data) != nil {
			return false
		}
	}
	return d.Err() == nil
}

// V4ToUIBytes and UIToV4Bytes translate whole streams in memory.
func V4ToUIBytes(in []byte, t *ToUI) ([]byte, error) {
	var out bytes.Buffer
	_, err := V4ToUI(&out, bytes.NewReader(in), t)
	return out.Bytes(), err
}

func UIToV4Bytes(in []byte, t *ToV4) ([]byte, error) {
	var out bytes.Buffer
	_, err := UIToV4(&out, bytes.NewReader(in), t)
	return out.Bytes(), err
}
