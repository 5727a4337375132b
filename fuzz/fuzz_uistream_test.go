package fuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/chatwire/chatwire/internal/jsonscan"
	"github.com/chatwire/chatwire/uistream"
)

// The targets of this file keep uistream, the decoder of the AI SDK 5-7
// UI message stream, right:
//
//	FuzzUIAgainstReference  the same chunks, warnings and [DONE] as UIReference, or an
//	                        error at the same event, of the same kind, at a byte of it;
//	                        with the vector paths and without
//	FuzzUIChunking          the same result, errors and warnings included, whatever
//	                        sizes the reader returns, and from a decoder Reset
//	FuzzUIRoundTrip         chunks of every type written with uistream's encoder, in
//	                        every framing, read back as written
//
// Each reads its input as raw bytes and as the stream GenUIStream builds
// from it, and is seeded with the framing cases of
// uistream/testdata/sseoracle, the streams of corpus/ui and streams the
// encoder writes.

// uiSeeds returns the seed streams: the oracle's framing cases, the
// streams of corpus/ui, and the SDK-like streams the encoder writes.
func uiSeeds(tb testing.TB) [][]byte {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "uistream", "testdata", "sseoracle", "cases.json"))
	if err != nil {
		tb.Fatalf("read the framing cases: %v", err)
	}
	var cases []struct{ Input string }
	if err := json.Unmarshal(raw, &cases); err != nil {
		tb.Fatalf("read the framing cases: %v", err)
	}
	var seeds [][]byte
	for _, c := range cases {
		b := make([]byte, 0, len(c.Input))
		for _, r := range c.Input {
			b = append(b, byte(r))
		}
		seeds = append(seeds, b)
	}
	// The streams of corpus/ui: written by the real ai 5, 6 and 7 servers,
	// and hand-made edge streams (when fuzzing, those up to maxFuzzSeed).
	files, err := filepath.Glob(filepath.Join("..", "corpus", "ui", "*", "*.sse"))
	if err != nil {
		tb.Fatalf("list corpus/ui: %v", err)
	}
	more, err := filepath.Glob(filepath.Join("..", "corpus", "ui", "streams", "*", "*.sse"))
	if err != nil {
		tb.Fatalf("list corpus/ui: %v", err)
	}
	fuzzing := flag.Lookup("test.fuzz") != nil && flag.Lookup("test.fuzz").Value.String() != ""
	for _, f := range append(files, more...) {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatalf("read %s: %v", f, err)
		}
		if !fuzzing || len(b) <= maxFuzzSeed {
			seeds = append(seeds, b)
		}
	}
	if len(files) == 0 || len(more) == 0 {
		tb.Fatal("no corpus/ui streams")
	}
	sdk := uiSDKStream()
	seeds = append(seeds, sdk,
		bytes.ReplaceAll(sdk, []byte("\n"), []byte("\r\n")),
		bytes.ReplaceAll(sdk, []byte("\n"), []byte("\r")),
		bytes.ReplaceAll(sdk, []byte("data: {"), []byte(": keep-alive\nevent: m\ndata: {")),
		[]byte("0:\"v4\"\ndata: {\"type\":\"start\"}\n\ndata: {\"type\":\"data-x\",\"data\":{\"__proto__\":1}}\n\n"),
	)
	return seeds
}

