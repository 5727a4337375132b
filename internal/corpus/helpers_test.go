package corpus_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The test helpers are checked here; the corpus checks them against the
// SDK itself (accepted/invalid-utf8-in-string, accepted/number-*,
// accepted/finish-*).

func TestDecodeUTF8(t *testing.T) {
	const r = "\uFFFD"
	tests := []struct{ name, in, want string }{
		{"valid", "aé😀", "aé😀"},
		{"stray continuation", "a\x80b", "a" + r + "b"},
		{"bytes never in UTF-8", "\xff\xfe", r + r},
		{"overlong two-byte", "\xc0\xaf", r + r},
		{"overlong three-byte", "\xe0\x80\x80", r + r + r},
		{"encoded surrogate", "\xed\xa0\x80", r + r + r},
		{"truncated three-byte", "\xe2\x82", r},
		{"truncated three-byte before ASCII", "\xe2\x82x", r + "x"},
		{"truncated four-byte", "\xf0\x9f\x98", r},
		{"above U+10FFFF", "\xf4\x90\x80\x80", r + r + r + r},
		{"truncated then valid", "\xe2\x82é", r + "é"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, string(decodeUTF8([]byte(tt.in))), "decodeUTF8(%+q)", tt.in)
		})
	}
}

func TestSDKValue(t *testing.T) {
	tests := []struct {
		name, code, raw string
		want            any
	}{
		{"text", "0", `"a\u0041"`, "aA"},
		{"lone surrogate", "0", `"\ud800x"`, "\uFFFDx"},
		{"overflow is null", "2", `[1e400,-1e400,1e-400]`, []any{nil, nil, 0.0}},
		{"duplicate keys", "2", `[{"a":1,"a":{"b":2}}]`, []any{map[string]any{"a": map[string]any{"b": 2.0}}}},
		{"d rebuilt", "d", `{"finishReason":"stop","x":1,"usage":{"promptTokens":"1","completionTokens":2,"t":3}}`,
			map[string]any{"finishReason": "stop", "usage": map[string]any{"promptTokens": nil, "completionTokens": 2.0}}},
		{"d usage array dropped", "d", `{"finishReason":"stop","usage":[1,2]}`, map[string]any{"finishReason": "stop"}},
		{"e isContinued not boolean", "e", `{"finishReason":"stop","isContinued":"true"}`, map[string]any{"finishReason": "stop", "isContinued": false}},
		{"e usage incomplete", "e", `{"finishReason":"stop","isContinued":true,"usage":{"promptTokens":1}}`, map[string]any{"finishReason": "stop", "isContinued": true}},
		{"f", "f", `{"messageId":"m","id":"x"}`, map[string]any{"messageId": "m"}},
		{"i", "i", `{"data":"d","x":1}`, map[string]any{"data": "d"}},
		{"j", "j", `{"signature":"s","data":"x"}`, map[string]any{"signature": "s"}},
		{"9 kept", "9", `{"toolCallId":"c","toolName":"t","args":{},"x":1}`, map[string]any{"toolCallId": "c", "toolName": "t", "args": map[string]any{}, "x": 1.0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := sdkValue(tt.code, []byte(tt.raw))
			require.NoError(t, err, "sdkValue(%q, %s)", tt.code, tt.raw)
			assert.Empty(t, diffJS("value", tt.want, got), "sdkValue(%q, %s) = %#v", tt.code, tt.raw, got)
		})
	}
}

func TestDiffJS(t *testing.T) {
	tests := []struct {
		name      string
		want, got any
		differ    bool
	}{
		{"negative zero", 0.0, math.Copysign(0, -1), false},
		{"numbers", 1.0, 2.0, true},
		{"number and string", 1.0, "1", true},
		{"null and false", nil, false, true},
		{"missing key", map[string]any{"a": 1.0}, map[string]any{}, true},
		{"extra key", map[string]any{}, map[string]any{"a": nil}, true},
		{"array length", []any{1.0}, []any{1.0, 1.0}, true},
		{"nested equal", map[string]any{"a": []any{"x", nil}}, map[string]any{"a": []any{"x", nil}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := diffJS("v", tt.want, tt.got)
			assert.Equal(t, tt.differ, d != "", "diffJS(%#v, %#v) = %q", tt.want, tt.got, d)
		})
	}
}

func TestReplaceLoneSurrogates(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"none", `0:"a\n\u0041"`, `0:"a\n\u0041"`},
		{"lone high", `0:"\ud83d"`, "0:\"\uFFFD\""},
		{"lone low", `0:"\udc68x"`, "0:\"\uFFFDx\""},
		{"pair kept", `0:"\ud83d\ude00"`, `0:"\ud83d\ude00"`},
		{"reversed pair", `0:"\ude00\ud83d"`, "0:\"\uFFFD\uFFFD\""},
		{"escaped backslash", `0:"\\ud800"`, `0:"\\ud800"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, string(replaceLoneSurrogates([]byte(tt.in))), "replaceLoneSurrogates(%s)", tt.in)
		})
	}
}
