package corpus_test

// The differential tests: linestream reads every corpus stream as the real
// AI SDK does, and where it deliberately does not, the stream is listed in
// lenient below with the reason (corpus/README.md lists the same).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/corpus"
	"github.com/chatwire/chatwire/linestream"
)

// A mode is how the decoder is set up.
type mode struct {
	name   string
	strict bool
}

var modes = []mode{{"default", false}, {"strict", true}}

// decodeAll reads a whole stream, keeping a copy of every part.
func decodeAll(data []byte, strict bool) ([]linestream.Part, error) {
	d := linestream.NewDecoder(bytes.NewReader(data))
	d.SetStrict(strict)
	var parts []linestream.Part
	for d.Next() {
		parts = append(parts, d.Part().Clone())
	}
	return parts, d.Err()
}

// How linestream is more lenient than the SDK on a line the SDK rejects.
type leniency int

const (
	// skipsLoneCR: a line holding only "\r" (a blank CRLF line) is skipped
	// as blank; the SDK throws "No separator found.". The decoder reads on.
	skipsLoneCR leniency = iota + 1
	// rawUnknownCode: in default mode a code other than the SDK's 16 (made
	// of letters, digits, '-', '_', '.') is delivered as a raw part of
	// KindUnknown; the SDK throws "Invalid code X.". Strict mode rejects it.
	rawUnknownCode
	// defersShape: in default mode a value of the wrong shape for its code
	// is delivered, and Part.CheckShape reports the SDK's message; the SDK
	// throws it. Strict mode rejects it.
	defersShape
)

// lenientStream is a corpus stream linestream reads further than the SDK,
// in the modes named.
type lenientStream struct {
	how     leniency
	strict  bool // lenient in strict mode too (else in default mode only)
	reasons string
}

const (
	reasonLoneCR = "a blank line in a CRLF stream is blank; the SDK's split on \\n leaves \"\\r\" and throws, which breaks on any proxy that adds a blank CRLF line (see reference §2)"
	reasonCode   = "forward compatibility: a reader of the service's stream must survive codes added later or by extensions (assistant-ui's aui-*); the SDK hard-fails on them (reference §4, #11269); strict mode rejects them as the SDK does"
	reasonShape  = "the default decoder checks the line grammar and JSON only; the shape is one call away (Part.CheckShape, with the SDK's message) so a checker can report it without losing the rest of the stream; strict mode rejects it as the SDK does"
)