// uiSDKStream is a stream as the SDK's server writes it, of most chunk
// types, with escapes and non-ASCII.
func uiSDKStream() []byte {
	b := uistream.AppendStartChunk(nil, "msg_1", []byte(`{"chatId":"c"}`))
	b = uistream.AppendStartStepChunk(b)
	b = uistream.AppendReasoningStartChunk(b, "r")
	b = uistream.AppendReasoningDeltaChunk(b, "r", "thinking…")
	b = uistream.AppendReasoningEndChunk(b, "r")
	b = uistream.AppendTextStartChunk(b, "t")
	b = uistream.AppendTextDeltaChunk(b, "t", "Hello \"world\"\n é😀 \u2028")
	b = uistream.AppendTextEndChunk(b, "t")
	b = uistream.AppendToolInputStartChunk(b, "c1", "write")
	b = uistream.AppendToolInputDeltaChunk(b, "c1", `{"path":`)
	b = uistream.AppendToolInputAvailableChunk(b, "c1", "write", []byte(`{"path":"a.html","n":[1,2.5e3,true,null]}`))
	b = uistream.AppendToolOutputAvailableChunk(b, "c1", []byte(`{"ok":true}`))
	b = uistream.AppendToolOutputErrorChunk(b, "c2", "boom")
	b = uistream.AppendDataChunk(b, "weather", "w1", []byte(`{"city":"SF"}`), false)
	b = uistream.AppendSourceURLChunk(b, "s1", "https://example.com", "Example")
	b = uistream.AppendFileChunk(b, "image/png", "data:image/png;base64,iVBORw0KGgo=")
	b = uistream.AppendMessageMetadataChunk(b, []byte(`{"totalTokens":1}`))
	b = uistream.AppendFinishStepChunk(b)
	b = uistream.AppendErrorChunk(b, "rate limit")
	b = uistream.AppendFinishChunk(b, "stop", nil)
	return uistream.AppendDone(b)
}

// uiDecoded is a whole stream read by uistream.
type uiDecoded struct {
	chunks   []UIRefChunk
	kinds    []uistream.ChunkType
	err      error
	warnings []uistream.Warning
	done     bool
}

func uiDecode(d *uistream.Decoder, r io.Reader, strict bool, maxEvent int) uiDecoded {
	d.Reset(r)
	d.SetStrict(strict)
	d.SetMaxEventLength(maxEvent)
	var out uiDecoded
	for d.Next() {
		c := d.Chunk()
		out.chunks = append(out.chunks, UIRefChunk{c.Event, c.Line, c.Offset, string(c.Type), string(c.Data)})
		out.kinds = append(out.kinds, c.Kind)
	}
	out.err = d.Err()
	out.warnings = append(out.warnings, d.Warnings()...)
	out.done = d.Done()
	return out
}

// uiSentinel names the sentinel error err wraps as the reference does.
func uiSentinel(err error) string {
	switch {
	case errors.Is(err, uistream.ErrJSON):
		return UIErrJSON
	case errors.Is(err, uistream.ErrNotChunk):
		return UIErrNotChunk
	case errors.Is(err, uistream.ErrUnknownType):
		return UIErrUnknown
	case errors.Is(err, uistream.ErrEventTooLong):
		return UIErrTooLong
	}
	return ""
}

// uiMaxEvent turns a fuzz number into a maximum event length: mostly the
// default (0), sometimes a small one.
func uiMaxEvent(max uint16) int {
	if max >= 32768 {
		return int(max%2048) + 1
	}
	return 0
}

func FuzzUIAgainstReference(f *testing.F) {
	for _, s := range uiSeeds(f) {
		f.Add(s, uint16(0))
	}
	f.Add([]byte("data: {\"type\":\"start\"}\n\ndata: {\"type\":\n: x\ndata: \"finish\"}\n\n"), uint16(32768+20))
	d := uistream.NewDecoder(nil)
	f.Fuzz(func(t *testing.T, data []byte, max uint16) {
		if len(data) > maxInput {
			t.Skip("input larger than maxInput")
		}
		maxEvent := uiMaxEvent(max)
		for _, in := range [][]byte{data, GenUIStream(data)} {
			for _, strict := range []bool{false, true} {
				uiAgree(t, d, in, strict, maxEvent, true)
				if jsonscan.Vector() {
					jsonscan.SetVectorScan(false)
					uiAgree(t, d, in, strict, maxEvent, false)
					jsonscan.SetVectorScan(true)
				}
			}
		}
	})
}

