package uistream

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkValidPrefix checks the UTF-8 of the corpus's LLM mix (56% of its
// lines hold non-ASCII text, 12% of its bytes are non-ASCII) with the
// vector code (where the CPU has AVX2), the SWAR loop and their reference,
// rune by rune.
func BenchmarkValidPrefix(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "corpus", "streams", "valid", "llm-mix-100k-lines.stream"))
	if err != nil {
		b.Fatal(err)
	}
	for _, impl := range []struct {
		name string
		f    func([]byte) int
	}{{"vector", validPrefix}, {"swar", validPrefixSWAR}, {"runes", validPrefixRunes}} {
		b.Run("impl="+impl.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			n := 0
			for b.Loop() {
				n = impl.f(data)
			}
			if n != len(data) {
				b.Fatalf("%s: %d of %d bytes valid", impl.name, n, len(data))
			}
		})
	}
}
