package uimessage_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/uistream/sdk"
)

func addAll(t *testing.T, a *uimessage.Assembler, chunks ...string) {
	t.Helper()
	for _, c := range chunks {
		require.NoError(t, a.Add([]byte(c)), "chunk %s", c)
	}
}

// TestAddBadChunk wants an error naming the chunk for input that is not a
// chunk, and the reading to go on.
func TestAddBadChunk(t *testing.T) {
	a := uimessage.NewAssembler(sdk.Newest())
	addAll(t, a, `{"type":"start","messageId":"m"}`)
	for _, bad := range []string{``, `[]`, `{"type":1}`, `{"id":"x"}`, `"text-start"`} {
		err := a.Add([]byte(bad))
		assert.ErrorIs(t, err, uimessage.ErrBadChunk, "Add(%q)", bad)
		assert.Contains(t, err.Error(), "chunk 1:", "Add(%q) names the chunk", bad)
	}
	addAll(t, a, `{"type":"text-start","id":"t"}`)
	assert.Equal(t, `{"id":"m","role":"assistant","parts":[{"type":"text","text":"","state":"streaming"}]}`, string(a.AppendJSON(nil)))
}

// TestThrowEndsReading wants the error a release throws returned by every
// later Add, the message as it was last yielded.
func TestThrowEndsReading(t *testing.T) {
	a := uimessage.NewAssembler(sdk.Newest())
	addAll(t, a, `{"type":"start","messageId":"m"}`, `{"type":"start-step"}`)
	err := a.Add([]byte(`{"type":"reasoning-delta","id":"r","delta":"x"}`))
	var ae *uimessage.AssemblyError
	require.True(t, errors.As(err, &ae), "a reasoning delta for no part throws")
	assert.Equal(t, 2, ae.Chunk)
	assert.Equal(t, "reasoning-delta", ae.Type)
	assert.Equal(t, "AI_UIMessageStreamError", ae.Name)
	assert.Equal(t, err, a.Add([]byte(`{"type":"text-start","id":"t"}`)), "the reading has ended")
	assert.Equal(t, err, a.Err())
	assert.Equal(t, `{"id":"m","role":"assistant","parts":[]}`, string(a.AppendJSON(nil)), "start-step did not write")
}

// TestResetReuses wants a reset Assembler to read a stream as a new one.
func TestResetReuses(t *testing.T) {
	chunks := []string{
		`{"type":"start","messageId":"m","messageMetadata":{"a":1}}`, `{"type":"start-step"}`,
		`{"type":"tool-input-start","toolCallId":"c","toolName":"w"}`,
		`{"type":"tool-input-delta","toolCallId":"c","inputTextDelta":"{\"q\":\"x"}`,
		`{"type":"text-start","id":"t"}`, `{"type":"text-delta","id":"t","delta":"hi"}`,
		`{"type":"data-n","id":"d","data":1}`, `{"type":"data-n","id":"d","data":2}`,
		`{"type":"finish","finishReason":"stop"}`,
	}
	a := uimessage.NewAssembler(sdk.MustParse("6"))
	addAll(t, a, chunks...)
	first := string(a.AppendJSON(nil))
	a.Reset()
	assert.Equal(t, "null", string(a.AppendJSON(nil)), "after Reset nothing is yielded")
	assert.Nil(t, a.FinishReason())
	addAll(t, a, chunks...)
	assert.Equal(t, first, string(a.AppendJSON(nil)))
	assert.Equal(t, `{"id":"m","metadata":{"a":1},"role":"assistant","parts":[{"type":"step-start"},{"type":"tool-w","toolCallId":"c","state":"input-streaming","input":{"q":"x"},"rawInput":"{\"q\":\"x"},{"type":"text","text":"hi","state":"streaming"},{"type":"data-n","id":"d","data":2}]}`, first)
}

// TestContinue checks the held message: an assistant's is extended, a
// user's lends its id only, and bad ones are refused.
func TestContinue(t *testing.T) {
	a := uimessage.NewAssembler(sdk.Newest())
	require.NoError(t, a.Continue([]byte(`{"id":"u1","role":"user","parts":[{"type":"text","text":"q"}]}`)))
	addAll(t, a, `{"type":"text-start","id":"t"}`)
	assert.Equal(t, `{"id":"u1","role":"assistant","parts":[{"type":"text","text":"","state":"streaming"}]}`, string(a.AppendJSON(nil)))

	for _, bad := range []string{`{`, `[]`, `{"role":"assistant","parts":{}}`, `{"role":"assistant","parts":[1]}`} {
		assert.ErrorIs(t, a.Continue([]byte(bad)), uimessage.ErrBadMessage, "Continue(%s)", bad)
	}
}