func uiAgree(t *testing.T, d *uistream.Decoder, in []byte, strict bool, maxEvent int, vector bool) {
	t.Helper()
	refMax := maxEvent
	if refMax <= 0 {
		refMax = uistream.DefaultMaxEventLength
	}
	want, err := UIReference(in, strict, refMax)
	if errors.Is(err, ErrTooDeep) {
		return // beyond what the reference can read; uistream has no depth limit
	}
	if err != nil {
		t.Fatalf("reference: %v", err)
	}
	got := uiDecode(d, bytes.NewReader(in), strict, maxEvent)
	how := fmt.Sprintf("strict %v, max event %d, vector paths %v", strict, maxEvent, vector)
	if want.ErrEvent == 0 {
		if got.err != nil {
			t.Fatalf("%s: uistream rejects what the reference reads (%d chunks): %v\ninput: %+q", how, len(want.Chunks), got.err, in)
		}
	} else {
		var se *uistream.SyntaxError
		if !errors.As(got.err, &se) {
			t.Fatalf("%s: the reference rejects event %d (%s: %s), uistream gives %v\ninput: %+q", how, want.ErrEvent, want.ErrKind, want.ErrMsg, got.err, in)
		}
		if se.Event != want.ErrEvent || uiSentinel(se) != want.ErrKind || se.Offset < want.ErrFrom || se.Offset > want.ErrTo {
			t.Fatalf("%s: the reference rejects event %d (%s: %s) at a byte in [%d, %d], uistream event %d (%s) at %d: %v\ninput: %+q",
				how, want.ErrEvent, want.ErrKind, want.ErrMsg, want.ErrFrom, want.ErrTo, se.Event, uiSentinel(se), se.Offset, se, in)
		}
		if line, col := uiLineCol(in, se.Offset); se.Line != line || se.Col != col {
			t.Fatalf("%s: the error's offset %d is line %d:%d, uistream says %d:%d: %v\ninput: %+q", how, se.Offset, line, col, se.Line, se.Col, se, in)
		}
	}
	if len(got.chunks) != len(want.Chunks) {
		t.Fatalf("%s: uistream reads %d chunks, the reference %d\ninput: %+q", how, len(got.chunks), len(want.Chunks), in)
	}
	for i, w := range want.Chunks {
		if got.chunks[i] != w {
			t.Fatalf("%s: chunk %d: uistream %+v, the reference %+v\ninput: %+q", how, i+1, got.chunks[i], w, in)
		}
		if k := uistream.TypeOf([]byte(w.Type)); got.kinds[i] != k {
			t.Fatalf("%s: chunk %d of type %+q is %v, TypeOf says %v", how, i+1, w.Type, got.kinds[i], k)
		}
	}
	if want.ErrEvent != 0 {
		return // the warnings of lines read before the error depend on the reads
	}
	if got.done != want.Done {
		t.Fatalf("%s: Done %v, the reference %v\ninput: %+q", how, got.done, want.Done, in)
	}
	var warns []UIRefWarning
	for _, w := range got.warnings {
		warns = append(warns, UIRefWarning{w.Kind.String(), w.Count, w.Event, w.Line, w.Offset})
	}
	if fmt.Sprint(warns) != fmt.Sprint(want.Warnings) {
		t.Fatalf("%s: warnings %+v, the reference %+v\ninput: %+q", how, warns, want.Warnings, in)
	}
}

// uiLineCol returns the line and column of in[off]: "\r\n", "\n" and "\r"
// end lines; line 1's columns start after a BOM (and "ï»¿").
func uiLineCol(in []byte, off int64) (line, col int) {
	line, ls := 1, 0
	if bytes.HasPrefix(in, []byte("\xEF\xBB\xBF")) {
		ls = 3
	}
	if bytes.HasPrefix(in[ls:], []byte("\xC3\xAF\xC2\xBB\xC2\xBF")) {
		ls += 6
	}
	for i := 0; i < int(off); i++ {
		if in[i] == '\n' || in[i] == '\r' {
			if in[i] == '\r' && i+1 < len(in) && in[i+1] == '\n' {
				i++
			}
			line, ls = line+1, i+1
		}
	}
	return line, int(off) - ls + 1
}

