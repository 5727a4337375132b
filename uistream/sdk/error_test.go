package sdk

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func chunkErr(t *testing.T, r string, data string, o Options) *ChunkError {
	t.Helper()
	err := MustParse(r).CheckChunkWith([]byte(data), o)
	require.Error(t, err, "ai@%s rejects %s", r, data)
	var ce *ChunkError
	require.True(t, errors.As(err, &ce), "a *ChunkError")
	return ce
}

func TestChunkErrorForms(t *testing.T) {
	tests := []struct {
		name    string
		release string
		data    string
		opts    Options
		kind    ErrorKind
		typ     string
		field   string
		reason  string
		message string // a part of Error()
	}{
		{"strict extra key", "5.0.0", `{"type":"finish","finishReason":"stop"}`, Options{}, TypeValidationError, "finish", "",
			"unrecognized key finishReason",
			`ai@5.0.0: AI_TypeValidationError: Type validation failed: Value: {"type":"finish","finishReason":"stop"}. Error message: [{"code":"unrecognized_keys","path":[],"keys":["finishReason"],"message":"Unrecognized key: \"finishReason\""}]`},
		{"unknown finish reason", "6.0.0", `{"type":"finish","finishReason":"unknown"}`, Options{}, TypeValidationError, "finish", "finishReason",
			`finishReason: "unknown" is not one of stop|length|content-filter|tool-calls|error|other`,
			`"code":"invalid_value","path":["finishReason"],"values":["stop","length","content-filter","tool-calls","error","other"]`},
		{"unknown type", "6.0.326", `{"type":"custom","kind":"x.y"}`, Options{}, TypeValidationError, "custom", "",
			`unknown chunk type "custom"`, `[{"code":"invalid_union","path":[],"message":"Invalid input"}]`},
		{"wrong field type", "7.0.173", `{"type":"text-delta","id":7,"delta":"x"}`, Options{}, TypeValidationError, "text-delta", "id",
			"id: expected string, received number",
			`"branch":[{"code":"invalid_type","path":["id"],"expected":"string","message":"Invalid input: expected string, received number"}]`},
		{"missing field", "7.0.173", `{"type":"text-delta","id":"t"}`, Options{}, TypeValidationError, "text-delta", "delta",
			"delta: missing (required string)", `received undefined`},
		{"absent unknown key", "7.0.173", `{"type":"data-x"}`, Options{}, TypeValidationError, "data-x", "data",
			"data: key missing (zod 4.4+ requires it)", `"expected":"nonoptional"`},
		{"nested", "7.0.173", `{"type":"text-start","id":"t","providerMetadata":{"openai":{"n":1e400}}}`, Options{}, TypeValidationError, "text-start", "providerMetadata.openai.n",
			"providerMetadata.openai.n: matches no allowed form", `"path":["providerMetadata","openai","n"]`},
		{"not an object", "5.0.0", `[1]`, Options{}, TypeValidationError, "", "", "chunk is not a JSON object", `Value: [1].`},
		{"no type", "5.0.0", `{"id":"t"}`, Options{}, TypeValidationError, "", "", "chunk has no string type", ""},
		{"prototype key", "7.0.173", `{"type":"data-x","data":{"__proto__":{}}}`, Options{}, JSONParseError, "", "",
			"AI_JSONParseError: Object contains forbidden prototype property",
			`AI_JSONParseError: JSON parsing failed: Text: {"type":"data-x","data":{"__proto__":{}}}. Error message: Object contains forbidden prototype property`},
		{"invalid JSON", "7.0.173", `{"type":`, Options{}, JSONParseError, "", "", "AI_JSONParseError: invalid JSON at byte 8: unexpected end of JSON value", ""},
		{"zod 4.3 wraps an unknown key", "5.0.0", `{"type":"finish","finishReason":"stop"}`, Options{ZodBefore44: true}, TypeValidationError, "finish", "",
			"unrecognized key finishReason", `[{"code":"invalid_union","path":[],"message":"Invalid input","branch":[{"code":"unrecognized_keys"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ce := chunkErr(t, tt.release, tt.data, tt.opts)
			assert.Equal(t, tt.kind, ce.Kind, "kind")
			assert.Equal(t, tt.kind.String(), ce.Name())
			assert.Equal(t, tt.typ, ce.Type, "type")
			assert.Equal(t, tt.field, ce.Field(), "field")
			assert.Equal(t, tt.reason, ce.Reason(), "reason")
			assert.Contains(t, ce.Error(), tt.message, "Error()")
			assert.NotContains(t, ce.Error(), "\n", "one line")
		})
	}
}

func TestChunkErrorClipsValue(t *testing.T) {
	long := `{"type":"text-delta","id":1,"delta":"` + strings.Repeat("x", 1000) + `"}`
	ce := chunkErr(t, "7.0.173", long, Options{})
	assert.Len(t, ce.Value, 200+len("…"))
	assert.True(t, strings.HasSuffix(string(ce.Value), "…"))
}

func TestErrorKindString(t *testing.T) {
	assert.Equal(t, "AI_TypeValidationError", TypeValidationError.String())
	assert.Equal(t, "AI_JSONParseError", JSONParseError.String())
	assert.Equal(t, "ErrorKind(9)", ErrorKind(9).String())
	assert.Equal(t, "[]", string(IssuesJSON(nil)))
}

func TestCheckChunkUnknownRelease(t *testing.T) {
	err := Release{4, 3, 19}.CheckChunk([]byte(`{"type":"start"}`))
	assert.ErrorIs(t, err, ErrUnknownRelease)
}

func TestSchemaAccessors(t *testing.T) {
	s := MustParse("5.0.0").Schema()
	assert.True(t, s.Strict())
	assert.Nil(t, s.FinishReasons(), "5.0.0's finish has no finishReason")
	assert.True(t, s.Knows("reasoning-part-finish"))
	assert.True(t, s.Knows("data-anything"))
	assert.False(t, s.Knows("tool-approval-request"))
	assert.Equal(t, []string{"type", "id?", "data", "transient?"}, s.Fields("data-weather"))
	assert.Nil(t, s.Fields("custom"))
	assert.Contains(t, s.Sources(), "git ai@5.0.0 ui-message-stream/ui-message-chunks.ts")

	n := Newest().Schema()
	assert.False(t, n.Strict())
	assert.Equal(t, []string{"stop", "length", "content-filter", "tool-calls", "error", "interrupted", "other"}, n.FinishReasons())
	assert.Equal(t, "steering-message", n.Types()[21])
	assert.Equal(t, []string{"type", "toolCallId", "toolName", "inputEncoding?", "providerExecuted?", "providerMetadata?", "toolMetadata?", "dynamic?", "title?"}, n.Fields("tool-input-start"))
	assert.Equal(t, "7.0.163-7.0.173", n.Releases().String())
	assert.Same(t, MustParse("6.0.39").Schema(), MustParse("6.0.41").Schema(), "6.0.40's usage came and went: 6.0.39 and 6.0.41 share a schema")
}