// lenient lists, by ID, every corpus stream the SDK rejects that linestream
// reads further, and how. TestLenientTable keeps it exact.
var lenient = map[string]lenientStream{
	"invalid/blank-crlf-line":         {skipsLoneCR, true, reasonLoneCR},
	"invalid/trailing-lone-cr-at-eof": {skipsLoneCR, true, reasonLoneCR},

	"invalid/unknown-code-x":            {rawUnknownCode, false, reasonCode},
	"invalid/multi-char-code-10":        {rawUnknownCode, false, reasonCode},
	"invalid/multi-char-code-aui-state": {rawUnknownCode, false, reasonCode},
	"invalid/uppercase-code":            {rawUnknownCode, false, reasonCode},
	"invalid/removed-v3-code-1":         {rawUnknownCode, false, reasonCode},
	"invalid/removed-v3-code-4":         {rawUnknownCode, false, reasonCode},
	"invalid/removed-v3-code-5":         {rawUnknownCode, false, reasonCode},
	"invalid/removed-v3-code-6":         {rawUnknownCode, false, reasonCode},
	"invalid/removed-v3-code-7":         {rawUnknownCode, false, reasonCode},

	"invalid/shape-annotations-object":                          {defersShape, false, reasonShape},
	"invalid/shape-data-object":                                 {defersShape, false, reasonShape},
	"invalid/shape-error-number":                                {defersShape, false, reasonShape},
	"invalid/shape-file-missing-mime-type":                      {defersShape, false, reasonShape},
	"invalid/shape-finish-message-finish-reason-number":         {defersShape, false, reasonShape},
	"invalid/shape-finish-message-missing-finish-reason":        {defersShape, false, reasonShape},
	"invalid/shape-finish-step-missing-finish-reason":           {defersShape, false, reasonShape},
	"invalid/shape-reasoning-number":                            {defersShape, false, reasonShape},
	"invalid/shape-reasoning-signature-missing-signature":       {defersShape, false, reasonShape},
	"invalid/shape-redacted-reasoning-missing-data":             {defersShape, false, reasonShape},
	"invalid/shape-source-null":                                 {defersShape, false, reasonShape},
	"invalid/shape-source-string":                               {defersShape, false, reasonShape},
	"invalid/shape-start-step-id-instead-of-message-id":         {defersShape, false, reasonShape},
	"invalid/shape-start-step-missing-message-id":               {defersShape, false, reasonShape},
	"invalid/shape-text-null":                                   {defersShape, false, reasonShape},
	"invalid/shape-text-number":                                 {defersShape, false, reasonShape},
	"invalid/shape-tool-call-args-string":                       {defersShape, false, reasonShape},
	"invalid/shape-tool-call-delta-args-number":                 {defersShape, false, reasonShape},
	"invalid/shape-tool-call-id-number":                         {defersShape, false, reasonShape},
	"invalid/shape-tool-call-missing-args":                      {defersShape, false, reasonShape},
	"invalid/shape-tool-call-missing-tool-name":                 {defersShape, false, reasonShape},
	"invalid/shape-tool-call-null":                              {defersShape, false, reasonShape},
	"invalid/shape-tool-call-streaming-start-missing-tool-name": {defersShape, false, reasonShape},
	"invalid/shape-tool-result-array":                           {defersShape, false, reasonShape},
	"invalid/shape-tool-result-missing-result":                  {defersShape, false, reasonShape},
}

// lenientIn returns the leniency of a stream in a mode, or 0.
func lenientIn(id string, m mode) leniency {
	l, ok := lenient[id]
	if !ok || (m.strict && !l.strict) {
		return 0
	}
	return l.how
}

func loadClass(t *testing.T, class string) []corpus.Stream {
	t.Helper()
	streams, err := corpus.Streams(os.DirFS("../../corpus"), class)
	require.NoError(t, err, "load the %s streams", class)
	require.NotEmpty(t, streams, "the corpus has %s streams", class)
	return streams
}

// TestDifferentialAccepted: default and strict linestream read every valid
// and accepted stream exactly as the SDK: the same parts, lines, codes and
// values.
func TestDifferentialAccepted(t *testing.T) {
	for _, class := range []string{corpus.Valid, corpus.Accepted} {
		for _, s := range loadClass(t, class) {
			for _, m := range modes {
				t.Run(s.ID()+"/"+m.name, func(t *testing.T) {
					parts, err := decodeAll(s.Data, m.strict)
					require.NoError(t, err, "%s (%s) decoded %s; the SDK reads all %d parts", s.ID(), s.Description, m.name, len(s.Parts))
					comparePrefix(t, s, parts, len(s.Parts))
					assert.Len(t, parts, len(s.Parts), "%s: number of parts (%s)", s.ID(), m.name)
				})
			}
		}
	}
}

// comparePrefix compares the first n parts (or fewer, if got has fewer)
// with the SDK's reading of stream s.
func comparePrefix(t *testing.T, s corpus.Stream, got []linestream.Part, n int) {
	t.Helper()
	for i := 0; i < n && i < len(got); i++ {
		want, p := s.Parts[i], got[i]
		if !assert.Equal(t, want.Line, p.Line, "%s part %d: line", s.ID(), i+1) ||
			!assert.Equal(t, want.Code, string(p.Code), "%s part %d (line %d): code", s.ID(), i+1, p.Line) {
			return
		}
		assertValue(t, s, want, p)
	}
}

