package jsvalue_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/corpus"
	"github.com/chatwire/chatwire/internal/jsvalue"
)

// TestCorpusPartialJSON holds ParsePartialJSON to the SDK's parsePartialJson:
// its state and value for each text of corpus/streams/partial-json.jsonl,
// which the real SDK read.
func TestCorpusPartialJSON(t *testing.T) {
	cases, err := corpus.PartialJSONCases(os.DirFS("../../corpus"))
	require.NoError(t, err)
	require.NotEmpty(t, cases)
	for _, c := range cases {
		got, state := jsvalue.ParsePartialJSON([]byte(c.Text))
		assert.Equal(t, c.State, state.String(), "parsePartialJson(%q): state", c.Text)
		assert.Equal(t, string(c.Value), string(got), "parsePartialJson(%q): value", c.Text)
	}
}
