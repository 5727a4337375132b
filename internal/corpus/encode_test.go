package corpus_test

// The encoder round trip: every part of every valid stream (all written by
// the SDK's formatDataStreamPart, through its own writers) is decoded, then
// re-encoded from its decoded fields with linestream's Append…Part function
// for its kind, and must come out byte for byte as the SDK wrote it:
// JSON.stringify's escaping and the SDK writers' key order.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/corpus"
	"github.com/chatwire/chatwire/linestream"
)

// loneSurrogateStreams lists the valid streams whose SDK lines hold a lone
// surrogate escape such as "\ud800". JSON.stringify writes a JavaScript
// string's lone surrogate that way; a Go string cannot hold one (the
// decoder's text is U+FFFD), so for these lines the encoder is held to the
// SDK's bytes with each lone surrogate escape in such a string replaced by a
// raw U+FFFD. Raw JSON arguments (data, args, result) keep them as they are.
var loneSurrogateStreams = map[string]string{
	"valid/unicode-lone-surrogates":                        "lone surrogates written by formatDataStreamPart",
	"valid/unicode-surrogate-pair-split-across-text-parts": "streamText splits a surrogate pair across two text deltas",
	"valid/unicode-mixed-agent-run":                        "argsTextDelta chunks cut by UTF-16 code units split emoji",
	"valid/llm-mix-100k-lines":                             "argsTextDelta chunks cut by UTF-16 code units split emoji",
}

// untypedStreams lists the valid streams whose values carry what the typed
// Append…Part functions do not take, with the reason.
var untypedStreams = map[string]string{
	"valid/assembly-tool-call-object-order": "tool_call and tool_result values with extra keys, for the message assembly; the typed encoders write only the SDK writers' keys",
}

func TestEncoderRoundTrip(t *testing.T) {
	changed := map[string]bool{}
	for _, s := range loadClass(t, corpus.Valid) {
		t.Run(s.ID(), func(t *testing.T) {
			if why, ok := untypedStreams[s.ID()]; ok {
				t.Skip(why)
			}
			parts, err := decodeAll(s.Data, true)
			require.NoError(t, err, "%s decodes in strict mode", s.ID())
			var got []byte
			failures := 0
			for _, p := range parts {
				got, err = encodePart(got[:0], p)
				if !assert.NoError(t, err, "%s line %d: the decoded fields of %s", s.ID(), p.Line, abbrev(p.Raw)) {
					failures++
					continue
				}
				want := append(p.Raw[:len(p.Raw):len(p.Raw)], '\n')
				if !bytes.Equal(got, want) && bytes.Equal(got, replaceLoneSurrogates(want)) {
					// A lone surrogate in a string the encoder takes as a Go string.
					changed[s.ID()] = true
					continue
				}
				if !bytes.Equal(got, want) {
					failures++
					t.Errorf("%s line %d: the encoder writes the SDK's line differently (%s)\n  want (SDK): %+q\n  got:        %+q", s.ID(), p.Line, linestream.KindOf(p.Code), abbrev(want), abbrev(got))
				}
				if failures >= 5 {
					t.Fatalf("%s: stopping after %d differences", s.ID(), failures)
				}
			}
		})
	}
	for id := range loneSurrogateStreams {
		assert.True(t, changed[id], "%s is listed in loneSurrogateStreams but the encoder wrote all its lines as the SDK did", id)
	}
	for id := range changed {
		_, listed := loneSurrogateStreams[id]
		assert.True(t, listed, "%s: the encoder wrote a lone surrogate escape as U+FFFD: list the stream in loneSurrogateStreams if the SDK's string holds one", id)
	}
}

