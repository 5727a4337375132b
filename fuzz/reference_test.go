package fuzz

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/corpus"
	"github.com/chatwire/chatwire/linestream"
)

// The reference is only worth agreeing with if it reads as the SDK does:
// this holds it to the corpus, in strict mode, where its only departure is
// linestream's documented lone-CR leniency.
var referenceLoneCR = map[string]bool{
	"invalid/blank-crlf-line":         true,
	"invalid/trailing-lone-cr-at-eof": true,
}

func TestReferenceAgainstSDK(t *testing.T) {
	for _, s := range corpusStreams(t) {
		t.Run(s.ID(), func(t *testing.T) {
			got, err := Reference(s.Data, true, linestream.DefaultMaxLineLength)
			require.NoError(t, err, "Reference(%s)", s.ID())
			n := len(s.Parts)
			if referenceLoneCR[s.ID()] {
				assert.Zero(t, got.ErrLine, "%s: the reference skips the lone CR line the SDK rejects", s.ID())
				require.GreaterOrEqual(t, len(got.Parts), n, "%s: parts", s.ID())
			} else {
				wantLine := 0
				if s.Err != nil {
					wantLine = s.Err.Line
				}
				assert.Equal(t, wantLine, got.ErrLine, "%s: the line rejected (SDK: %v; reference: %s %s)", s.ID(), s.Err, got.ErrKind, got.ErrMsg)
				if s.Err != nil && s.Err.Kind == corpus.KindShape {
					assert.Equal(t, ErrKindShape, got.ErrKind, "%s: the kind of error", s.ID())
				}
				require.Len(t, got.Parts, n, "%s: parts", s.ID())
			}
			for i, want := range s.Parts {
				assert.Equal(t, want.Line, got.Parts[i].Line, "%s part %d: line", s.ID(), i+1)
				assert.Equal(t, want.Code, got.Parts[i].Code, "%s part %d: code", s.ID(), i+1)
			}
		})
	}
}

func TestDecodeUTF8(t *testing.T) {
	const r = "\uFFFD"
	tests := []struct{ name, in, want string }{
		{"valid", "aé😀", "aé😀"},
		{"stray continuation", "a\x80b", "a" + r + "b"},
		{"bytes never in UTF-8", "\xff\xfe", r + r},
		{"overlong two-byte", "\xc0\xaf", r + r},
		{"overlong three-byte", "\xe0\x80\x80", r + r + r},
		{"encoded surrogate", "\xed\xa0\x80", r + r + r},
		{"truncated three-byte", "\xe2\x82", r},
		{"truncated three-byte before ASCII", "\xe2\x82x", r + "x"},
		{"truncated four-byte", "\xf0\x9f\x98", r},
		{"above U+10FFFF", "\xf4\x90\x80\x80", r + r + r + r},
		{"truncated then valid", "\xe2\x82é", r + "é"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := DecodeUTF8([]byte(tt.in))
			assert.Equal(t, tt.want, string(got), "DecodeUTF8(%+q)", tt.in)
			assert.True(t, utf8.Valid(got), "DecodeUTF8(%+q) is valid UTF-8", tt.in)
		})
	}
}

func TestReference(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		strict  bool
		maxLine int
		parts   int
		errLine int
		errKind string
	}{
		{name: "empty", in: ""},
		{name: "bom and crlf", in: "\xEF\xBB\xBF0:\"a\"\r\n\r\n0:\"b\"", parts: 2},
		{name: "whitespace around", in: "0: \t\"a\"\r\r\n", parts: 1},
		{name: "no colon", in: "0:\"a\"\nxyz\n", parts: 1, errLine: 2, errKind: ErrKindSyntax},
		{name: "bad code byte", in: " 0:\"a\"", errLine: 1, errKind: ErrKindSyntax},
		{name: "unknown code default", in: "aui-state:{}\n", parts: 1},
		{name: "unknown code strict", in: "aui-state:{}\n", strict: true, errLine: 1, errKind: ErrKindUnknown},
		{name: "shape default", in: "0:1\n", parts: 1},
		{name: "shape strict", in: "0:\"a\"\n9:{\"toolCallId\":\"c\",\"toolName\":\"t\",\"args\":\"x\"}\n", strict: true, parts: 1, errLine: 2, errKind: ErrKindShape},
		{name: "args null", in: "9:{\"toolCallId\":\"c\",\"toolName\":\"t\",\"args\":null}\n", strict: true, parts: 1},
		{name: "duplicate key last counts", in: "f:{\"messageId\":1,\"messageId\":\"m\"}\n", strict: true, parts: 1},
		{name: "number beyond float64", in: "d:{\"finishReason\":\"stop\",\"x\":1e400}\n", strict: true, parts: 1},
		{name: "invalid UTF-8 in a string", in: "0:\"\xff\"\n", strict: true, parts: 1},
		{name: "invalid UTF-8 after the value", in: "0:\"a\"\xff\n", errLine: 1, errKind: ErrKindSyntax},
		{name: "too long", in: "0:\"a\"\n0:\"bcdef\"\n", maxLine: 6, parts: 1, errLine: 2, errKind: ErrKindTooLong},
		{name: "too long blank", in: "\n      \n", maxLine: 5, errLine: 2, errKind: ErrKindTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			maxLine := tt.maxLine
			if maxLine == 0 {
				maxLine = 1 << 20
			}
			got, err := Reference([]byte(tt.in), tt.strict, maxLine)
			require.NoError(t, err, "Reference(%+q)", tt.in)
			assert.Len(t, got.Parts, tt.parts, "parts of %+q", tt.in)
			assert.Equal(t, tt.errLine, got.ErrLine, "error line of %+q (%s)", tt.in, got.ErrMsg)
			assert.Equal(t, tt.errKind, got.ErrKind, "error kind of %+q (%s)", tt.in, got.ErrMsg)
		})
	}
}

func TestReferenceTooDeep(t *testing.T) {
	deep := make([]byte, 0, 2*maxJSONDepth+10)
	deep = append(deep, "2:"...)
	for range maxJSONDepth + 1 {
		deep = append(deep, '[')
	}
	for range maxJSONDepth + 1 {
		deep = append(deep, ']')
	}
	_, err := Reference(deep, false, 1<<20)
	assert.ErrorIs(t, err, ErrTooDeep, "a value nested %d deep", maxJSONDepth+1)

	// linestream has no such limit.
	got := decodeAll(nil, deep, true, 0)
	assert.NoError(t, got.err, "linestream reads a value nested %d deep", maxJSONDepth+1)
	assert.Len(t, got.parts, 1, "linestream reads a value nested %d deep", maxJSONDepth+1)
}