// TestResetStepDataParts checks that a data part dropped by reset-step is
// no longer replaced by id: the next chunk with its id makes a new part
// (ai 7.0.173's reading, taken from the real client).
func TestResetStepDataParts(t *testing.T) {
	a := uimessage.NewAssembler(sdk.MustParse("7"))
	addAll(t, a, `{"type":"start","messageId":"m"}`, `{"type":"start-step"}`, `{"type":"data-x","id":"d1","data":1}`)
	assert.Equal(t, `{"id":"m","role":"assistant","parts":[{"type":"step-start"},{"type":"data-x","id":"d1","data":1}]}`, string(a.AppendJSON(nil)))
	addAll(t, a, `{"type":"reset-step"}`)
	assert.Equal(t, `{"id":"m","role":"assistant","parts":[{"type":"step-start"}]}`, string(a.AppendJSON(nil)))
	addAll(t, a, `{"type":"data-x","id":"d1","data":2}`, `{"type":"data-x","id":"d1","data":3}`)
	assert.Equal(t, `{"id":"m","role":"assistant","parts":[{"type":"step-start"},{"type":"data-x","id":"d1","data":3}]}`, string(a.AppendJSON(nil)))
}

// TestDataPartKeyOrder wants a data part's keys in the order the release's
// schema returns them (zod: the schema's keys, then the others; integer
// keys first), whatever their order on the wire (ai 7.0.173's and 5.0.0's
// readings, taken from the real clients).
func TestDataPartKeyOrder(t *testing.T) {
	a := uimessage.NewAssembler(sdk.MustParse("7"))
	addAll(t, a, `{"data":1,"zz":2,"id":"d1","type":"data-x","3":"n","transient":false}`)
	assert.Equal(t, `{"id":"","role":"assistant","parts":[{"3":"n","type":"data-x","id":"d1","data":1,"transient":false,"zz":2}]}`, string(a.AppendJSON(nil)))
	a = uimessage.NewAssembler(sdk.MustParse("5.0.0"))
	addAll(t, a, `{"data":1,"id":"d1","type":"data-x"}`)
	assert.Equal(t, `{"id":"","role":"assistant","parts":[{"type":"data-x","id":"d1","data":1}]}`, string(a.AppendJSON(nil)))
}

// TestUnknownRelease: an Assembler of a release the tables do not know,
// the zero Release above all, fails at its first use with an error that
// names the fix, whatever it is asked; Reset does not clear it.
func TestUnknownRelease(t *testing.T) {
	for _, tt := range []struct {
		name string
		rel  sdk.Release
		want string
	}{
		{"zero", sdk.Release{}, "NewAssembler was given the zero sdk.Release"},
		{"major unknown", sdk.Release{Major: 9}, "NewAssembler was given ai@9.0.0, which the tables do not know"},
		{"patch never published", sdk.Release{Major: 5, Patch: 58}, "NewAssembler was given ai@5.0.58, which the tables do not know"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := uimessage.NewAssembler(tt.rel)
			err := a.Add([]byte(`{"type":"start","messageId":"m"}`))
			require.ErrorIs(t, err, sdk.ErrUnknownRelease, "Add with %v", tt.rel)
			assert.Contains(t, err.Error(), tt.want)
			assert.Contains(t, err.Error(), "sdk.Newest()", "the error names the fix")
			assert.Equal(t, err, a.Err(), "Err")
			assert.ErrorIs(t, a.Continue([]byte(`{"id":"m","role":"assistant","parts":[]}`)), sdk.ErrUnknownRelease, "Continue")
			a.Reset()
			assert.ErrorIs(t, a.Add([]byte(`{"type":"start-step"}`)), sdk.ErrUnknownRelease, "Add after Reset")
			assert.Equal(t, "null", string(a.AppendJSON(nil)), "nothing was yielded")
		})
	}
	assert.NoError(t, uimessage.NewAssembler(sdk.Newest()).Err(), "a known release")
}

// TestTerminateOnError: with WithTerminateOnError an error chunk ends the
// reading as useChat's does, the message as last yielded; without it the
// reading goes on, as readUIMessageStream's by default.
func TestTerminateOnError(t *testing.T) {
	head := []string{`{"type":"start","messageId":"m"}`, `{"type":"text-start","id":"t"}`, `{"type":"text-delta","id":"t","delta":"Hi"}`}
	const errorChunk = `{"type":"error","errorText":"rate limited \u2014 try later"}`
	const hi = `{"id":"m","role":"assistant","parts":[{"type":"text","text":"Hi","state":"streaming"}]}`

	var reported []string
	stop := uimessage.NewAssembler(sdk.Newest(), uimessage.WithTerminateOnError(), uimessage.WithOnError(func(s string) { reported = append(reported, s) }))
	addAll(t, stop, head...)
	err := stop.Add([]byte(errorChunk))
	var ae *uimessage.AssemblyError
	require.True(t, errors.As(err, &ae), "the error chunk ends the reading: %v", err)
	assert.Equal(t, uimessage.AssemblyError{Chunk: 3, Type: "error", Name: "Error", Message: "rate limited — try later"}, *ae)
	assert.Equal(t, err, stop.Add([]byte(`{"type":"text-delta","id":"t","delta":"!"}`)), "nothing is read after it")
	assert.Equal(t, hi, string(stop.AppendJSON(nil)))
	assert.Empty(t, reported, "the error is returned, not reported")

	on := uimessage.NewAssembler(sdk.Newest(), uimessage.WithOnError(func(s string) { reported = append(reported, s) }))
	addAll(t, on, head...)
	addAll(t, on, errorChunk, `{"type":"text-delta","id":"t","delta":"!"}`)
	assert.Equal(t, []string{"rate limited — try later"}, reported)
	assert.Contains(t, string(on.AppendJSON(nil)), `"text":"Hi!"`, "the reading goes on")
}
