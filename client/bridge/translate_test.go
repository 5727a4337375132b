package bridge

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client/message"
	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/internal/corpus"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// checkUIOutput reads a translated UI stream: strict framing, every chunk
// taken by the newest client of each maintained major, [DONE] at the end.
func checkUIOutput(t *testing.T, name string, out []byte) [][]byte {
	t.Helper()
	d := uistream.NewDecoder(bytes.NewReader(out))
	d.SetStrict(true)
	var chunks [][]byte
	for d.Next() {
		c := d.Chunk()
		for _, r := range sdk.NewestOfEach() {
			assert.NoError(t, r.CheckChunk(c.Data), "%s: event %d %s for ai %s", name, c.Event, c.Data, r)
		}
		chunks = append(chunks, bytes.Clone(c.Data))
	}
	require.NoError(t, d.Err(), "%s: the translated stream\n%s", name, out)
	assert.Empty(t, d.Warnings(), "%s: the translated stream ends with its blank line", name)
	assert.True(t, bytes.HasSuffix(out, []byte("data: [DONE]\n\n")), "%s: ends with [DONE]", name)
	return chunks
}

// checkV4Output reads a translated v4 stream strictly: every line a known
// code with the shape the v4 client takes.
func checkV4Output(t *testing.T, name string, out []byte) {
	t.Helper()
	d := linestream.NewDecoder(bytes.NewReader(out))
	d.SetStrict(true)
	for d.Next() {
		assert.NoError(t, d.Part().CheckShape(), "%s: line %d", name, d.Part().Line)
	}
	require.NoError(t, d.Err(), "%s: the translated stream\n%s", name, out)
}

// TestToUICorpus translates every v4 corpus stream: each part is
// translated or counted as a loss, the output is a UI stream every
// maintained client takes, and where the v4 client reads the stream
// whole, the UI message ai 7's client assembles from the output equals the
// v4 message (compare_test.go's comparison).
func TestToUICorpus(t *testing.T) {
	streams, err := corpus.AllStreams(os.DirFS("../../corpus"))
	require.NoError(t, err)
	compared := 0
	for _, s := range streams {
		tr := NewToUI(Options{})
		d := linestream.NewDecoder(bytes.NewReader(s.Data))
		var out []byte
		var failed error
		for d.Next() {
			before, lost := len(out), tr.Stats.Lost()
			out, err = tr.Part(out, d.Part())
			if err != nil {
				failed = err
				out = tr.Fail(out, err.Error())
				break
			}
			// A lone first 2:[{chatId}] goes into the start chunk, which
			// waits for the next part (its message id).
			assert.True(t, len(out) > before || tr.Stats.Lost() > lost || tr.holding,
				"%s: line %d (%s) neither translated nor counted as a loss", s.ID(), d.Part().Line, d.Part().Raw)
		}
		if failed == nil {
			if err := d.Err(); err != nil {
				failed = err
				out = tr.Fail(out, err.Error())
			} else {
				out = tr.End(out)
			}
		}
		// An invalid stream need not fail: linestream's decoder reads what
		// the v4 parser rejects for no harm (a blank CRLF line), and the
		// bridge drops unknown codes as a loss where the v4 client throws.
		chunks := checkUIOutput(t, s.ID(), out)

		// The messages, where the v4 client reads the whole stream.
		res, aerr := message.Assemble(bytes.NewReader(s.Data))
		if aerr != nil || failed != nil || tr.Stats.Losses[LossContinued]+tr.Stats.Losses[LossRejected] > 0 || v4Quirks[s.ID()] != "" {
			continue
		}
		a := uimessage.NewAssembler(sdk.Newest())
		for _, c := range chunks {
			require.NoError(t, a.Add(c), "%s: ai 7 assembles %s", s.ID(), c)
		}
		want, err := normV4(res.AppendJSON(nil))
		require.NoError(t, err)
		got, err := normUI(a.AppendJSON(nil))
		require.NoError(t, err, "%s", a.AppendJSON(nil))
		if tr.Stats.Losses[LossSource] > 0 {
			want.Parts = dropRawSources(want.Parts)
		}
		if tr.Stats.Losses[LossAnnotations] > 0 {
			want.Annotations, got.Annotations = nil, nil
		}
		assert.Equal(t, want.String(), got.String(), "%s: the v4 message and the UI message of its translation", s.ID())
		compared++
	}
	t.Logf("%d v4 streams translated, %d messages compared", len(streams), compared)
	assert.Greater(t, compared, 90, "streams whose messages were compared")
}

// v4Quirks are the streams whose v4 message holds what the v4 client makes
// of a quirk of its own, with it.
var v4Quirks = map[string]string{
	"valid/assembly-tool-call-object-order": `the v4 client spreads a tool_result part's keys into the invocation: its "state":"overridden"`,
}

func dropRawSources(ps []normPart) []normPart {
	var out []normPart
	for _, p := range ps {
		if p.Type == "source" && p.Raw != nil {
			continue
		}
		out = append(out, p)
	}
	return out
}

// uiCorpus returns the paths of corpus/ui's streams.
func uiCorpus(t *testing.T) []string {
	paths, err := filepath.Glob("../../corpus/ui/streams/*/*.sse")
	require.NoError(t, err)
	edge, err := filepath.Glob("../../corpus/ui/edge/*.sse")
	require.NoError(t, err)
	paths = append(paths, edge...)
	require.Greater(t, len(paths), 200, "corpus/ui's streams")
	return paths
}