// encodePart appends p, re-encoded from its decoded fields with the
// Append…Part function of its kind.
func encodePart(dst []byte, p linestream.Part) ([]byte, error) {
	switch k := p.Kind(); k {
	case linestream.KindText, linestream.KindError, linestream.KindReasoning:
		text, err := p.AppendText(nil)
		if err != nil {
			return dst, err
		}
		switch k {
		case linestream.KindText:
			return linestream.AppendTextPart(dst, string(text)), nil
		case linestream.KindError:
			return linestream.AppendErrorPart(dst, string(text)), nil
		}
		return linestream.AppendReasoningPart(dst, string(text)), nil
	case linestream.KindData, linestream.KindMessageAnnotations:
		var elems []json.RawMessage
		if err := json.Unmarshal(p.Value, &elems); err != nil {
			return dst, err
		}
		values := make([][]byte, len(elems))
		for i, e := range elems {
			values[i] = e
		}
		if k == linestream.KindMessageAnnotations {
			return linestream.AppendMessageAnnotationsPart(dst, values...), nil
		}
		// The spec's first line has its own function.
		if len(elems) == 1 {
			if f, err := fields(elems[0]); err == nil && len(f) == 1 && f["chatId"] != nil {
				id, err := linestream.AppendChatID(nil, p.Value)
				if err != nil {
					return dst, err
				}
				return linestream.AppendChatIDPart(dst, string(id)), nil
			}
		}
		return linestream.AppendDataPart(dst, values...), nil
	}
	f, err := fields(p.Value)
	if err != nil {
		return dst, err
	}
	str := func(key string) string { return f.str(key, &err) }
	switch p.Kind() {
	case linestream.KindToolCall:
		dst = linestream.AppendToolCallPart(dst, str("toolCallId"), str("toolName"), f["args"])
	case linestream.KindToolResult:
		dst = linestream.AppendToolResultPart(dst, str("toolCallId"), f["result"])
	case linestream.KindToolCallStreamingStart:
		dst = linestream.AppendToolCallStreamingStartPart(dst, str("toolCallId"), str("toolName"))
	case linestream.KindToolCallDelta:
		dst = linestream.AppendToolCallDeltaPart(dst, str("toolCallId"), str("argsTextDelta"))
	case linestream.KindFinishMessage:
		dst = linestream.AppendFinishMessagePart(dst, str("finishReason"), f.usage(&err))
	case linestream.KindFinishStep:
		var cont bool
		if err == nil {
			err = json.Unmarshal(f["isContinued"], &cont)
		}
		dst = linestream.AppendFinishStepPart(dst, str("finishReason"), f.usage(&err), cont)
	case linestream.KindStartStep:
		dst = linestream.AppendStartStepPart(dst, str("messageId"))
	case linestream.KindSource:
		if st := str("sourceType"); st != "url" && err == nil {
			err = fmt.Errorf("sourceType %q: AppendSourcePart writes url sources only", st)
		}
		src := &linestream.Source{ID: str("id"), URL: str("url"), ProviderMetadata: f["providerMetadata"]}
		if f["title"] != nil {
			src.Title = str("title")
		}
		dst = linestream.AppendSourcePart(dst, src)
	case linestream.KindRedactedReasoning:
		dst = linestream.AppendRedactedReasoningPart(dst, str("data"))
	case linestream.KindReasoningSignature:
		dst = linestream.AppendReasoningSignaturePart(dst, str("signature"))
	case linestream.KindFile:
		dst = linestream.AppendFilePart(dst, str("mimeType"), str("data"))
	default:
		return dst, fmt.Errorf("code %q has no Append…Part function", p.Code)
	}
	return dst, err
}

// objectFields are the members of a JSON object, raw (of duplicate keys the
// last, as JSON.parse keeps).
type objectFields map[string]json.RawMessage

func fields(v []byte) (objectFields, error) {
	var f objectFields
	if err := json.Unmarshal(v, &f); err != nil {
		return nil, err
	}
	if f == nil {
		return nil, fmt.Errorf("%s is not an object", abbrev(v))
	}
	return f, nil
}

// str returns the text of a string member as linestream decodes it,
// recording the first error in *err.
func (f objectFields) str(key string, err *error) string {
	raw, ok := f[key]
	if !ok {
		if *err == nil {
			*err = fmt.Errorf("no %q member", key)
		}
		return ""
	}
	text, e := linestream.AppendString(nil, raw)
	if e != nil && *err == nil {
		*err = fmt.Errorf("member %q: %w", key, e)
	}
	return string(text)
}

// usage returns the usage member as linestream.Usage, nil when absent.
func (f objectFields) usage(err *error) *linestream.Usage {
	raw, ok := f["usage"]
	if !ok {
		return nil
	}
	var u struct{ PromptTokens, CompletionTokens json.Number }
	if e := json.Unmarshal(raw, &u); e != nil {
		if *err == nil {
			*err = fmt.Errorf("usage %s: %w", raw, e)
		}
		return nil
	}
	pt, e1 := strconv.ParseInt(string(u.PromptTokens), 10, 64)
	ct, e2 := strconv.ParseInt(string(u.CompletionTokens), 10, 64)
	if (e1 != nil || e2 != nil) && *err == nil {
		*err = fmt.Errorf("usage %s: token counts linestream.Usage cannot hold (int64)", raw)
	}
	return &linestream.Usage{PromptTokens: pt, CompletionTokens: ct}
}

// replaceLoneSurrogates returns line with every \uXXXX escape of a lone
// surrogate replaced by a raw U+FFFD, the text a Go string holds for it.
func replaceLoneSurrogates(line []byte) []byte {
	out := make([]byte, 0, len(line))
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '\\' || i+1 >= len(line) {
			out = append(out, c)
			continue
		}
		if line[i+1] != 'u' || i+6 > len(line) {
			out = append(out, line[i:i+2]...)
			i++
			continue
		}
		r := hex4(line[i+2 : i+6])
		if !utf16.IsSurrogate(r) {
			out = append(out, line[i:i+6]...)
			i += 5
			continue
		}
		if r < 0xdc00 && i+12 <= len(line) && line[i+6] == '\\' && line[i+7] == 'u' {
			if r2 := hex4(line[i+8 : i+12]); 0xdc00 <= r2 && r2 < 0xe000 {
				out = append(out, line[i:i+12]...)
				i += 11
				continue
			}
		}
		out = append(out, "\uFFFD"...)
		i += 5
	}
	return out
}

func hex4(b []byte) rune {
	n, err := strconv.ParseUint(string(b), 16, 32)
	if err != nil {
		return -1
	}
	return rune(n)
}
