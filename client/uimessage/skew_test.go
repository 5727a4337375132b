package uimessage_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/uistream/sdk"
)

func chunkSeq(chunks ...string) func(func([]byte) bool) {
	return func(yield func([]byte) bool) {
		for _, c := range chunks {
			if !yield([]byte(c)) {
				return
			}
		}
	}
}

// TestSkewAssembly: a delta after finish-step for a text part opened before
// it throws in the assembly up to 7.0.78 (the schema takes every chunk),
// and the report says so per group; 7.0.79 on read the stream.
func TestSkewAssembly(t *testing.T) {
	stream := chunkSeq(
		`{"type":"start","messageId":"m1"}`,
		`{"type":"start-step"}`,
		`{"type":"text-start","id":"t1"}`,
		`{"type":"text-delta","id":"t1","delta":"a"}`,
		`{"type":"finish-step"}`,
		`{"type":"text-delta","id":"t1","delta":"b"}`,
	)
	releases := []sdk.Release{sdk.MustParse("5.0.0"), sdk.MustParse("6.0.0"), sdk.MustParse("6.0.326"), sdk.MustParse("7.0.78"), sdk.MustParse("7.0.79"), sdk.Newest()}
	rep, err := uimessage.Skew(stream, releases, sdk.Options{}, nil)
	require.NoError(t, err)
	assert.Equal(t, 6, rep.Events)
	assert.Equal(t, []sdk.Release{sdk.MustParse("7.0.79"), sdk.Newest()}, rep.Accepted())
	for _, v := range rep.Verdicts[:4] {
		require.NotNil(t, v.Throw, "%s throws", v.Release)
		assert.Equal(t, 6, v.Throw.Event, "%s", v.Release)
		assert.Equal(t, uimessage.SourceAssembly, v.Throw.Source, "%s", v.Release)
		assert.Equal(t, "text-delta", v.Throw.Type, "%s", v.Release)
	}
	assert.Equal(t, "TypeError: Cannot read properties of undefined (reading 'text')", rep.Verdicts[0].Throw.Reason)
	assert.Contains(t, rep.Verdicts[3].Throw.Reason, `AI_UIMessageStreamError: Received text-delta for missing text part with ID "t1"`)
	// 5.0.0, 6.0.0 share the TypeError; 6.0.326 and 7.0.78 the stream error
	assert.Len(t, rep.Groups(), 3)
}

// TestSkewSchemaFirst: where the schema throws first, the assembly's later
// throw is not reported; where the assembly throws first, it is.
func TestSkewSchemaFirst(t *testing.T) {
	stream := chunkSeq(
		`{"type":"start","messageId":"m1"}`,
		`{"type":"text-delta","id":"nope","delta":"x"}`,
		`{"type":"finish","finishReason":"stop"}`,
	)
	rep, err := uimessage.Skew(stream, sdk.DefaultReleases(), sdk.Options{}, nil)
	require.NoError(t, err)
	for _, v := range rep.Verdicts {
		require.NotNil(t, v.Throw, "%s", v.Release)
		assert.Equal(t, 2, v.Throw.Event, "%s: the delta for a part never started, before the finish", v.Release)
		assert.Equal(t, uimessage.SourceAssembly, v.Throw.Source)
	}
	// without the delta, 5.0.0 (strict) throws at the finish: the schema
	rep, err = uimessage.Skew(chunkSeq(`{"type":"start","messageId":"m1"}`, `{"type":"finish","finishReason":"stop"}`), sdk.DefaultReleases(), sdk.Options{}, nil)
	require.NoError(t, err)
	assert.Equal(t, sdk.SourceSchema, rep.Verdicts[0].Throw.Source)
	assert.False(t, slices.Contains(rep.Accepted(), sdk.MustParse("5.0.0")))
	assert.True(t, slices.Contains(rep.Accepted(), sdk.Newest()))
}

// TestSkewContinue: an output for a call the held message has reads; for
// the same stream without the held message every release throws.
func TestSkewContinue(t *testing.T) {
	held := []byte(`{"id":"m1","role":"assistant","parts":[{"type":"tool-ask","toolCallId":"c1","state":"input-available","input":{}}]}`)
	stream := chunkSeq(`{"type":"tool-output-available","toolCallId":"c1","output":"yes"}`)
	rep, err := uimessage.Skew(stream, sdk.NewestOfEach(), sdk.Options{}, held)
	require.NoError(t, err)
	assert.Equal(t, sdk.NewestOfEach(), rep.Accepted())
	rep, err = uimessage.Skew(stream, sdk.NewestOfEach(), sdk.Options{}, nil)
	require.NoError(t, err)
	assert.Empty(t, rep.Accepted())
	_, err = uimessage.Skew(stream, sdk.NewestOfEach(), sdk.Options{}, []byte(`[1]`))
	assert.ErrorIs(t, err, uimessage.ErrBadMessage)
}