// assertValue checks that a decoded part's value is the SDK's, compared as
// JavaScript values after the SDK's rewrites, and that its text and chatId
// read as the SDK reads them.
func assertValue(t *testing.T, s corpus.Stream, want corpus.ExpectedPart, p linestream.Part) {
	t.Helper()
	where := fmt.Sprintf("%s line %d (code %s)", s.ID(), p.Line, p.Code)
	wantV, err := expectedValue(want.Value)
	require.NoError(t, err, "%s: parse the expected value %s", where, want.Value)
	gotV, err := sdkValue(want.Code, p.Value)
	require.NoError(t, err, "%s: read linestream's value %q as the SDK would", where, p.Value)
	if d := diffJS("value", wantV, gotV); d != "" {
		t.Errorf("%s: %s\n  SDK:        %s\n  linestream: %s", where, d, abbrev(want.Value), abbrev(p.Value))
		return
	}
	switch p.Kind() {
	case linestream.KindText, linestream.KindError, linestream.KindReasoning:
		var wantText string
		require.NoError(t, json.Unmarshal(want.Value, &wantText), "%s: expected value %s is a string", where, abbrev(want.Value))
		text, err := p.AppendText(nil)
		require.NoError(t, err, "%s: AppendText of %s", where, abbrev(p.Value))
		if string(text) != wantText {
			t.Errorf("%s: AppendText of %s\n  got  %+q\n  want %+q (the SDK's string, lone surrogates as U+FFFD)", where, abbrev(p.Value), abbrev(text), abbrev([]byte(wantText)))
		}
	case linestream.KindData:
		assertChatID(t, where, wantV, p.Value)
	}
}

// assertChatID checks AppendChatID against the SDK's parsed data value:
// the chatId string of its first element when that is an object holding
// one, and ErrNoChatID otherwise.
func assertChatID(t *testing.T, where string, sdk any, value []byte) {
	t.Helper()
	var want string
	hasID := false
	if arr, ok := sdk.([]any); ok && len(arr) > 0 {
		if obj, ok := arr[0].(map[string]any); ok {
			want, hasID = obj["chatId"].(string)
		}
	}
	got, err := linestream.AppendChatID(nil, value)
	if !hasID {
		assert.ErrorIs(t, err, linestream.ErrNoChatID, "%s: AppendChatID of %s, whose first element holds no string chatId", where, abbrev(value))
		return
	}
	require.NoError(t, err, "%s: AppendChatID of %s", where, abbrev(value))
	assert.Equal(t, want, string(got), "%s: AppendChatID of %s, against the SDK's chatId", where, abbrev(value))
}

// TestDifferentialInvalid: on every invalid stream linestream stops at the
// line the SDK rejects, with exactly the parts before it, unless the stream
// is listed in lenient, where it reads on as listed.
func TestDifferentialInvalid(t *testing.T) {
	for _, s := range loadClass(t, corpus.Invalid) {
		for _, m := range modes {
			t.Run(s.ID()+"/"+m.name, func(t *testing.T) {
				parts, err := decodeAll(s.Data, m.strict)
				if how := lenientIn(s.ID(), m); how != 0 {
					assertLenient(t, s, m, how, parts, err)
					return
				}
				var se *linestream.SyntaxError
				require.ErrorAs(t, err, &se, "%s (%s) decoded %s: the SDK rejects line %d: %s", s.ID(), s.Description, m.name, s.Err.Line, s.Err.Message)
				if !assert.Equal(t, s.Err.Line, se.Line, "%s: the line rejected (%s)\n  SDK:        %s\n  linestream: %s", s.ID(), m.name, s.Err.Message, se) {
					return
				}
				t.Logf("line %d\n  SDK:        %s\n  linestream: %s", se.Line, s.Err.Message, se)
				require.Len(t, parts, len(s.Parts), "%s: parts delivered before the bad line (%s)", s.ID(), m.name)
				comparePrefix(t, s, parts, len(s.Parts))
				if s.Err.Kind == corpus.KindShape {
					assert.ErrorIs(t, err, linestream.ErrShape, "%s: a shape error wraps ErrShape", s.ID())
					assert.Contains(t, se.Msg, strings.TrimSuffix(s.Err.Message, "."), "%s: linestream gives the SDK's shape message", s.ID())
				}
			})
		}
	}
}

