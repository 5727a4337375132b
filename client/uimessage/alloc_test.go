package uimessage_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// TestAllocsTextDelta wants no allocation for a text or reasoning delta in
// steady state, nor for writing the message into a buffer that has room,
// in every major.
func TestAllocsTextDelta(t *testing.T) {
	for _, rel := range []sdk.Release{sdk.MustParse("5"), sdk.MustParse("6"), sdk.MustParse("7")} {
		a := uimessage.NewAssembler(rel)
		for _, c := range []string{
			`{"type":"start","messageId":"m1"}`, `{"type":"start-step"}`,
			`{"type":"reasoning-start","id":"r1"}`, `{"type":"text-start","id":"t1"}`,
		} {
			require.NoError(t, a.Add([]byte(c)))
		}
		text := []byte(`{"type":"text-delta","id":"t1","delta":"Hello, wörld \ud83d\ude00 "}`)
		reasoning := []byte(`{"type":"reasoning-delta","id":"r1","delta":"think"}`)
		for range 100 {
			require.NoError(t, a.Add(text))
			require.NoError(t, a.Add(reasoning))
		}
		assert.Zero(t, testing.AllocsPerRun(1000, func() {
			if err := a.Add(text); err != nil {
				t.Fatal(err)
			}
		}), "text-delta allocates (%s)", rel)
		assert.Zero(t, testing.AllocsPerRun(1000, func() {
			if err := a.Add(reasoning); err != nil {
				t.Fatal(err)
			}
		}), "reasoning-delta allocates (%s)", rel)
		buf := a.AppendJSON(make([]byte, 0, 1<<20))
		assert.Zero(t, testing.AllocsPerRun(100, func() { buf = a.AppendJSON(buf[:0]) }), "AppendJSON allocates (%s)", rel)
	}
}

// BenchmarkAddTextDelta times one text-delta chunk in steady state (the
// part's text grows by each).
func BenchmarkAddTextDelta(b *testing.B) {
	a := uimessage.NewAssembler(sdk.Newest())
	for _, c := range []string{`{"type":"start","messageId":"m1"}`, `{"type":"start-step"}`, `{"type":"text-start","id":"t1"}`} {
		if err := a.Add([]byte(c)); err != nil {
			b.Fatal(err)
		}
	}
	chunk := []byte(`{"type":"text-delta","id":"t1","delta":"Hello, world. "}`)
	b.ReportAllocs()
	b.SetBytes(int64(len(chunk)))
	for b.Loop() {
		if err := a.Add(chunk); err != nil {
			b.Fatal(err)
		}
	}
	if m, ok := a.Message(); !ok || m.Part(1).Text() == "" {
		b.Fatal("no text")
	}
}
