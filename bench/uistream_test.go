package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/corpus"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream"
)

// The benchmarks of this file measure uistream, the decoder of the AI SDK
// 5-7 UI message stream, against its floor: a reader that only finds the
// events (bufio.Reader.ReadSlice per line, bytes.HasPrefix for "data:", a
// blank line ending an event) and looks at nothing else. The inputs are the
// corpus's SDK streams (written by the real AI SDK v4) translated chunk by
// chunk into the UI message stream, as the SDK 5+ server writes it, with
// uistream's encoder: text deltas with ids, reasoning, tool input deltas,
// tool calls and results, data parts, metadata, sources, files, steps.
//
//	go test -run '^$' -bench '^BenchmarkUIDecode$' ./bench

// A uiDecodeFunc reads a whole stream and returns how many events with data
// it found ([DONE] included). It keeps its buffers from one call to the next.
type uiDecodeFunc func(r io.Reader) (events int, err error)

type uiDecodeImpl struct {
	name    string
	newFunc func() uiDecodeFunc
}

var uiDecodeImpls = []uiDecodeImpl{
	{"uistream", func() uiDecodeFunc { return newUIStream(false) }},
	{"uistream-strict", func() uiDecodeFunc { return newUIStream(true) }},
	{"floor", newUIFloor},
}

// newUIStream decodes with one reused uistream.Decoder.
func newUIStream(strict bool) uiDecodeFunc {
	d := uistream.NewDecoder(nil)
	d.SetStrict(strict)
	return func(r io.Reader) (int, error) {
		d.Reset(r)
		n := 0
		for d.Next() {
			n++
		}
		if d.Done() {
			n++ // the [DONE] event (one per input)
		}
		return n, d.Err()
	}
}

var dataPrefix = []byte("data:")

// newUIFloor is the reader floor of the UI message stream: lines read with
// bufio.Reader.ReadSlice (a line longer than the buffer copied into a
// scratch buffer kept for the next stream), "\r\n" or "\n" cut, an event
// counted at a blank line after a line with the "data:" prefix.
func newUIFloor() uiDecodeFunc {
	rd := bufio.NewReaderSize(nil, readBufSize)
	var long []byte
	return func(r io.Reader) (int, error) {
		rd.Reset(r)
		n, pending := 0, false
		for {
			line, err := rd.ReadSlice('\n')
			if err == bufio.ErrBufferFull {
				long = append(long[:0], line...)
				for err == bufio.ErrBufferFull {
					line, err = rd.ReadSlice('\n')
					long = append(long, line...)
				}
				line = long
			}
			line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte{'\n'}), []byte{'\r'})
			if len(line) == 0 {
				if pending {
					n++
				}
				pending = false
			} else if bytes.HasPrefix(line, dataPrefix) {
				pending = true
			}
			if err == io.EOF {
				return n, nil
			}
			if err != nil {
				return n, err
			}
		}
	}
}

type uiDecodeInput struct {
	name   string
	data   []byte
	events int // events with data, [DONE] included
}

// uiDecodeInputs returns the benchmark inputs: the corpus's 100k-line LLM
// mix and its agent runs (each run's [DONE] dropped but the last, as a
// service's many streams through one decoder), translated; the mix with
// CRLF line ends, which the general path reads, for information; 50k
// text-delta events of one token each, written by ai 7's
// createUIMessageStreamResponse (bench/sdk/short-streams.mjs).
func uiDecodeInputs(tb testing.TB) []uiDecodeInput {
	tb.Helper()
	mix, err := corpus.Load(os.DirFS("../corpus"), corpus.Valid, "llm-mix-100k-lines")
	require.NoError(tb, err)
	ui := uiFromV4(tb, mix.Data)
	runs, err := filepath.Glob(filepath.Join("..", "corpus", "streams", "valid", "agent-run-*.stream"))
	require.NoError(tb, err)
	require.NotEmpty(tb, runs)
	var agents []byte
	for range 50 {
		for _, f := range runs {
			s, err := corpus.Load(os.DirFS("../corpus"), corpus.Valid, strings.TrimSuffix(filepath.Base(f), corpus.StreamSuffix))
			require.NoError(tb, err)
			agents = append(agents, bytes.TrimSuffix(uiFromV4(tb, s.Data), []byte("data: [DONE]\n\n"))...)
		}
	}
	agents = uistream.AppendDone(agents)
	oneToken, err := os.ReadFile(filepath.Join("testdata", "short", "ui-one-token-text-50k.stream"))
	require.NoError(tb, err, "bench/sdk/short-streams.mjs writes it")
	return []uiDecodeInput{
		newUIDecodeInput("sdk-llm-mix-100k-ui", ui),
		newUIDecodeInput("sdk-agent-runs-ui", agents),
		newUIDecodeInput("sdk-one-token-text-50k-ui", oneToken),
		newUIDecodeInput("sdk-llm-mix-100k-ui-crlf", bytes.ReplaceAll(ui, []byte("\n"), []byte("\r\n"))),
	}
}

