package jsonscan

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSkipValue skips each kind of valid value inside an object, whatever
// its strings hold, and stops a scalar at the delimiter after it.
func TestSkipValue(t *testing.T) {
	for _, c := range []struct{ in, value string }{
		{`"a\"}]," , 1`, `"a\"}],"`},
		{`{"k":[1,{"x":"}"}],"e":"\\"} ,`, `{"k":[1,{"x":"}"}],"e":"\\"}`},
		{`[[],[[]],"]"]}`, `[[],[[]],"]"]`},
		{`-12.5e3,`, `-12.5e3`},
		{`true}`, `true`},
		{`null ]`, `null`},
		{`0`, `0`},
	} {
		assert.Equal(t, len(c.value), SkipValue([]byte(c.in), 0), "%s", c.in)
		b := []byte(`{"v": ` + c.in)
		assert.Equal(t, 6+len(c.value), SkipValue(b, 6), "%s after a key", c.in)
	}
}