// blockBounds are the chunks that carry nothing a v4 stream keeps apart:
// the bounds of a text or reasoning block.
var blockBounds = map[uistream.ChunkType]bool{
	uistream.ChunkTextStart: true, uistream.ChunkTextEnd: true,
	uistream.ChunkReasoningStart: true, uistream.ChunkReasoningEnd: true,
}

// TestToV4Corpus translates every corpus/ui stream: each chunk is
// translated, a block bound, or counted as a loss (a start chunk writes the
// chat id where it has one), the output is a v4 stream the v4 client's
// strict parser takes, and for the real servers' streams the v4 client's
// message equals the UI message of ai 7.
func TestToV4Corpus(t *testing.T) {
	compared := 0
	for _, path := range uiCorpus(t) {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		name, _ := filepath.Rel("../../corpus/ui", path)
		tr := NewToV4(Options{})
		d := uistream.NewDecoder(bytes.NewReader(data))
		var out []byte
		var failed error
		a := uimessage.NewAssembler(sdk.Newest())
		uiOK := true
		for d.Next() {
			c := d.Chunk()
			before, lost := len(out), tr.Stats.Lost()
			out, err = tr.Chunk(out, c)
			if err != nil {
				failed = err
				out = tr.Fail(out, err.Error())
				break
			}
			if uiOK && sdk.Newest().CheckChunk(c.Data) == nil {
				uiOK = a.Add(c.Data) == nil
			} else {
				uiOK = false
			}
			if c.Kind == uistream.ChunkStart || blockBounds[c.Kind] {
				continue
			}
			assert.True(t, len(out) > before || tr.Stats.Lost() > lost,
				"%s: event %d (%s) neither translated nor counted as a loss", name, c.Event, c.Data)
		}
		if failed == nil {
			if err := d.Err(); err != nil {
				failed = err
				out = tr.Fail(out, err.Error())
			}
		}
		checkV4Output(t, name, out)
		if failed != nil || !uiOK || filepath.Base(filepath.Dir(path)) == "edge" {
			continue
		}
		res, err := message.Assemble(bytes.NewReader(out))
		if err != nil { // an error chunk: the v4 client throws at its 3: line
			var ae *message.AssemblyError
			require.True(t, errors.As(err, &ae), "%s: %v", name, err)
			require.ErrorIs(t, err, message.ErrErrorPart, "%s", name)
			continue
		}
		want, err := normUI(a.AppendJSON(nil))
		require.NoError(t, err)
		got, err := normV4(res.AppendJSON(nil))
		require.NoError(t, err)
		// UI → v4 carries metadata as annotations of its own form.
		want.Annotations, got.Annotations = nil, nil
		if showsInMessage(&tr.Stats) {
			continue // the loss shows in the message: TestToV4Losses covers each
		}
		assert.Equal(t, want.String(), got.String(), "%s: the UI message and the v4 message of its translation\n%s", name, out)
		compared++
	}
	t.Logf("%d UI streams translated, %d messages compared", len(uiCorpus(t)), compared)
	assert.Greater(t, compared, 50, "streams whose messages were compared")
}

// TestRequestTranslation checks TranslateRequest on the bodies useChat's
// DefaultChatTransport posts.
func TestRequestTranslation(t *testing.T) {
	body := []byte(`{"id":"chat-1","messages":[
	 {"id":"m1","role":"user","parts":[{"type":"text","text":"old"}]},
	 {"id":"m2","role":"assistant","parts":[{"type":"text","text":"answer"}]},
	 {"id":"m3","role":"user","parts":[{"type":"text","text":"Build a page"},{"type":"text","text":"with a footer"},
	   {"type":"file","mediaType":"image/png","filename":"a.png","url":"https://x/a.png"},{"type":"data-x","data":1}]}],
	 "trigger":"submit-message","model":"gamma-k3","reasoningEffort":"high","extra":true}`)
	out, lost, err := TranslateRequest(body)
	require.NoError(t, err)
	assert.JSONEq(t, `{"content":"Build a page\nwith a footer","model":"gamma-k3","reasoningEffort":"high",
	 "experimental_attachments":[{"url":"https://x/a.png","name":"a.png","contentType":"image/png"}]}`, string(out))
	assert.Equal(t, []string{`1 "data-x" part(s) of the last user message`, "history: 2 earlier message(s)",
		"the field extra", "the field id", "the field trigger"}, lost)
	assert.Equal(t, "ui", RequestProtocol(body).String())
	assert.Equal(t, "v4", RequestProtocol([]byte(`{"content":"x"}`)).String())
	assert.Equal(t, "v4", RequestProtocol([]byte(`{"id":"c","messages":[{"role":"user","content":"hi"}]}`)).String(),
		"an AI SDK 4 useChat")
	_, _, err = TranslateRequest([]byte(`{"messages":3}`))
	assert.ErrorIs(t, err, ErrNotChatRequest)
	_, _, err = TranslateRequest([]byte(`[1]`))
	assert.ErrorIs(t, err, ErrNotChatRequest)

	var v map[string]any
	out, _, err = TranslateRequest([]byte(`{"messages":[{"role":"user","content":"v4 text","parts":[]}]}`))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(out, &v))
	assert.Equal(t, "v4 text", v["content"], "an AI SDK 4 message's content")
}

// showsInMessage tells whether a UI → v4 translation lost what the
// messages show.
func showsInMessage(s *Stats) bool {
	for _, l := range []Loss{LossTextBlocks, LossFileURL, LossPreliminary, LossToolError, LossApproval,
		LossTransient, LossDataID, LossResetStep, LossUnsupportedChunk, LossToolInput} {
		if s.Losses[l] > 0 {
			return true
		}
	}
	return false
}
