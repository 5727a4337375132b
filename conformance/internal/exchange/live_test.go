package exchange

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewLiveBaseURL(t *testing.T) {
	for _, u := range []string{"", "api.example.com", "ftp://x", "https://x/?a=1", "https://x/#f", "http://"} {
		_, err := NewLive(LiveOptions{BaseURL: u})
		assert.Error(t, err, "NewLive(%q)", u)
	}
	l, err := NewLive(LiveOptions{BaseURL: "https://api.example.com/v/"})
	require.NoError(t, err, "NewLive with a path")
	assert.Equal(t, "https://api.example.com/v", l.base, "trailing slash dropped")
}
