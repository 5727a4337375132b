package transcript

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReplayer(t *testing.T) {
	a0, a1, b0 := streamExchange(), streamExchange(), streamExchange()
	ts := []*Transcript{
		{Path: "a.chatlog.jsonl", Header: Header{Probe: "a"}, Exchanges: []*Exchange{a0, a1}},
		{Path: "b.chatlog.jsonl", Header: Header{Probe: "b"}, Exchanges: []*Exchange{b0}},
		{Path: "c.chatlog.jsonl", Header: Header{Probe: "c"}},
	}
	r, err := NewReplayer(ts)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b", "c"}, r.Probes())
	assert.Equal(t, []string{"a", "b"}, r.Unused(), "nothing handed out yet")

	steps := []struct {
		probe string
		want  *Exchange
	}{
		{"a", a0}, {"b", b0}, {"a", a1}, {"a", nil}, {"b", nil}, {"c", nil}, {"missing", nil},
	}
	for i, s := range steps {
		got, ok := r.Next(s.probe)
		assert.Equal(t, s.want != nil, ok, "step %d: Next(%q) found", i, s.probe)
		assert.Same(t, s.want, got, "step %d: Next(%q): the recorded attempts in order, each once", i, s.probe)
	}
	assert.Empty(t, r.Unused(), "all handed out")
	assert.Equal(t, "b.chatlog.jsonl", r.Transcript("b").Path)

	_, err = NewReplayer([]*Transcript{ts[0], {Path: "dup.chatlog.jsonl", Header: Header{Probe: "a"}}})
	assert.EqualError(t, err, `transcript: probe "a" is recorded twice: in a.chatlog.jsonl and in dup.chatlog.jsonl`)
}
