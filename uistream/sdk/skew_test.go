package sdk

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func chunks(lines ...string) [][]byte {
	out := make([][]byte, len(lines))
	for i, l := range lines {
		out[i] = []byte(l)
	}
	return out
}

// v6Stream is what a v6 or v7 server writes for a plain text answer.
var v6Stream = chunks(
	`{"type":"start","messageId":"msg_1"}`,
	`{"type":"start-step"}`,
	`{"type":"text-start","id":"t1"}`,
	`{"type":"text-delta","id":"t1","delta":"Hello"}`,
	`{"type":"text-end","id":"t1"}`,
	`{"type":"finish-step"}`,
	`{"type":"finish","finishReason":"stop"}`,
)

func TestSkewEveryRelease(t *testing.T) {
	rep := Skew(slices.Values(v6Stream), nil, Options{})
	assert.Equal(t, 7, rep.Events)
	assert.Len(t, rep.Verdicts, len(All()))
	want := "7 chunks\n" +
		"5.0.0–5.0.91 throw at event 7 (finish): unrecognized key finishReason\n" +
		"5.0.92–7.0.173 read the stream\n"
	assert.Equal(t, want, rep.String(), "the v6 server's finish chunk (vercel/ai#11269)")
	gs := rep.Groups()
	require.Len(t, gs, 2)
	var ce *ChunkError
	require.True(t, errors.As(gs[0].Throw.Err, &ce), "a schema throw carries the ChunkError")
	assert.Equal(t, Release{5, 0, 0}, ce.Release, "the error names its release")
	assert.Equal(t, SourceSchema, gs[0].Throw.Source)
	assert.Equal(t, "finish", gs[0].Throw.Type)
	assert.Equal(t, "", gs[0].Throw.Field, "unrecognized keys are the chunk's")
	assert.Contains(t, rep.Accepted(), Newest())
}

func TestSkewNewerChunks(t *testing.T) {
	stream := append(slices.Clone(v6Stream[:6]),
		[]byte(`{"type":"custom","kind":"openai.compaction"}`),
		[]byte(`{"type":"finish","finishReason":"interrupted"}`),
		[]byte(`{"type":"text-delta","id":"t1","delta":"after the end"}`),
	)
	rep := Skew(slices.Values(stream), DefaultReleases(), Options{})
	want := "9 chunks\n" +
		"5.0.0, 5.0.277, 6.0.0, 6.0.326 throw at event 7 (custom): unknown chunk type \"custom\"\n" +
		"7.0.0 throw at event 8 (finish): finishReason: \"interrupted\" is not one of stop|length|content-filter|tool-calls|error|other\n" +
		"7.0.173 read the stream\n"
	assert.Equal(t, want, rep.String())
}

func TestSkewInvalidJSON(t *testing.T) {
	stream := chunks(`{"type":"start"}`, `{"type":`, `{"type":"start-step"}`)
	rep := Skew(slices.Values(stream), []Release{Newest(), {5, 0, 0}}, Options{})
	require.Len(t, rep.Verdicts, 2)
	assert.Equal(t, Release{5, 0, 0}, rep.Verdicts[0].Release, "verdicts oldest first")
	for _, v := range rep.Verdicts {
		require.NotNil(t, v.Throw, "%s throws", v.Release)
		assert.Equal(t, 2, v.Throw.Event)
		assert.Contains(t, v.Throw.Reason, "AI_JSONParseError")
	}
	assert.Equal(t, 3, rep.Events, "every chunk is counted")
}

func TestSkewZodBefore44(t *testing.T) {
	stream := chunks(`{"type":"tool-output-available","toolCallId":"c1"}`)
	current := Skew(slices.Values(stream), []Release{Newest()}, Options{})
	require.NotNil(t, current.Verdicts[0].Throw, "zod 4.4+ rejects the absent output")
	assert.Equal(t, "output: key missing (zod 4.4+ requires it)", current.Verdicts[0].Throw.Reason)
	old := Skew(slices.Values(stream), []Release{Newest()}, Options{ZodBefore44: true})
	assert.Nil(t, old.Verdicts[0].Throw, "zod before 4.4 accepts it")
}

func TestReportAdd(t *testing.T) {
	rep := Skew(slices.Values(v6Stream), DefaultReleases(), Options{})
	// an assembly throw after the schema throw of 5.0.0 does not replace it
	rep.Add(Release{5, 0, 0}, Throw{Event: 9, Source: "assembly", Reason: "later"})
	assert.Equal(t, 7, rep.Verdicts[0].Throw.Event)
	// an earlier one does
	rep.Add(Release{5, 0, 0}, Throw{Event: 3, Source: "assembly", Reason: "text part missing"})
	assert.Equal(t, "assembly", rep.Verdicts[0].Throw.Source)
	// at the same event the schema's stays
	rep.Add(Release{7, 0, 173}, Throw{Event: 5, Source: "assembly", Reason: "x"})
	rep.Add(Release{7, 0, 173}, Throw{Event: 5, Source: "assembly", Reason: "y"})
	assert.Equal(t, "x", rep.Verdicts[len(rep.Verdicts)-1].Throw.Reason)
	// a release not in the report joins it in order
	rep.Add(Release{6, 0, 100}, Throw{Event: 2, Source: "assembly", Reason: "z"})
	var order []string
	for _, v := range rep.Verdicts {
		order = append(order, v.Release.String())
	}
	assert.Equal(t, "5.0.0 5.0.277 6.0.0 6.0.100 6.0.326 7.0.0 7.0.173", strings.Join(order, " "))
	assert.Contains(t, rep.String(), "6.0.100 throw at event 2: z")
}

func TestSkewUnknownRelease(t *testing.T) {
	rep := Skew(slices.Values(v6Stream), []Release{{8, 0, 0}}, Options{})
	require.NotNil(t, rep.Verdicts[0].Throw)
	assert.ErrorIs(t, rep.Verdicts[0].Throw.Err, ErrUnknownRelease)
}
