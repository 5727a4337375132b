package jsonscan

import (
	"testing"
)

// BenchmarkLineSkeleton runs each variant of lineSkeleton on lines of the
// SDK's object parts whose skeleton is known (way 0), as the decoder meets
// them in a stream of one shape.
func BenchmarkLineSkeleton(b *testing.B) {
	lines := []struct{ name, line string }{
		{"tool_call_delta", `{"toolCallId":"call_h8kymfSxi1M07WePO7YdjzAr","argsTextDelta":"t\":\" naïve rou"}`},
		{"finish_step", `{"finishReason":"stop","usage":{"promptTokens":8956,"completionTokens":3728},"isContinued":false}`},
		{"start", `{"toolCallId":"call_h8kymfSxi1M07WePO7YdjzAr","toolName":"writeFile"}`},
	}
	for _, v := range SkeletonVariants() {
		for _, l := range lines {
			line := l.line
			b.Run(v+"/"+l.name, func(b *testing.B) {
				defer UseSkeletonVariant(v)()
				buf := make([]byte, len(line)+1+128)
				copy(buf, line+"\n")
				var out [skeletonOut]byte
				var c codeSkeletons
				size, _, _ := lineSkeleton(&buf[0], len(buf), &out, &c, true)
				if size <= 0 {
					b.Fatalf("size %d", size)
				}
				c.lens[0] = uint8(copy(c.ways[0].b[:], out[:size]))
				for b.Loop() {
					if _, _, way := lineSkeleton(&buf[0], len(buf), &out, &c, true); way != 0 {
						b.Fatalf("way %d", way)
					}
				}
			})
		}
	}
}
