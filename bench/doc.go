// Package bench holds chatwire's cross-package measurements.
//
// Its decoder benchmarks (decode_test.go) run the linestream decoder and
// baseline readers over the same inputs in one benchmark set, named so that
// benchstat compares them column by column:
//
//	BenchmarkDecode/input=go-llm-mix/impl=linestream
//	BenchmarkDecode/input=go-llm-mix/impl=floor
//	...
//
// The baselines are the reader floor (bufio.Reader.ReadSlice and finding the
// ':', no validation), bufio.Scanner with encoding/json's Unmarshal and
// Valid, and ReadSlice with fastjson.ValidateBytes. A test checks that all
// of them find the same parts in every input, so they measure the same work.
// RESULTS.md records the figures and run.sh reproduces them.
package bench