func FuzzUIChunking(f *testing.F) {
	for i, s := range uiSeeds(f) {
		f.Add(s, []byte{byte(i), 1, 7, 64, 0, 3, 200}, uint16(0))
	}
	f.Add([]byte("data: {\"type\":\"start\"}\r\n\r\ndata: {\"type\":\"x\",\"a\":\""+strings.Repeat("y", 1100)+"\"}\r\r\n"), []byte{158}, uint16(32768+300))
	reused := uistream.NewDecoder(nil)
	f.Fuzz(func(t *testing.T, data, sizes []byte, max uint16) {
		if len(data) > maxInput {
			t.Skip("input larger than maxInput")
		}
		maxEvent := uiMaxEvent(max)
		for _, in := range [][]byte{data, GenUIStream(data)} {
			for _, strict := range []bool{false, true} {
				uiSameWhateverTheChunks(t, reused, in, sizes, strict, maxEvent)
			}
			// Repeated into a longer stream, read with a small maximum, so
			// that the buffer fills, moves and grows many times.
			if len(in) > 0 && len(in) < 32<<10 {
				long := bytes.Repeat(in, (32<<10)/len(in)+1)
				uiSameWhateverTheChunks(t, reused, long, sizes, false, min(maxEvent, 4096))
			}
		}
	})
}

func uiSameWhateverTheChunks(t *testing.T, reused *uistream.Decoder, in, sizes []byte, strict bool, maxEvent int) {
	t.Helper()
	want := uiDecode(uistream.NewDecoder(nil), bytes.NewReader(in), strict, maxEvent)
	readers := []struct {
		name string
		r    io.Reader
	}{
		{"one byte at a time", iotest.OneByteReader(bytes.NewReader(in))},
		{"sizes from the input", &chunkReader{data: in, sizes: sizes}},
		{"half a buffer", iotest.HalfReader(bytes.NewReader(in))},
		{"io.EOF with the last bytes", iotest.DataErrReader(bytes.NewReader(in))},
		{"a decoder Reset", bytes.NewReader(in)},
	}
	for _, rd := range readers {
		d := uistream.NewDecoder(nil)
		if rd.name == "a decoder Reset" {
			d = reused
		}
		got := uiDecode(d, rd.r, strict, maxEvent)
		if diff := uiDiff(want, got); diff != "" {
			t.Fatalf("strict %v, max event %d, read %s: %s\ninput: %+q\nsizes: %v", strict, maxEvent, rd.name, diff, abbrev(in), sizes)
		}
	}
}

func uiDiff(want, got uiDecoded) string {
	if fmt.Sprint(want.chunks) != fmt.Sprint(got.chunks) {
		return fmt.Sprintf("want chunks %+v, got %+v", want.chunks, got.chunks)
	}
	var wse, gse *uistream.SyntaxError
	switch {
	case (want.err == nil) != (got.err == nil):
		return fmt.Sprintf("want error %v, got %v", want.err, got.err)
	case errors.As(want.err, &wse) != errors.As(got.err, &gse):
		return fmt.Sprintf("want error %v, got %v", want.err, got.err)
	case wse != nil && *wse != *gse:
		return fmt.Sprintf("want error %#v, got %#v", *wse, *gse)
	}
	if want.err == nil && (fmt.Sprint(want.warnings) != fmt.Sprint(got.warnings) || want.done != got.done) {
		return fmt.Sprintf("want warnings %v and done %v, got %v and %v", want.warnings, want.done, got.warnings, got.done)
	}
	return ""
}

