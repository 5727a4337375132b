package client_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client"
	"github.com/chatwire/chatwire/conformance/mock"
)

// staticTransport answers every request with 200 and body, without a
// network: the benchmarks measure the client, not the loopback.
type staticTransport struct {
	header http.Header
	body   []byte
}

func (t staticTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Header: t.header, Body: io.NopCloser(bytes.NewReader(t.body)), Request: r}, nil
}

// benchStream reads a chat of the mock in protocol p, with 500 progress
// texts, whole through the client, once per iteration: the create, each
// part read and assembled, the end.
func benchStream(b *testing.B, p mock.Protocol, opts ...client.Option) {
	req := client.Request{Content: "a landing page for a bakery"}
	body := postBody(b, newMock(b, mock.Options{Protocol: p, Lines: 500}).URL, req)
	header := http.Header{"Content-Type": {"text/plain; charset=utf-8"}}
	if p == mock.ProtocolUI {
		header = http.Header{"Content-Type": {"text/event-stream"}}
	}
	opts = append(opts, client.WithAPIKey(mock.KeyValid), client.WithHTTPClient(&http.Client{Transport: staticTransport{header, body}}))
	c, err := client.New("http://chat.test", opts...)
	require.NoError(b, err)
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	parts := 0
	for b.Loop() {
		s, err := c.CreateChat(context.Background(), req)
		if err != nil {
			b.Fatal(err)
		}
		parts = 0
		for s.Next() {
			parts++
		}
		if err := s.Err(); err != nil {
			b.Fatal(err)
		}
	}
	if parts < 500 {
		b.Fatalf("read %d parts, want at least 500", parts)
	}
}

// BenchmarkChatStreamV4 reads a v4 data stream through the client.
func BenchmarkChatStreamV4(b *testing.B) { benchStream(b, mock.ProtocolV4) }
