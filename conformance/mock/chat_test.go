package mock

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/linestream"
)

// decodeStrict decodes a whole stream with a strict decoder and returns its
// parts.
func decodeStrict(t *testing.T, body string) []linestream.Part {
	t.Helper()
	d := linestream.NewDecoder(strings.NewReader(body))
	d.SetStrict(true)
	var parts []linestream.Part
	for d.Next() {
		parts = append(parts, d.Part().Clone())
	}
	require.NoError(t, d.Err(), "strict decoding of the stream:\n%s", body)
	return parts
}

// codes returns the codes of parts joined, such as "2f000...".
func codes(parts []linestream.Part) string {
	var b strings.Builder
	for _, p := range parts {
		b.Write(p.Code)
	}
	return b.String()
}

// firstChatID returns the chat id of a stream's first line, read the JSON
// way, after checking that the spec's prefix shortcut agrees.
func firstChatID(t *testing.T, parts []linestream.Part) string {
	t.Helper()
	require.NotEmpty(t, parts, "the stream has no parts")
	require.Equal(t, "2", string(parts[0].Code), "the first line's code")
	id, err := linestream.AppendChatID(nil, parts[0].Value)
	require.NoError(t, err, "chatId of the first line %s", parts[0].Raw)
	short, ok := linestream.ChatIDPrefix(parts[0].Raw)
	require.True(t, ok, "the spec's prefix shortcut finds a chat id in %s", parts[0].Raw)
	assert.Equal(t, string(id), string(short), "the prefix shortcut and JSON agree on %s", parts[0].Raw)
	return string(id)
}

// texts returns the text of every 0 part.
func texts(t *testing.T, parts []linestream.Part) []string {
	var out []string
	for _, p := range parts {
		if string(p.Code) == "0" {
			text, err := p.AppendText(nil)
			require.NoError(t, err, "text of %s", p.Raw)
			out = append(out, string(text))
		}
	}
	return out
}

func TestStream(t *testing.T) {
	const prompt = "Build a landing page for \"Zoë's café\" in Zürich\nwith a menu"
	tests := []struct {
		name      string
		opts      Options
		extra     string // more fields of the body
		wantCodes string
	}{
		{"default", Options{}, "", "2f0009aef000ed"},
		{"stream true", Options{}, `,"stream":true`, "2f0009aef000ed"},
		{"reasoning", Options{}, `,"reasoningEffort":"high"`, "2fg0009aef000ed"},
		{"spec parts only", Options{SpecPartsOnly: true}, "", "2000000"},
		{"one line", Options{Lines: 1}, "", "2f09aefed"},
		{"three lines", Options{Lines: 3}, "", "2f009aef0ed"},
		{"spec parts, two lines", Options{SpecPartsOnly: true, Lines: 2}, "", "200"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ts := newMock(t, tt.opts)
			content, _ := json.Marshal(prompt)
			resp, body := send(t, ts, request{auth: bearer(KeyValid), body: `{"content":` + string(content) + tt.extra + `}`})
			require.Equal(t, 200, resp.StatusCode, "status: %s", body)
			assert.Equal(t, "text/plain; charset=utf-8", resp.Header.Get("Content-Type"), "stream content type")
			assert.Equal(t, "v1", resp.Header.Get("X-Vercel-AI-Data-Stream"), "data stream header")
			assert.Equal(t, Version, resp.Header.Get(HeaderVersion), "version header on a stream")
			assert.Empty(t, resp.Header.Get(HeaderChoice), "a create stream is in the spec")
			parts := decodeStrict(t, body)
			assert.Equal(t, tt.wantCodes, codes(parts), "codes of the stream:\n%s", body)
			id := firstChatID(t, parts)
			assert.Regexp(t, `^chat_[0-9a-f]{16}$`, id, "chat id")
			for _, p := range parts {
				assert.NoError(t, p.CheckShape(), "shape of %s", p.Raw)
			}
			text := strings.Join(texts(t, parts), "")
			assert.Contains(t, text, "Zoë's café", "the progress is about the prompt")
			assert.NotContains(t, text, "with a menu", "the summary is the prompt's first line")
			assert.True(t, strings.HasSuffix(text, "is ready 🎉\n"), "the last progress line says it is done: %q", text)

			// The chat exists: its status answers.
			st, stBody := send(t, ts, request{method: "GET", path: "/api/chat/" + id + "/status", auth: bearer(KeyValid)})
			assert.Equal(t, 200, st.StatusCode, "status of the streamed chat: %s", stBody)
		})
	}
}