// FuzzUIRoundTrip: chunks of every type, with strings of any bytes and raw
// JSON values from random trees, written with uistream's Append…Chunk
// functions and AppendChunk (and again with CRLF or lone CR line ends, each
// chunk over several data lines, comments and named events around them),
// read back by the decoder as the reference reads them, and as written:
// each chunk's type, and its JSON byte for byte (invalid UTF-8 as U+FFFD,
// the data lines joined with "\n").
func FuzzUIRoundTrip(f *testing.F) {
	for _, s := range uiSeeds(f) {
		f.Add(s, uint8(0))
	}
	d := uistream.NewDecoder(nil)
	f.Fuzz(func(t *testing.T, data []byte, framing uint8) {
		var chunks []uiRTChunk
		newFuzzer(data).NumElements(1, 12).Fuzz(&chunks)
		var stream []byte
		var want []UIRefChunk
		for i := range chunks {
			start := len(stream)
			var typ string
			var json []byte
			stream, typ, json = chunks[i].write(stream)
			if json == nil {
				json = bytes.TrimSuffix(bytes.TrimPrefix(stream[start:], []byte("data: ")), []byte("\n\n"))
			}
			want = append(want, UIRefChunk{Event: i + 1, Type: typ, Data: string(DecodeUTF8(json))})
		}
		stream = uistream.AppendDone(stream)
		in := uiFrame(stream, framing)
		ref, err := UIReference(in, false, uistream.DefaultMaxEventLength)
		if errors.Is(err, ErrTooDeep) {
			return
		}
		if err != nil {
			t.Fatalf("reference: %v", err)
		}
		uiAgree(t, d, in, false, 0, jsonscan.Vector())
		if ref.ErrEvent != 0 {
			return // a raw value with a key secure-json-parse rejects: uiAgree saw the error
		}
		// With lone CRs, the stream's last byte is a CR, which ends no line:
		// the [DONE] event is dropped.
		if lastCR := framing%8 == 2 || framing%8 == 6; len(ref.Chunks) != len(want) || ref.Done == lastCR {
			t.Fatalf("framing %d: %d chunks read (done %v), %d written\nstream: %+q", framing%8, len(ref.Chunks), ref.Done, len(want), in)
		}
		for i, w := range want {
			got := ref.Chunks[i]
			data, wdata := got.Data, w.Data
			if framing%8 >= 4 {
				// Several data lines: "\n" (JSON whitespace) where they join.
				data, wdata = strings.ReplaceAll(data, "\n", ""), strings.ReplaceAll(wdata, "\n", "")
			}
			if got.Type != w.Type || data != wdata || got.Event != w.Event {
				t.Fatalf("framing %d: chunk %d read as event %d %+q %+q, written as %+q %+q", framing%8, i+1, got.Event, got.Type, data, w.Type, w.Data)
			}
		}
	})
}

// uiFrame writes the SDK's stream in another framing: %8 0 as it is, 1
// CRLF, 2 lone CRs, 3 comments and event names, 4 several data lines, 5
// CRLF and several data lines, 6 lone CRs and several data lines, 7 all.
func uiFrame(b []byte, framing uint8) []byte {
	f := framing % 8
	if f >= 4 {
		var out []byte
		for _, frame := range bytes.SplitAfter(b, []byte("\n\n")) {
			if json, ok := bytes.CutPrefix(frame, []byte("data: {")); ok {
				out = append(out, "data: "...)
				for i, part := range splitOutsideStrings(append([]byte("{"), bytes.TrimSuffix(json, []byte("\n\n"))...)) {
					if i > 0 {
						out = append(out, "\ndata: "...)
					}
					out = append(out, part...)
				}
				out = append(out, "\n\n"...)
				continue
			}
			out = append(out, frame...)
		}
		b = out
	}
	if f == 3 || f == 7 {
		b = bytes.ReplaceAll(b, []byte("data: {"), []byte(": keep-alive\nevent: message\nid: 1\ndata: {"))
	}
	switch f {
	case 1, 5, 7:
		b = bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))
	case 2, 6:
		b = bytes.ReplaceAll(b, []byte("\n"), []byte("\r"))
	}
	return b
}

