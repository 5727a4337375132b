package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/chatwire/chatwire/client"
)

// replay is a RoundTripper that answers every request with the same 200
// line stream from memory, so that a benchmark times the client's reading
// of a response and not a network.
type replay struct{ data []byte }

func (r *replay) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: http.StatusOK, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        http.Header{"Content-Type": {"text/plain; charset=utf-8"}},
		Body:          io.NopCloser(bytes.NewReader(r.data)),
		ContentLength: int64(len(r.data)), Request: req,
	}, nil
}

// BenchmarkClientStream reads the assembly inputs (see BenchmarkAssemble)
// through client.CreateChat and ChatStream.Next, the response answered from
// memory: the decoder, the Assembler, and what the client adds per part.
// Compare it with BenchmarkAssemble's impl=assemble on the same input.
// Each run is a new request, so it also counts the decoder's and the
// Assembler's first buffers.
func BenchmarkClientStream(b *testing.B) {
	for _, n := range assembleLines {
		data := assembleStream(b, n)
		lines := bytes.Count(data, []byte{'\n'})
		b.Run(fmt.Sprintf("input=sdk-llm-mix-%dk/impl=client", n/1000), func(b *testing.B) {
			c, err := client.New("http://127.0.0.1:1", client.WithAPIKey("k"),
				client.WithHTTPClient(&http.Client{Transport: &replay{data}}))
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			var s *client.ChatStream
			parts := 0
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if s, err = c.CreateChat(ctx, client.Request{Content: "x"}); err != nil {
					b.Fatal(err)
				}
				parts = 0
				for s.Next() {
					parts++
				}
			}
			if s.Err() != nil || parts != lines || len(s.Message().Parts) == 0 {
				b.Fatalf("read %d parts of %d, error %v", parts, lines, s.Err())
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(lines), "ns/line")
		})
	}
}
