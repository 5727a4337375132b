package sdk_test

import (
	"errors"
	"fmt"
	"slices"

	"github.com/chatwire/chatwire/uistream/sdk"
)

func ExampleParse() {
	for _, s := range []string{"6.0.0", "6", "ai@7.0.70", "5.0.67"} {
		r, err := sdk.Parse(s)
		fmt.Println(r, err)
	}
	// Output:
	// 6.0.0 <nil>
	// 6.0.326 <nil>
	// 7.0.70 <nil>
	// 0.0.0 sdk: release "5.0.67": unknown release: npm never published ai@5.0.67
}

func ExampleRelease_CheckChunk() {
	chunk := []byte(`{"type":"finish","finishReason":"stop"}`)
	for _, r := range []sdk.Release{sdk.MustParse("5.0.0"), sdk.MustParse("5.0.92")} {
		err := r.CheckChunk(chunk)
		var ce *sdk.ChunkError
		if errors.As(err, &ce) {
			fmt.Printf("%s: %s: %s\n", r, ce.Name(), ce.Reason())
			continue
		}
		fmt.Printf("%s: takes it\n", r)
	}
	fmt.Println(sdk.MustParse("5.0.0").CheckChunk(chunk))
	// Output:
	// 5.0.0: AI_TypeValidationError: unrecognized key finishReason
	// 5.0.92: takes it
	// ai@5.0.0: AI_TypeValidationError: Type validation failed: Value: {"type":"finish","finishReason":"stop"}. Error message: [{"code":"unrecognized_keys","path":[],"keys":["finishReason"],"message":"Unrecognized key: \"finishReason\""}]
}

func ExampleRelease_CheckChunkWith() {
	chunk := []byte(`{"type":"tool-output-available","toolCallId":"call_1"}`)
	r := sdk.Newest()
	fmt.Println(r.CheckChunkWith(chunk, sdk.Options{}) == nil)
	fmt.Println(r.CheckChunkWith(chunk, sdk.Options{ZodBefore44: true}) == nil)
	// Output:
	// false
	// true
}

func ExampleSkew() {
	stream := [][]byte{
		[]byte(`{"type":"start"}`),
		[]byte(`{"type":"text-start","id":"t1"}`),
		[]byte(`{"type":"text-end","id":"t1","citations":[]}`),
		[]byte(`{"type":"finish","finishReason":"stop"}`),
	}
	fmt.Print(sdk.Skew(slices.Values(stream), nil, sdk.Options{}))
	// Output:
	// 4 chunks
	// 5.0.0–5.0.216 throw at event 3 (text-end): unrecognized key citations
	// 5.0.217–5.0.277 read the stream
	// 6.0.0–6.0.230 throw at event 3 (text-end): unrecognized key citations
	// 6.0.231–6.0.326 read the stream
	// 7.0.0–7.0.31 throw at event 3 (text-end): unrecognized key citations
	// 7.0.32–7.0.173 read the stream
}

func ExampleReport_Add() {
	stream := [][]byte{[]byte(`{"type":"text-delta","id":"t1","delta":"hi"}`)}
	rep := sdk.Skew(slices.Values(stream), []sdk.Release{sdk.MustParse("5.0.277"), sdk.MustParse("6.0.326")}, sdk.Options{})
	// the assembly finds what the schema cannot: a delta for a text part never started
	rep.Add(sdk.MustParse("5.0.277"), sdk.Throw{Event: 1, Source: "assembly", Type: "text-delta", Reason: "TypeError: Cannot read properties of undefined (reading 'text')"})
	rep.Add(sdk.MustParse("6.0.326"), sdk.Throw{Event: 1, Source: "assembly", Type: "text-delta", Reason: `AI_UIMessageStreamError: Received text-delta for missing text part with ID "t1"`})
	fmt.Print(rep)
	// Output:
	// 1 chunk
	// 5.0.277 throw at event 1 (text-delta): TypeError: Cannot read properties of undefined (reading 'text')
	// 6.0.326 throw at event 1 (text-delta): AI_UIMessageStreamError: Received text-delta for missing text part with ID "t1"
}

func ExampleRelease_Has() {
	for _, s := range []string{"6.0.207", "6.0.208", "7.0.69", "7.0.70"} {
		r := sdk.MustParse(s)
		fmt.Println(r, r.Has(sdk.FeaturePartialJSONUnicodeEscape), r.Has(sdk.FeatureResetStep))
	}
	fmt.Println(sdk.FeatureResetStep.Releases(), "|", sdk.FeatureResetStep.Source())
	// Output:
	// 6.0.207 false false
	// 6.0.208 true false
	// 7.0.69 true false
	// 7.0.70 true true
	// 7.0.70- | git ai@7.0.70: ui/process-ui-message-stream.ts
}

func ExampleSchema() {
	s := sdk.MustParse("6.0.0").Schema()
	fmt.Println(s.Releases(), s.Strict())
	fmt.Println(s.Fields("tool-input-start"))
	fmt.Println(s.FinishReasons())
	fmt.Println(s.Knows("custom"), s.Knows("tool-approval-request"))
	// Output:
	// 6.0.0-6.0.14 true
	// [type toolCallId toolName providerExecuted? dynamic? title?]
	// [stop length content-filter tool-calls error other]
	// false true
}