// uiRTChunk is one chunk gofuzz fills: its type and its arguments.
type uiRTChunk struct {
	Kind    uint8
	A, B, C text
	Raw     genValue
	Flag    bool
}

// write appends the chunk's frame and returns its type and, where the frame
// is not "data: " + the JSON + "\n\n", the JSON the client reads.
func (c *uiRTChunk) write(b []byte) ([]byte, string, []byte) {
	a, bb, cc := string(c.A), string(c.B), string(c.C)
	raw := uiCompact(c.Raw.render(nil))
	switch c.Kind % 22 {
	case 0:
		return uistream.AppendStartChunk(b, a, uiMaybe(c.Flag, raw)), "start", nil
	case 1:
		return uistream.AppendStartStepChunk(b), "start-step", nil
	case 2:
		return uistream.AppendTextStartChunk(b, a), "text-start", nil
	case 3:
		return uistream.AppendTextDeltaChunk(b, a, bb), "text-delta", nil
	case 4:
		return uistream.AppendTextEndChunk(b, a), "text-end", nil
	case 5:
		return uistream.AppendReasoningStartChunk(b, a), "reasoning-start", nil
	case 6:
		return uistream.AppendReasoningDeltaChunk(b, a, bb), "reasoning-delta", nil
	case 7:
		return uistream.AppendReasoningEndChunk(b, a), "reasoning-end", nil
	case 8:
		return uistream.AppendToolInputStartChunk(b, a, bb), "tool-input-start", nil
	case 9:
		return uistream.AppendToolInputDeltaChunk(b, a, bb), "tool-input-delta", nil
	case 10:
		return uistream.AppendToolInputAvailableChunk(b, a, bb, raw), "tool-input-available", nil
	case 11:
		return uistream.AppendToolOutputAvailableChunk(b, a, uiMaybe(c.Flag, raw)), "tool-output-available", nil
	case 12:
		return uistream.AppendToolOutputErrorChunk(b, a, bb), "tool-output-error", nil
	case 13:
		return uistream.AppendSourceURLChunk(b, a, bb, cc), "source-url", nil
	case 14:
		return uistream.AppendFileChunk(b, a, bb), "file", nil
	case 15:
		return uistream.AppendDataChunk(b, a, bb, raw, c.Flag), "data-" + string(DecodeUTF8([]byte(a))), nil
	case 16:
		return uistream.AppendMessageMetadataChunk(b, raw), "message-metadata", nil
	case 17:
		return uistream.AppendErrorChunk(b, a), "error", nil
	case 18:
		return uistream.AppendFinishStepChunk(b), "finish-step", nil
	case 19:
		return uistream.AppendFinishChunk(b, a, uiMaybe(c.Flag, raw)), "finish", nil
	case 20:
		return uistream.AppendAbortChunk(b), "abort", nil
	}
	// Any chunk as raw JSON, spread over lines.
	chunk := append([]byte(`{"type":`), uiQuoted(a)...)
	chunk = append(append(append(chunk, ",\n\"x\" :\r\n"...), raw...), '}')
	return uistream.AppendChunk(b, chunk), string(DecodeUTF8([]byte(a))), bytes.ReplaceAll(chunk, []byte("\r\n"), []byte("\n"))
}

func uiMaybe(ok bool, raw []byte) []byte {
	if ok {
		return raw
	}
	return nil
}

// uiQuoted quotes s as JSON, invalid UTF-8 as U+FFFD.
func uiQuoted(s string) []byte {
	b, _ := json.Marshal(string(DecodeUTF8([]byte(s))))
	return b
}

// uiCompact drops the whitespace outside strings of a generated JSON
// value: the Append…Chunk functions take compact JSON, as JSON.stringify
// writes it.
func uiCompact(b []byte) []byte {
	out := b[:0:0]
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && (c == ' ' || c == '\t' || c == '\r' || c == '\n'):
			continue
		}
		out = append(out, c)
	}
	return out
}