// assertLenient checks the lenient reading of a stream the SDK rejects:
// the SDK's parts, then what linestream makes of the rejected line, then the
// rest of the stream without error.
func assertLenient(t *testing.T, s corpus.Stream, m mode, how leniency, parts []linestream.Part, err error) {
	t.Helper()
	require.NoError(t, err, "%s: listed as lenient (%s) in %s mode, but rejected", s.ID(), lenient[s.ID()].reasons, m.name)
	require.Greater(t, len(parts), len(s.Parts)-1, "%s: parts before the line the SDK rejects", s.ID())
	comparePrefix(t, s, parts, len(s.Parts))
	n := len(s.Parts)
	switch how {
	case skipsLoneCR:
		line := bytes.Split(s.Data, []byte("\n"))[s.Err.Line-1]
		assert.Equal(t, "\r", string(line), "%s: the line the SDK rejects holds a lone CR", s.ID())
		for _, p := range parts[n:] {
			assert.NotEqual(t, s.Err.Line, p.Line, "%s: the lone CR line is skipped, not a part", s.ID())
		}
	case rawUnknownCode:
		require.Greater(t, len(parts), n, "%s: the line with the unknown code is a part", s.ID())
		p := parts[n]
		code, ok := strings.CutPrefix(s.Err.Message, "Failed to parse stream string. Invalid code ")
		require.True(t, ok, "%s: the SDK rejects the code: %s", s.ID(), s.Err.Message)
		assert.Equal(t, s.Err.Line, p.Line, "%s: the part of the unknown code is on the line the SDK rejects", s.ID())
		assert.Equal(t, strings.TrimSuffix(code, "."), string(p.Code), "%s: the unknown code", s.ID())
		assert.Equal(t, linestream.KindUnknown, p.Kind(), "%s: the kind of code %q", s.ID(), p.Code)
	case defersShape:
		require.Greater(t, len(parts), n, "%s: the line of the wrong shape is a part", s.ID())
		p := parts[n]
		assert.Equal(t, s.Err.Line, p.Line, "%s: the part of the wrong shape is on the line the SDK rejects", s.ID())
		err := p.CheckShape()
		assert.ErrorIs(t, err, linestream.ErrShape, "%s: CheckShape of %s", s.ID(), p.Raw)
		if err != nil {
			assert.Contains(t, err.Error(), strings.TrimSuffix(s.Err.Message, "."), "%s: CheckShape gives the SDK's message", s.ID())
		}
	}
}

// TestLenientTable keeps lenient exact: each entry is an invalid corpus
// stream whose SDK error is of the kind its leniency covers.
func TestLenientTable(t *testing.T) {
	byID := map[string]corpus.Stream{}
	for _, s := range loadClass(t, corpus.Invalid) {
		byID[s.ID()] = s
	}
	wantKind := map[leniency]string{skipsLoneCR: corpus.KindSeparator, rawUnknownCode: corpus.KindCode, defersShape: corpus.KindShape}
	for id, l := range lenient {
		t.Run(id, func(t *testing.T) {
			s, ok := byID[id]
			require.True(t, ok, "%s is listed as lenient but is not an invalid corpus stream", id)
			assert.Equal(t, wantKind[l.how], s.Err.Kind, "%s: the kind of the SDK's error (%s)", id, s.Err.Message)
			assert.NotEmpty(t, l.reasons, "%s: a reason", id)
		})
	}
}

// abbrev shortens long values in messages.
func abbrev(b []byte) []byte {
	const max = 200
	if len(b) <= max {
		return b
	}
	return append(append(b[:max/2:max/2], "…"...), b[len(b)-max/2:]...)
}
