package bridge

import (
	"bytes"
	"context"
	"strconv"
	"testing"

	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/resumable"
)

// BenchmarkKeep translates a v4 mock stream to the UI stream in memory,
// written as it is (Plain) or through a resumable.Writer into a Memory
// store (Kept), as the proxy keeps it: the cost of keeping a stream.
func BenchmarkKeep(b *testing.B) {
	stream := mockBody(b, mock.ProtocolV4).Bytes()
	b.Run("Plain", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(stream)))
		var out bytes.Buffer
		for b.Loop() {
			out.Reset()
			if _, err := V4ToUI(&out, bytes.NewReader(stream), nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Kept", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(stream)))
		store := resumable.NewMemory(resumable.MemoryOptions{})
		var out bytes.Buffer
		i := 0
		for b.Loop() {
			i++
			out.Reset()
			id := strconv.Itoa(i)
			w := resumable.NewWriter(context.Background(), store, &out, resumable.Meta{ID: "s" + id, ChatID: "c" + id, Protocol: resumable.UI})
			if _, err := V4ToUI(w, bytes.NewReader(stream), nil); err != nil {
				b.Fatal(err)
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