func newUIDecodeInput(name string, data []byte) uiDecodeInput {
	return uiDecodeInput{name, data, bytes.Count(data, []byte("\ndata: ")) + 1}
}

// uiFromV4 translates a v4 data stream into the UI message stream the SDK
// 5+ server writes for the same answer: start (with the first step's
// message id), then per v4 part its chunks (text and reasoning in blocks
// with ids, opened at their first delta and closed before anything else,
// tool calls streamed and answered, data parts, annotations as metadata,
// sources, files, errors, steps, finish), then [DONE].
func uiFromV4(tb testing.TB, v4 []byte) []byte {
	tb.Helper()
	var b []byte
	var text, reasoning string // the open blocks' ids
	blocks := 0
	closeBlocks := func() {
		if text != "" {
			b = uistream.AppendTextEndChunk(b, text)
		}
		if reasoning != "" {
			b = uistream.AppendReasoningEndChunk(b, reasoning)
		}
		text, reasoning = "", ""
	}
	fields := func(v []byte) map[string]json.RawMessage {
		var m map[string]json.RawMessage
		require.NoError(tb, json.Unmarshal(v, &m), "v4 value %s", v)
		return m
	}
	str := func(v json.RawMessage) string {
		var s string
		require.NoError(tb, json.Unmarshal(v, &s))
		return s
	}
	started := false
	d := linestream.NewDecoder(bytes.NewReader(v4))
	for d.Next() {
		p := d.Part()
		k := p.Kind()
		if k != linestream.KindText && k != linestream.KindReasoning && k != linestream.KindReasoningSignature {
			closeBlocks()
		}
		switch k {
		case linestream.KindStartStep:
			if !started {
				b = uistream.AppendStartChunk(b, str(fields(p.Value)["messageId"]), nil)
				started = true
			}
			b = uistream.AppendStartStepChunk(b)
		case linestream.KindText, linestream.KindReasoning:
			s, err := p.AppendText(nil)
			require.NoError(tb, err)
			if k == linestream.KindText {
				if text == "" {
					blocks++
					text = fmt.Sprint("txt-", blocks)
					b = uistream.AppendTextStartChunk(b, text)
				}
				b = uistream.AppendTextDeltaChunk(b, text, string(s))
			} else {
				if reasoning == "" {
					blocks++
					reasoning = fmt.Sprint("rsn-", blocks)
					b = uistream.AppendReasoningStartChunk(b, reasoning)
				}
				b = uistream.AppendReasoningDeltaChunk(b, reasoning, string(s))
			}
		case linestream.KindToolCallStreamingStart:
			f := fields(p.Value)
			b = uistream.AppendToolInputStartChunk(b, str(f["toolCallId"]), str(f["toolName"]))
		case linestream.KindToolCallDelta:
			f := fields(p.Value)
			b = uistream.AppendToolInputDeltaChunk(b, str(f["toolCallId"]), str(f["argsTextDelta"]))
		case linestream.KindToolCall:
			f := fields(p.Value)
			b = uistream.AppendToolInputAvailableChunk(b, str(f["toolCallId"]), str(f["toolName"]), f["args"])
		case linestream.KindToolResult:
			f := fields(p.Value)
			b = uistream.AppendToolOutputAvailableChunk(b, str(f["toolCallId"]), f["result"])
		case linestream.KindData:
			b = uistream.AppendDataChunk(b, "v4-data", "", p.Value, false)
		case linestream.KindMessageAnnotations:
			b = uistream.AppendMessageMetadataChunk(b, append(append([]byte(`{"annotations":`), p.Value...), '}'))
		case linestream.KindError:
			s, err := p.AppendText(nil)
			require.NoError(tb, err)
			b = uistream.AppendErrorChunk(b, string(s))
		case linestream.KindSource:
			f := fields(p.Value)
			b = uistream.AppendSourceURLChunk(b, str(f["id"]), str(f["url"]), str(f["title"]))
		case linestream.KindFile:
			f := fields(p.Value)
			b = uistream.AppendFileChunk(b, str(f["mimeType"]), "data:"+str(f["mimeType"])+";base64,"+str(f["data"]))
		case linestream.KindFinishStep:
			b = uistream.AppendFinishStepChunk(b)
		case linestream.KindFinishMessage:
			b = uistream.AppendFinishChunk(b, str(fields(p.Value)["finishReason"]), nil)
		}
	}
	require.NoError(tb, d.Err())
	closeBlocks()
	return uistream.AppendDone(b)
}

