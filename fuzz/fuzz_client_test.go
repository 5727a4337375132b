package fuzz

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"testing"
	"unicode/utf8"

	"github.com/chatwire/chatwire/client"
	"github.com/chatwire/chatwire/client/message"
	"github.com/chatwire/chatwire/linestream"
)

// canned is a RoundTripper that answers every request with one response,
// without a network.
type canned struct {
	status            int
	contentType, wait string
	body              []byte
}

func (c *canned) RoundTrip(req *http.Request) (*http.Response, error) {
	h := http.Header{}
	if c.contentType != "" {
		h.Set("Content-Type", c.contentType)
	}
	if c.wait != "" {
		h.Set("Retry-After", c.wait)
	}
	return &http.Response{
		StatusCode: c.status, Status: http.StatusText(c.status), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: io.NopCloser(bytes.NewReader(c.body)), ContentLength: -1, Request: req,
	}, nil
}

// FuzzResponse answers the client's calls with any status, Content-Type,
// Retry-After and body: no panic; a non-2xx status is an *APIError with
// bounded fields; a 2xx JSON answer is a Chat with a chat id and a URL or
// an ErrUnexpectedResponse; a 2xx stream delivers exactly the parts that
// linestream and the Assembler take before the first error, and ends.
// Seeded with every corpus stream as a 200 text stream.
func FuzzResponse(f *testing.F) {
	for _, s := range corpusStreams(f) {
		f.Add(uint16(200), "text/plain; charset=utf-8", "", s.Data)
	}
	f.Add(uint16(200), "text/plain", "", []byte("2:[{\"chatId\":\"chat_1\"}]\n0:\"hi\"\n3:\"boom\"\n"))
	f.Add(uint16(200), "application/json", "", []byte(`{"chatId":"c","url":"/chat/c","streamId":1}`))
	f.Add(uint16(429), "application/json", "2", []byte(`{"error":{"code":"rate_limited","message":"slow"}}`))
	f.Add(uint16(502), "text/html", "Wed, 21 Oct 2015 07:28:00 GMT", []byte("<title>Bad &amp; gateway</title>"))
	f.Add(uint16(401), "", "", []byte("2:[{\"chatId\":\"x\"}]\n3:\"no\"\n"))
	f.Add(uint16(200), "text/plain", "", []byte("2:[{\"chatId\":\"x\"}]\nx:1\n9:{\"toolCallId\":\"t\",\"toolName\":\"n\",\"args\":{}}\na:{\"toolCallId\":\"u\",\"result\":1}\n"))
	f.Fuzz(func(t *testing.T, status uint16, contentType, wait string, body []byte) {
		if len(body) > maxInput {
			t.Skip("input larger than maxInput")
		}
		rt := &canned{status: 200 + int(status)%400, contentType: contentType, wait: wait, body: body}
		if rt.status >= 300 && rt.status < 400 {
			rt.status += 100 // no redirects: the canned answer has no Location
		}
		c, err := client.New("http://127.0.0.1:1", client.WithAPIKey("k"), client.WithHTTPClient(&http.Client{Transport: rt}))
		if err != nil {
			t.Fatal(err)
		}
		chat, err := c.CreateChatJSON(t.Context(), client.Request{Content: "x"})
		if rt.status > 299 {
			checkAPIError(t, rt, err)
			return
		}
		switch {
		case err == nil && (chat.ChatID == "" || chat.URL == ""):
			t.Fatalf("CreateChatJSON on %q = %+v: empty chat id or URL without an error", body, chat)
		case err != nil && !errors.Is(err, client.ErrUnexpectedResponse):
			t.Fatalf("CreateChatJSON on %q: %v, not an ErrUnexpectedResponse", body, err)
		}

		want, wantErr := reference(body)
		id, idErr := linestream.AppendChatID(nil, firstValue(body))
		opens := len(want) > 0 && want[0] == "2" && idErr == nil && len(id) > 0
		s, err := c.CreateChat(t.Context(), client.Request{Content: "x"})
		if (err == nil) != opens {
			t.Fatalf("CreateChat on %q: error %v; the first part %q has chat id %q (%v)", body, err, want, id, idErr)
		}
		if err != nil {
			return
		}
		var got []string
		for s.Next() {
			got = append(got, string(s.Part().Code))
		}
		if s.Next() {
			t.Fatal("Next after the end")
		}
		if len(got) != len(want) {
			t.Fatalf("CreateChat on %q delivered %q, linestream and the Assembler take %q", body, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("CreateChat on %q delivered %q, linestream and the Assembler take %q", body, got, want)
			}
		}
		if (s.Err() == nil) != (wantErr == nil) {
			t.Fatalf("CreateChat on %q: error %v, linestream and the Assembler: %v", body, s.Err(), wantErr)
		}
	})
}

// reference reads body with linestream and the Assembler as ChatStream
// should: unknown codes delivered but not assembled.
func reference(body []byte) ([]string, error) {
	d := linestream.NewDecoder(bytes.NewReader(body))
	a := message.NewAssembler()
	var codes []string
	for d.Next() {
		p := d.Part()
		if p.Kind() != linestream.KindUnknown {
			if err := a.Add(p); err != nil {
				return codes, err
			}
		}
		codes = append(codes, string(p.Code))
	}
	return codes, d.Err()
}

// firstValue returns the value of the first non-blank line of body.
func firstValue(body []byte) []byte {
	d := linestream.NewDecoder(bytes.NewReader(body))
	if !d.Next() {
		return nil
	}
	return d.Part().Value
}

func checkAPIError(t *testing.T, rt *canned, err error) {
	t.Helper()
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("status %d: %v is not an *APIError", rt.status, err)
	}
	switch {
	case apiErr.StatusCode != rt.status:
		t.Fatalf("StatusCode %d, want %d", apiErr.StatusCode, rt.status)
	case len(apiErr.Body) > 2048 || len(apiErr.Body) > len(rt.body):
		t.Fatalf("Body of %d bytes from a body of %d", len(apiErr.Body), len(rt.body))
	case len(apiErr.Message) > 1024+len("…") || len(apiErr.Code) > 128+len("…"):
		t.Fatalf("Message of %d bytes, Code of %d", len(apiErr.Message), len(apiErr.Code))
	case apiErr.RetryAfter < 0:
		t.Fatalf("RetryAfter %v", apiErr.RetryAfter)
	case !utf8.ValidString(apiErr.Error()):
		t.Fatalf("Error() %q is not UTF-8", apiErr.Error())
	}
}
