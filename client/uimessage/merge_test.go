package uimessage

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/chatwire/chatwire/internal/jsvalue"
)

// TestMergeObjects checks mergeObjects against what the SDK's
// util/merge-objects.ts makes of the same values (read from its source and
// its tests), after JSON.stringify's key order.
func TestMergeObjects(t *testing.T) {
	cases := []struct{ name, base, over, want string }{
		{"deep", `{"a":{"x":1,"y":[1]},"b":2}`, `{"a":{"y":[2],"z":3},"c":4}`, `{"a":{"x":1,"y":[2],"z":3},"b":2,"c":4}`},
		{"object replaces primitive", `{"a":1}`, `{"a":{"x":1}}`, `{"a":{"x":1}}`},
		{"primitive replaces object", `{"a":{"x":1}}`, `{"a":null}`, `{"a":null}`},
		{"arrays replaced", `{"a":[1,2,3]}`, `{"a":[4]}`, `{"a":[4]}`},
		{"polluting keys skipped", `{"a":1}`, `{"__proto__":{"x":1},"constructor":2,"prototype":3,"b":4}`, `{"a":1,"b":4}`},
		{"integer keys first", `{"b":1}`, `{"2":"x","a":2,"1":"y"}`, `{"1":"y","2":"x","b":1,"a":2}`},
		{"string spread", `{"a":1}`, `"hi"`, `{"0":"h","1":"i","a":1}`},
		{"array spread", `{"a":1}`, `[true,null]`, `{"0":true,"1":null,"a":1}`},
		{"number adds nothing", `{"a":1}`, `5`, `{"a":1}`},
	}
	var w jsvalue.Writer
	got, err := w.AppendValue(nil, mergeObjects(nil, []byte(`{"k":0}`), []byte(`{"constructor":2,"prototype":{"y":1},"k":1}`), false))
	assert.NoError(t, err)
	assert.Equal(t, `{"k":1,"constructor":2,"prototype":{"y":1}}`, string(got), "before 5.0.181 the keys are merged (ai 5.0.0's reading)")
	for _, c := range cases {
		got, err := w.AppendValue(nil, mergeObjects(nil, []byte(c.base), []byte(c.over), true))
		assert.NoError(t, err, c.name)
		assert.Equal(t, c.want, string(got), "%s: mergeObjects(%s, %s)", c.name, c.base, c.over)
	}
}