// BenchmarkUIDecode decodes each input with each implementation, as
// BenchmarkDecode does for the v4 stream: ns/event is the time per event,
// cpu-ns/event (Linux) the benchmark thread's CPU time per event.
func BenchmarkUIDecode(b *testing.B) {
	for _, in := range uiDecodeInputs(b) {
		for _, impl := range uiDecodeImpls {
			b.Run("input="+in.name+"/impl="+impl.name, func(b *testing.B) {
				measureDecode(b, impl.name, in.name, impl.newFunc(), in.data, in.events, "event")
			})
		}
	}
}

// TestUIDecodeImplsAgree checks that the implementations find the same
// events in every input, so that they measure the same work.
func TestUIDecodeImplsAgree(t *testing.T) {
	for _, in := range uiDecodeInputs(t) {
		for _, impl := range uiDecodeImpls {
			decode := impl.newFunc()
			for run := range 2 {
				n, err := decode(bytes.NewReader(in.data))
				require.NoError(t, err, "%s on %s (run %d)", impl.name, in.name, run+1)
				assert.Equal(t, in.events, n, "%s on %s (run %d): events", impl.name, in.name, run+1)
			}
		}
	}
}

// TestUIDecodeNoAllocs checks that uistream, once its buffers have grown,
// decodes each whole input without allocating.
func TestUIDecodeNoAllocs(t *testing.T) {
	for _, in := range uiDecodeInputs(t) {
		for _, impl := range uiDecodeImpls[:2] {
			decode := impl.newFunc()
			r := bytes.NewReader(in.data)
			_, err := decode(r)
			require.NoError(t, err)
			allocs := testing.AllocsPerRun(3, func() {
				r.Reset(in.data)
				if _, err := decode(r); err != nil {
					t.Fatalf("%s on %s: %v", impl.name, in.name, err)
				}
			})
			assert.Zero(t, allocs, "%s on %s after a first run: want 0 allocations per stream", impl.name, in.name)
		}
	}
}

// TestUIInputs checks the translated inputs have the shape the benchmarks
// promise: about one chunk per v4 part, most of them text deltas, every
// chunk on the SDK server's framing, no warnings.
func TestUIInputs(t *testing.T) {
	ins := uiDecodeInputs(t)
	mix := ins[0]
	assert.Greater(t, mix.events, 100_000, "%s: events", mix.name)
	deltas := bytes.Count(mix.data, []byte(`data: {"type":"text-delta",`))
	assert.InDelta(t, 0.75, float64(deltas)/float64(mix.events), 0.05, "%s: about 3/4 text deltas", mix.name)
	d := uistream.NewDecoder(nil)
	for _, in := range ins {
		d.Reset(bytes.NewReader(in.data))
		kinds := map[uistream.ChunkType]int{}
		for d.Next() {
			kinds[d.Chunk().Kind]++
		}
		require.NoError(t, d.Err(), in.name)
		assert.Empty(t, d.Warnings(), in.name)
		assert.Zero(t, kinds[uistream.ChunkUnknown], "%s: unknown chunk types", in.name)
		if strings.HasPrefix(in.name, "sdk-one-token-") {
			assert.Greater(t, kinds[uistream.ChunkTextDelta], in.events*99/100, "%s: want text deltas, got %v", in.name, kinds)
			continue
		}
		assert.GreaterOrEqual(t, len(kinds), 12, "%s: chunk types %v", in.name, kinds)
	}
}