func TestStreamEscapes(t *testing.T) {
	// The default progress holds every escape a client must handle.
	_, ts := newMock(t, Options{Lines: 8})
	resp, body := send(t, ts, request{auth: bearer(KeyValid), body: `{"content":"a page"}`})
	require.Equal(t, 200, resp.StatusCode, "status: %s", body)
	for _, want := range []string{`\"café crème\"`, `src\\components`, `\t`, `\n"`, "—", "≥", "<header>", "&", "🎉"} {
		assert.Contains(t, body, want, "the raw stream holds %q", want)
	}
	parts := decodeStrict(t, body)
	assert.Len(t, texts(t, parts), 8, "Options.Lines progress lines")
}

func TestStreamAttachments(t *testing.T) {
	_, ts := newMock(t, Options{SpecPartsOnly: true, Lines: 4})
	resp, body := send(t, ts, request{auth: bearer(KeyValid), body: `{"content":"x","executionMode":"planning",` +
		`"experimental_attachments":[{"url":"https://files.example/brief.pdf"},{"url":"u","name":"logo.svg","contentType":"image/svg+xml"}]}`})
	require.Equal(t, 200, resp.StatusCode, "status: %s", body)
	got := texts(t, decodeStrict(t, body))
	require.Len(t, got, 4, "progress lines")
	assert.Equal(t, "Reading attachment brief.pdf (type not given)\n", got[1], "first attachment, named after its url")
	assert.Equal(t, "Reading attachment logo.svg (image/svg+xml)\n", got[2], "second attachment")
}

func TestProgressTexts(t *testing.T) {
	req := &chatRequest{Content: "  Make   a   portfolio site for a photographer who loves mountains and lakes  "}
	for _, n := range []int{1, 2, 3, 9, 20} {
		got := progressTexts(req, n)
		require.Len(t, got, n, "progressTexts(n=%d)", n)
		assert.Equal(t, "Done: your page for “Make a portfolio site for a photographer…” is ready 🎉\n", got[n-1],
			"the last text, with the prompt cut to 40 characters")
		if n >= 2 {
			assert.True(t, strings.HasPrefix(got[0], "Reading your request"), "the first text of %d", n)
		}
	}
	many := progressTexts(req, 20)
	assert.True(t, strings.HasPrefix(many[8], "Refining (pass 2): Planning"), "texts cycle after the 7 steps run out: %q", many[8])
	assert.Equal(t, "an empty prompt", summarize(" \n "), "summary of an empty prompt")
}

func TestPacing(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		want int // pauses
	}{
		{"paced", Options{Pace: 250 * time.Millisecond}, len("2f0009aef000ed") - 1},
		{"paced, spec parts", Options{Pace: time.Second, SpecPartsOnly: true, Lines: 3}, 3},
		{"no pace", Options{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var slept []time.Duration
			tt.opts.Sleep = func(ctx context.Context, d time.Duration) error {
				mu.Lock()
				defer mu.Unlock()
				slept = append(slept, d)
				return ctx.Err()
			}
			_, ts := newMock(t, tt.opts)
			resp, body := send(t, ts, request{auth: bearer(KeyValid), body: `{"content":"x"}`})
			require.Equal(t, 200, resp.StatusCode, "status: %s", body)
			parts := decodeStrict(t, body)
			mu.Lock()
			defer mu.Unlock()
			require.Len(t, slept, tt.want, "pauses for a stream of %d parts with pace %v", len(parts), tt.opts.Pace)
			for i, d := range slept {
				assert.Equal(t, tt.opts.Pace, d, "pause %d", i)
			}
		})
	}
}

func TestSleepError(t *testing.T) {
	// A Sleep that fails (the request's context ended) cuts the stream
	// after the first line: the client's read fails after it.
	_, ts := newMock(t, Options{Pace: time.Second, Sleep: func(context.Context, time.Duration) error {
		return context.Canceled
	}})
	resp := openStream(t, ts)
	body, err := io.ReadAll(resp.Body)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "the body breaks off after the first line")
	assert.Equal(t, "2", codes(decodeStrict(t, string(body))), "only the first line is written: %s", body)
}

func TestStreamStopsWhenClientGoesAway(t *testing.T) {
	done := make(chan Entry, 1)
	// The default Sleep with a pace no test outlives: only the client's
	// going away can end the stream.
	_, ts := newMock(t, Options{Pace: time.Hour, Log: func(e Entry) { done <- e }})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, err := http.NewRequestWithContext(ctx, "POST", ts.URL+"/api/chat", strings.NewReader(`{"content":"x"}`))
	require.NoError(t, err, "new request")
	r.Header.Set("Authorization", bearer(KeyValid))
	r.Header.Set("Content-Type", "application/json")
	resp, err := ts.Client().Do(r)
	require.NoError(t, err, "POST /api/chat")
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	require.NoError(t, err, "read the first line")
	assert.True(t, strings.HasPrefix(line, `2:[{"chatId":"chat_`), "the first line arrives at once: %q", line)
	cancel()
	resp.Body.Close()
	select {
	case e := <-done:
		assert.Equal(t, 200, e.Status, "the stream's log entry")
	case <-time.After(10 * time.Second):
		t.Fatal("the handler still writes 10s after the client went away")
	}
}

