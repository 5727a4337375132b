package uistream_test

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/chatwire/chatwire/uistream"
)

// benchTexts are the texts of the encoder's benchmarks: a one-token delta,
// text with escapes, non-ASCII text and a long text.
var benchTexts = []struct{ name, text string }{
	{"token", " the"},
	{"plain", "Creating the project structure for the todo app now."},
	{"escaped", "line one\nline \"two\"\n\ttabbed \\ slash\n"},
	{"non-ascii", "Déjà vu: 日本語のテキスト and emoji 🙂🚀 ελληνικά"},
	{"long", strings.Repeat("The quick brown fox jumps over the lazy dog. Café.\n", 100)},
}

// textDeltaFrame is the frame of a text-delta chunk as encoding/json
// writes it (the same bytes as JSON.stringify for these texts: none holds
// '<', '>', '&', U+2028 or U+2029).
func textDeltaFrame(tb testing.TB, id, delta string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(struct {
		Type  string `json:"type"`
		ID    string `json:"id"`
		Delta string `json:"delta"`
	}{"text-delta", id, delta})
	if err != nil {
		tb.Fatal(err)
	}
	return append(append([]byte("data: "), bytes.TrimSuffix(b.Bytes(), []byte("\n"))...), "\n\n"...)
}

// BenchmarkEncode writes text-delta frames with AppendTextDeltaChunk into
// a reused buffer, and through a Writer to io.Discard; each checks the
// frame after its loop against encoding/json's.
func BenchmarkEncode(b *testing.B) {
	for _, v := range benchTexts {
		want := textDeltaFrame(b, "t1", v.text)
		b.Run("text="+v.name+"/impl=append", func(b *testing.B) {
			dst := make([]byte, 0, 8<<10)
			b.ReportAllocs()
			b.SetBytes(int64(len(want)))
			for b.Loop() {
				dst = uistream.AppendTextDeltaChunk(dst[:0], "t1", v.text)
			}
			if !bytes.Equal(dst, want) {
				b.Fatalf("got %q, want %q", dst, want)
			}
		})
		b.Run("text="+v.name+"/impl=writer", func(b *testing.B) {
			w := uistream.NewWriter(io.Discard)
			b.ReportAllocs()
			b.SetBytes(int64(len(want)))
			var err error
			for b.Loop() {
				err = w.WriteFrame(uistream.AppendTextDeltaChunk(w.Buffer(), "t1", v.text))
			}
			if err != nil {
				b.Fatal(err)
			}
			if got := uistream.AppendTextDeltaChunk(w.Buffer(), "t1", v.text); !bytes.Equal(got, want) {
				b.Fatalf("got %q, want %q", got, want)
			}
		})
	}
}
