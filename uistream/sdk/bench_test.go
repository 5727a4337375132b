package sdk

import (
	"testing"
)

// BenchmarkCheckChunk checks every sample the newest client takes (the
// chunks a conformant stream is made of), round after round.
func BenchmarkCheckChunk(b *testing.B) {
	samples, _ := readVerdicts(b)
	r := Newest()
	var accepted [][]byte
	size := 0
	for _, s := range samples {
		if r.CheckChunk([]byte(s.JSON)) == nil {
			accepted = append(accepted, []byte(s.JSON))
			size += len(s.JSON)
		}
	}
	if len(accepted) < 100 {
		b.Fatalf("only %d accepted samples", len(accepted))
	}
	b.ReportAllocs()
	b.SetBytes(int64(size))
	failed := 0
	for b.Loop() {
		for _, c := range accepted {
			if r.CheckChunk(c) != nil {
				failed++
			}
		}
	}
	if failed != 0 {
		b.Fatalf("%d checks failed", failed)
	}
}

// BenchmarkSkew reads a 1000-chunk text stream with every release.
func BenchmarkSkew(b *testing.B) {
	stream := [][]byte{[]byte(`{"type":"start","messageId":"msg_1"}`), []byte(`{"type":"start-step"}`), []byte(`{"type":"text-start","id":"t1"}`)}
	for range 1000 {
		stream = append(stream, []byte(`{"type":"text-delta","id":"t1","delta":"Hello, world. "}`))
	}
	stream = append(stream, []byte(`{"type":"text-end","id":"t1"}`), []byte(`{"type":"finish-step"}`), []byte(`{"type":"finish","finishReason":"stop"}`))
	b.ReportAllocs()
	for b.Loop() {
		rep := Skew(func(yield func([]byte) bool) {
			for _, c := range stream {
				if !yield(c) {
					return
				}
			}
		}, nil, Options{})
		if len(rep.Accepted()) == 0 {
			b.Fatal("no release reads the stream")
		}
	}
}