func TestJSONResponse(t *testing.T) {
	tests := []struct {
		name         string
		backend      string // a JSON value, or "" for none
		wantWorkflow bool
	}{
		{"no backend", "", false},
		{"DEFAULT", `"DEFAULT"`, false},
		{"WORKFLOW", `"WORKFLOW"`, true},
		{"lower-case default", `"default"`, true},
		{"named workflow", `"agent-workflow-v2"`, true},
	}
	_, ts := newMock(t, Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := `{"content":"a <b>bold</b> page","stream":false`
			if tt.backend != "" {
				body += `,"backend":` + tt.backend
			}
			resp, got := send(t, ts, request{auth: bearer(KeyValid), body: body + "}"})
			require.Equal(t, 200, resp.StatusCode, "status of %s: %s", body, got)
			assert.Equal(t, "application/json", resp.Header.Get("Content-Type"), "content type")
			var fields map[string]string
			require.NoError(t, json.Unmarshal([]byte(got), &fields), "the body is an object of strings: %s", got)
			assert.Regexp(t, `^chat_[0-9a-f]{16}$`, fields["chatId"], "chatId")
			assert.Equal(t, ts.URL+"/chat/"+fields["chatId"], fields["url"], "url: absolute, on the mock")
			if tt.wantWorkflow {
				assert.Len(t, fields, 4, "workflow backend fields: %s", got)
				assert.Regexp(t, `^strm_[0-9a-f]{16}$`, fields["streamId"], "streamId")
				assert.Regexp(t, `^msg_[0-9a-f]{16}$`, fields["assistantMessageId"], "assistantMessageId")
			} else {
				assert.Len(t, fields, 2, "default backend fields: %s", got)
			}

			page, html := send(t, ts, request{method: "GET", path: strings.TrimPrefix(fields["url"], ts.URL)})
			require.Equal(t, 200, page.StatusCode, "GET the chat's url")
			assert.Equal(t, "text/html; charset=utf-8", page.Header.Get("Content-Type"), "page content type")
			assert.Contains(t, html, "a &lt;b&gt;bold&lt;/b&gt; page", "the page shows the prompt, escaped")
			assert.Contains(t, html, "Reading your request", "the page shows the progress")
			assert.Contains(t, html, `<strong id="status">done</strong>`, "without pace the chat is done")
		})
	}
}

func TestPageUnknownChat(t *testing.T) {
	_, ts := newMock(t, Options{})
	resp, html := send(t, ts, request{method: "GET", path: "/chat/<x>"})
	assert.Equal(t, 404, resp.StatusCode, "page of an unknown chat")
	assert.Contains(t, html, "&lt;x&gt;", "the id is escaped")
}

func TestSeedIDs(t *testing.T) {
	ids := func(seed uint64) []string {
		_, ts := newMock(t, Options{Seed: seed})
		var out []string
		for range 3 {
			// A failed request in between must not shift the chat ids.
			send(t, ts, request{body: jsonBody})
			_, body := send(t, ts, request{auth: bearer(KeyValid), body: jsonBody})
			var c created
			require.NoError(t, json.Unmarshal([]byte(body), &c), "JSON body %s", body)
			out = append(out, c.ChatID)
		}
		return out
	}
	a, b, c := ids(7), ids(7), ids(8)
	assert.Equal(t, a, b, "the same seed gives the same ids")
	assert.NotEqual(t, a, c, "another seed gives other ids")
	assert.Len(t, map[string]bool{a[0]: true, a[1]: true, a[2]: true}, 3, "ids are distinct: %v", a)
}

func TestEviction(t *testing.T) {
	s, ts := newMock(t, Options{})
	s.keep = 2
	var ids []string
	for range 3 {
		_, body := send(t, ts, request{auth: bearer(KeyValid), body: jsonBody})
		var c created
		require.NoError(t, json.Unmarshal([]byte(body), &c), "JSON body %s", body)
		ids = append(ids, c.ChatID)
	}
	for i, want := range []int{404, 200, 200} {
		resp, _ := send(t, ts, request{method: "GET", path: "/api/chat/" + ids[i] + "/status", auth: bearer(KeyValid)})
		assert.Equal(t, want, resp.StatusCode, "status of chat %d of 3 when 2 are kept", i+1)
	}
}
