package client_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client"
	"github.com/chatwire/chatwire/client/message"
	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/linestream"
)

// readAll reads the rest of a stream and returns each part's code and the
// stream's error.
func readAll(s *client.ChatStream) ([]string, error) {
	var codes []string
	for s.Next() {
		codes = append(codes, string(s.Part().Code))
	}
	return codes, s.Err()
}

func TestCreateChat(t *testing.T) {
	ts := newMock(t, mock.Options{})
	c := newClient(t, ts.URL, mock.KeyValid)
	s, err := c.CreateChat(t.Context(), client.Request{Content: "a landing page", ReasoningEffort: client.ReasoningEffortHigh})
	require.NoError(t, err)
	defer s.Close()
	assert.Regexp(t, `^chat_[0-9a-f]{16}$`, s.ChatID())
	assert.Regexp(t, `^req_`, s.Header().Get("X-Request-Id"))

	require.True(t, s.Next(), "the first part is the chat id line")
	p := s.Part()
	assert.Equal(t, `2:[{"chatId":"`+s.ChatID()+`"}]`, string(p.Raw))
	assert.Equal(t, 1, p.Line)
	assert.Equal(t, int64(0), p.Offset)

	codes, err := readAll(s)
	require.NoError(t, err)
	assert.Equal(t, []string{"f", "g", "0", "0", "0", "9", "a", "e", "f", "0", "0", "0", "e", "d"}, codes)
	assert.False(t, s.Next(), "Next after the end")
	assert.NoError(t, s.Err())
	assert.NoError(t, s.Close())
	assert.NoError(t, s.Close(), "Close twice")
}

func TestCreateChatSpecPartsOnly(t *testing.T) {
	ts := newMock(t, mock.Options{SpecPartsOnly: true, Lines: 3})
	s, err := newClient(t, ts.URL, mock.KeyValid).CreateChat(t.Context(), client.Request{Content: "x"})
	require.NoError(t, err)
	codes, err := readAll(s)
	require.NoError(t, err)
	assert.Equal(t, []string{"2", "0", "0", "0"}, codes)
}

func TestCloseEarly(t *testing.T) {
	ts := newMock(t, mock.Options{})
	s, err := newClient(t, ts.URL, mock.KeyValid).CreateChat(t.Context(), client.Request{Content: "x"})
	require.NoError(t, err)
	require.True(t, s.Next())
	require.True(t, s.Next())
	require.NoError(t, s.Close())
	assert.False(t, s.Next(), "Next after Close")
	assert.NoError(t, s.Err(), "closing on purpose is not an error")

	s, err = newClient(t, ts.URL, mock.KeyValid).CreateChat(t.Context(), client.Request{Content: "x"})
	require.NoError(t, err)
	require.NoError(t, s.Close())
	assert.False(t, s.Next(), "Next after a Close before the first Next")
	assert.NotEmpty(t, s.ChatID(), "the chat id stays known")
}

func TestCloseFromAnotherGoroutine(t *testing.T) {
	ts := newMock(t, mock.Options{Pace: time.Hour})
	s, err := newClient(t, ts.URL, mock.KeyValid).CreateChat(t.Context(), client.Request{Content: "x"})
	require.NoError(t, err)
	require.True(t, s.Next(), "the first line came before the pause")
	timer := time.AfterFunc(20*time.Millisecond, func() { s.Close() })
	defer timer.Stop()
	assert.False(t, s.Next(), "Close stops a Next that waits for the server")
	assert.NoError(t, s.Err())
}

func TestContextCancelledMidStream(t *testing.T) {
	ts := newMock(t, mock.Options{Pace: time.Hour})
	ctx, cancel := context.WithCancel(t.Context())
	s, err := newClient(t, ts.URL, mock.KeyValid).CreateChat(ctx, client.Request{Content: "x"})
	require.NoError(t, err)
	defer s.Close()
	require.True(t, s.Next())
	timer := time.AfterFunc(20*time.Millisecond, cancel)
	defer timer.Stop()
	assert.False(t, s.Next())
	require.ErrorIs(t, s.Err(), context.Canceled)
	assert.Contains(t, s.Err().Error(), "stream of chat "+s.ChatID()+": after line 1: ")
}

func TestContextCancelledBeforeFirstLine(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer ts.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Millisecond)
	defer cancel()
	_, err := newClient(t, ts.URL, "k").CreateChat(ctx, client.Request{Content: "x"})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), "chatwire: create chat: read first line: ")
}

// TestFaults runs the client against the mock with each of its faults:
// every fault must have a case here, saying what a caller meets.
func TestFaults(t *testing.T) {
	create := func(t *testing.T, ts *httptest.Server, key string, r client.Request) (*client.ChatStream, error) {
		t.Helper()
		s, err := newClient(t, ts.URL, key).CreateChat(t.Context(), r)
		if err == nil {
			t.Cleanup(func() { s.Close() })
		}
		return s, err
	}
	createJSON := func(t *testing.T, ts *httptest.Server, key string, r client.Request) (*client.Chat, error) {
		t.Helper()
		return newClient(t, ts.URL, key).CreateChatJSON(t.Context(), r)
	}
	firstLineError := func(want string) func(*testing.T, *httptest.Server) {
		return func(t *testing.T, ts *httptest.Server) {
			_, err := create(t, ts, mock.KeyValid, client.Request{Content: "x"})
			require.ErrorIs(t, err, client.ErrUnexpectedResponse)
			assert.Contains(t, err.Error(), want)
		}
	}
	// lineError: the stream opens, delivers its first part, then stops at
	// line 2 with an error that wraps sentinel (nil: none) and ends in msg:
	// a *linestream.SyntaxError for a line that is not a part, an
	// *message.AssemblyError for a part the SDK's client throws at.
	lineError := func(strict bool, sentinel error, msg string) func(*testing.T, *httptest.Server) {
		return func(t *testing.T, ts *httptest.Server) {
			s, err := newClient(t, ts.URL, mock.KeyValid, client.WithStrictStream(strict)).
				CreateChat(t.Context(), client.Request{Content: "x"})
			require.NoError(t, err)
			defer s.Close()
			codes, err := readAll(s)
			assert.Equal(t, []string{"2"}, codes, "the part before the bad line is delivered")
			var se *linestream.SyntaxError
			var ae *message.AssemblyError
			switch {
			case errors.As(err, &se):
				assert.Equal(t, 2, se.Line)
			case errors.As(err, &ae):
				assert.Equal(t, 2, ae.Line)
			default:
				t.Fatalf("want a SyntaxError or an AssemblyError, got %v", err)
			}
			if sentinel != nil {
				assert.ErrorIs(t, err, sentinel)
			}
			assert.Equal(t, "chatwire: create chat: stream of chat "+s.ChatID()+": "+msg, err.Error())
			assert.JSONEq(t, `[{"chatId":"`+s.ChatID()+`"}]`, string(must(json.Marshal(s.Data()))), "the data so far")
		}
	}
	works := func(key string, r client.Request) func(*testing.T, *httptest.Server) {
		return func(t *testing.T, ts *httptest.Server) {
			s, err := create(t, ts, key, r)
			require.NoError(t, err)
			_, err = readAll(s)
			require.NoError(t, err)
			_, err = createJSON(t, ts, key, r)
			require.NoError(t, err)
		}
	}
	status := func(key string, r client.Request, code int, sentinel error) func(*testing.T, *httptest.Server) {
		return func(t *testing.T, ts *httptest.Server) {
			_, err := createJSON(t, ts, key, r)
			var apiErr *client.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, code, apiErr.StatusCode)
			for _, s := range sentinels {
				assert.Equal(t, s == sentinel, errors.Is(err, s), "errors.Is(%v, %v)", err, s)
			}
		}
	}
	x := client.Request{Content: "x"}
	cases := map[string]func(*testing.T, *httptest.Server){
		"first-line-not-2":   firstLineError(`line 1: the first line is not the chat id part 2:[{"chatId":"…"}]: got "0:\"Reading your request`),
		"chat-id-missing":    firstLineError(`line 1: the first line has no string chatId in its first object, as in 2:[{"chatId":"…"}]: got "2:[{\"chat_id\":\"chat_`),
		"chat-id-not-string": firstLineError(`got "2:[{\"chatId\":1001}]"`),
		"malformed-line":     lineError(false, nil, "linestream: line 2:3: invalid character looking for the beginning of a JSON value: 'T'"),
		"bad-shape":          lineError(false, linestream.ErrShape, `message: line 2: "text" parts expect a string value.`),
		"unknown-code": func(t *testing.T, ts *httptest.Server) {
			s, err := create(t, ts, mock.KeyValid, x)
			require.NoError(t, err)
			codes, err := readAll(s)
			require.NoError(t, err, "by default an unknown code is delivered")
			assert.Equal(t, []string{"2", "x", "f"}, codes[:3])
			lineError(true, linestream.ErrUnknownCode, "message: line 2: Failed to parse stream string. Invalid code x.")(t, ts)
		},
		"chat-id-spaced": func(t *testing.T, ts *httptest.Server) {
			s, err := create(t, ts, mock.KeyValid, x)
			require.NoError(t, err, "the JSON-correct reading finds the id")
			assert.Regexp(t, `^chat_[0-9a-f]{16}$`, s.ChatID())
		},
		"stream-false-ignored": func(t *testing.T, ts *httptest.Server) {
			_, err := createJSON(t, ts, mock.KeyValid, x)
			require.ErrorIs(t, err, client.ErrUnexpectedResponse)
			assert.Contains(t, err.Error(), `chatwire: create chat: unexpected response: want a JSON object, got not JSON, Content-Type text/plain; charset=utf-8: "2:[{\"chatId\":\"chat_`)
		},
		"json-missing-url": func(t *testing.T, ts *httptest.Server) {
			_, err := createJSON(t, ts, mock.KeyValid, x)
			require.ErrorIs(t, err, client.ErrUnexpectedResponse)
			assert.Contains(t, err.Error(), `chatwire: create chat: unexpected response: no url in the JSON response "{\"chatId\":\"chat_`)
		},
		"json-relative-url": func(t *testing.T, ts *httptest.Server) {
			chat, err := createJSON(t, ts, mock.KeyValid, x)
			require.NoError(t, err)
			assert.Equal(t, ts.URL+"/chat/"+chat.ChatID, chat.URL, "a relative url is resolved against the base URL")
		},
		"stream-not-default":            works(mock.KeyValid, x), // the client always sends "stream"
		"not-json-500":                  works(mock.KeyValid, x), // the client always sends JSON
		"missing-key-403":               works(mock.KeyValid, x), // New refuses to make a client without a key
		"unknown-key-accepted":          works("cw_test_anything", x),
		"no-credits-ignored":            works(mock.KeyNoCredits, x),
		"model-enum-not-enforced":       works(mock.KeyValid, client.Request{Content: "x", Model: "GAMMA-K3"}),
		"reasoning-effort-not-enforced": works(mock.KeyValid, client.Request{Content: "x", ReasoningEffort: "max"}),
		"current-model-rejected":        status(mock.KeyValid, client.Request{Content: "x", Model: client.ModelGammaK3}, 422, client.ErrInvalidRequest),
		"undocumented-status":           status(mock.KeyValid, client.Request{Content: "x", ExecutionMode: "fast"}, 418, nil),
		"other-team-401":                status(mock.KeyOtherTeam, x, 401, client.ErrUnauthorized),
		// Faults of fields the client never sends wrong: its Request is
		// typed, it omits empty fields (so never a null) and always sends
		// stream as a boolean and Content-Type: application/json.
		"null-500":                    works(mock.KeyValid, x),
		"stream-string-coerced":       works(mock.KeyValid, x),
		"required-null-accepted":      works(mock.KeyValid, x),
		"content-type-ignored":        works(mock.KeyValid, x),
		"attachment-fields-unchecked": works(mock.KeyValid, client.Request{Content: "x", Attachments: []client.Attachment{{URL: "https://example.test/a.png", Name: "a", ContentType: "image/png"}}}),
		"enum-case-folded":            works(mock.KeyValid, client.Request{Content: "x", Model: "GAMMA-K3"}),
		"earlier-model-500":           status(mock.KeyValid, client.Request{Content: "x", Model: client.ModelDelta4_5}, 500, client.ErrServerError),
		"no-credits-401":              status(mock.KeyNoCredits, x, 401, client.ErrUnauthorized),
		"no-credits-403":              status(mock.KeyNoCredits, x, 403, client.ErrForbidden),
		"chat-id-empty":               firstLineError(`line 1: the first line has an empty chatId: "2:[{\"chatId\":\"\"}]"`),
		"workflow-ids-empty": func(t *testing.T, ts *httptest.Server) {
			_, err := createJSON(t, ts, mock.KeyValid, client.Request{Content: "x", Backend: "WORKFLOW"})
			require.ErrorIs(t, err, client.ErrUnexpectedResponse, "an identifier that is present must be usable")
			assert.Contains(t, err.Error(), "empty streamId in the JSON response")
		},
		"follow-up-auth-unchecked": func(t *testing.T, ts *httptest.Server) {
			// The client always sends its key, so it meets no difference.
			c := newClient(t, ts.URL, mock.KeyValid)
			chat, err := c.CreateChatJSON(t.Context(), x)
			require.NoError(t, err)
			_, err = c.Status(t.Context(), chat.ChatID)
			require.NoError(t, err)
		},
		// The rate-limit faults need the mock's rate limit on: one request
		// a minute.
		"rate-limit-ignored": func(t *testing.T, _ *httptest.Server) {
			ts := newMock(t, mock.Options{Fault: "rate-limit-ignored", RateLimit: 1})
			works(mock.KeyValid, x)(t, ts) // two requests, both through
		},
		"rate-limit-500": func(t *testing.T, _ *httptest.Server) {
			ts := newMock(t, mock.Options{Fault: "rate-limit-500", RateLimit: 1})
			_, err := createJSON(t, ts, mock.KeyValid, x)
			require.NoError(t, err, "the first request is within the limit")
			// Only a 429 is retried: a 500 where the 429 belongs is not.
			_, err = newClient(t, ts.URL, mock.KeyValid, client.WithRetry(3)).CreateChatJSON(t.Context(), x)
			var apiErr *client.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, 500, apiErr.StatusCode)
			assert.ErrorIs(t, err, client.ErrServerError)
		},
		// The end-state faults: the client holds the message as ai 4's
		// client does, which reads each without a word but the error part.
		"stream-empty": func(t *testing.T, ts *httptest.Server) {
			s, err := create(t, ts, mock.KeyValid, x)
			require.NoError(t, err)
			codes, err := readAll(s)
			require.NoError(t, err)
			assert.Equal(t, []string{"2"}, codes, "no part after the chat id")
			assert.Empty(t, s.Message().Content, "an empty message")
		},
		"no-finish-message": func(t *testing.T, ts *httptest.Server) {
			s, err := create(t, ts, mock.KeyValid, x)
			require.NoError(t, err)
			codes, err := readAll(s)
			require.NoError(t, err)
			assert.Equal(t, "e", codes[len(codes)-1], "the stream ends at the first step's finish")
			assert.Equal(t, "unknown", s.FinishReason(), "no finish_message: the SDK's unknown")
		},
		"tool-call-twice": func(t *testing.T, ts *httptest.Server) {
			s, err := create(t, ts, mock.KeyValid, x)
			require.NoError(t, err)
			_, err = readAll(s)
			require.NoError(t, err)
			calls := s.Message().ToolInvocations
			require.Len(t, calls, 2, "the tool call twice, as ai 4's client holds it")
			assert.Equal(t, calls[0].ToolCallID, calls[1].ToolCallID)
		},
		"not-utf8": func(t *testing.T, ts *httptest.Server) {
			s, err := create(t, ts, mock.KeyValid, x)
			require.NoError(t, err)
			_, err = readAll(s)
			require.NoError(t, err)
			assert.Contains(t, s.Message().Content, "caf\uFFFD au lait", "the byte that is not UTF-8 read as U+FFFD, as TextDecoder reads it")
		},
		"error-then-finish": func(t *testing.T, ts *httptest.Server) {
			s, err := create(t, ts, mock.KeyValid, x)
			require.NoError(t, err)
			_, err = readAll(s)
			require.Error(t, err, "the error part ends the reading, as ai 4's client throws")
			assert.Contains(t, err.Error(), "the build step failed")
		},
		"chat-id-changes": func(t *testing.T, ts *httptest.Server) {
			s, err := create(t, ts, mock.KeyValid, x)
			require.NoError(t, err)
			_, err = readAll(s)
			require.NoError(t, err)
			assert.Regexp(t, `^chat_[0-9a-f]{16}$`, s.ChatID(), "the chat id is the first line's")
			assert.Len(t, s.Data(), 2, "the data holds both chat ids")
		},
		"chat-id-reused": func(t *testing.T, ts *httptest.Server) {
			first, err := createJSON(t, ts, mock.KeyValid, x)
			require.NoError(t, err)
			s, err := create(t, ts, mock.KeyValid, x)
			require.NoError(t, err)
			assert.Equal(t, first.ChatID, s.ChatID(), "the second chat is announced with the first's id")
		},
		"error-with-stream": func(t *testing.T, ts *httptest.Server) {
			status("cw_test_nobody", x, 401, client.ErrUnauthorized)(t, ts)
			_, err := create(t, ts, "cw_test_nobody", x)
			var apiErr *client.APIError
			require.ErrorAs(t, err, &apiErr, "a 401 is an error even with a stream for a body")
			assert.True(t, strings.HasPrefix(string(apiErr.Body), "2:[{"), "body %q", apiErr.Body)
		},
	}
	runFaults(t, mock.Faults(), cases, newMock)
}

// runFaults runs the case of each fault against a mock of that fault
// (start starts it): every fault must have a case, and every case a fault.
func runFaults(t *testing.T, faults []mock.Fault, cases map[string]func(*testing.T, *httptest.Server),
	start func(testing.TB, mock.Options) *httptest.Server) {
	for _, f := range faults {
		t.Run(f.Name, func(t *testing.T) {
			run, ok := cases[f.Name]
			require.True(t, ok, "fault %s (%s) has no case: say what a client meets", f.Name, f.Description)
			run(t, start(t, mock.Options{Fault: f.Name}))
		})
	}
	assert.Len(t, cases, len(faults), "a case for a fault the mock no longer has")
}

// rawServer serves each connection with handle, outside net/http, for
// responses no HTTP server would send.
func rawServer(t *testing.T, handle func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				br := bufio.NewReader(conn)
				if req, err := http.ReadRequest(br); err == nil { // read the request first
					io.Copy(io.Discard, req.Body)
				}
				handle(conn)
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

// chunkedHead is the start of a 200 line stream response, chunked.
const chunkedHead = "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n"

func chunk(s string) string { return strings.ToLower(strconvHex(len(s))) + "\r\n" + s + "\r\n" }

func strconvHex(n int) string {
	const digits = "0123456789abcdef"
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 16 {
		b = append([]byte{digits[n%16]}, b...)
	}
	return string(b)
}

// TestBadServers feeds the client responses a broken server or network
// gives: clear errors, no panic, the parts before the error delivered.
func TestBadServers(t *testing.T) {
	const first = `2:[{"chatId":"chat_1"}]` + "\n"
	tests := []struct {
		name     string
		handle   func(net.Conn)
		parts    []string // codes delivered before the error; nil: CreateChat fails
		wantErr  string
		sentinel error
	}{
		{"not HTTP", func(c net.Conn) { io.WriteString(c, "SSH-2.0-OpenSSH_9.6\r\n") },
			nil, `chatwire: Post "http://`, nil},
		{"closed at once", func(c net.Conn) {},
			nil, "EOF", nil},
		{"empty body", func(c net.Conn) { io.WriteString(c, chunkedHead+"0\r\n\r\n") },
			nil, "chatwire: create chat: unexpected response: the stream ended before its first line", client.ErrUnexpectedResponse},
		{"garbage first line", func(c net.Conn) { io.WriteString(c, chunkedHead+chunk("hello world\n")+"0\r\n\r\n") },
			nil, "chatwire: create chat: read first line: linestream: line 1:1: ", nil},
		{"empty chat id", func(c net.Conn) { io.WriteString(c, chunkedHead+chunk(`2:[{"chatId":""}]`+"\n")+"0\r\n\r\n") },
			nil, `chatwire: create chat: unexpected response: line 1: the first line has an empty chatId: "2:[{\"chatId\":\"\"}]"`, client.ErrUnexpectedResponse},
		{"empty data array", func(c net.Conn) { io.WriteString(c, chunkedHead+chunk("\n\n2:[]\n")+"0\r\n\r\n") },
			nil, `chatwire: create chat: unexpected response: line 3: the first line has no string chatId in its first object`, client.ErrUnexpectedResponse},
		{"JSON instead of a stream", func(c net.Conn) {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 18\r\n\r\n"+`{"chatId":"chat_1"}`[:18])
		}, nil, "read first line (the response is JSON, Content-Type application/json, not a text stream): linestream: line 1:1: ", nil},
		{"cut mid-line", func(c net.Conn) {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n"+first+`0:"a"`+"\n"+`0:"hel`)
		}, []string{"2", "0"}, `chatwire: create chat: stream of chat chat_1: linestream: line 3:`, nil},
		{"connection cut mid-chunk", func(c net.Conn) {
			io.WriteString(c, chunkedHead+chunk(first+`0:"a"`+"\n")+"40\r\n"+`0:"partial`)
		}, []string{"2", "0"}, "chatwire: create chat: stream of chat chat_1: after line 2: unexpected EOF", io.ErrUnexpectedEOF},
		{"reset mid-stream", func(c net.Conn) {
			io.WriteString(c, chunkedHead+chunk(first+`0:"a"`+"\n"+`0:"b"`+"\n"))
			time.Sleep(10 * time.Millisecond)
			c.(*net.TCPConn).SetLinger(0) // close with RST
		}, []string{"2", "0", "0"}, "chatwire: create chat: stream of chat chat_1: after line 3: ", nil},
		{"short Content-Length body", func(c net.Conn) {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n"+first)
		}, []string{"2"}, "chatwire: create chat: stream of chat chat_1: after line 1: unexpected EOF", io.ErrUnexpectedEOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := rawServer(t, tt.handle)
			s, err := newClient(t, url, "k").CreateChat(t.Context(), client.Request{Content: "x"})
			if tt.parts == nil {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				if tt.sentinel != nil {
					assert.ErrorIs(t, err, tt.sentinel)
				}
				return
			}
			require.NoError(t, err)
			defer s.Close()
			assert.Equal(t, "chat_1", s.ChatID())
			codes, err := readAll(s)
			assert.Equal(t, tt.parts, codes, "the parts before the error")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
			if tt.sentinel != nil {
				assert.ErrorIs(t, err, tt.sentinel)
			}
		})
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestStreamMessage compares the stream's assembly with message.Assemble of
// the same bytes, fetched from a twin mock without the client.
func TestStreamMessage(t *testing.T) {
	opts := mock.Options{Seed: 3}
	req := client.Request{Content: "a landing page", ReasoningEffort: client.ReasoningEffortMedium}
	s, err := newClient(t, newMock(t, opts).URL, mock.KeyValid).CreateChat(t.Context(), req)
	require.NoError(t, err)
	assert.Empty(t, s.Message().Content, "before any text part")
	assert.Equal(t, "unknown", s.FinishReason())
	var contents []string
	for s.Next() {
		if string(s.Part().Code) == "0" {
			contents = append(contents, s.Message().Content)
		}
	}
	require.NoError(t, s.Err())
	require.Len(t, contents, mock.DefaultLines)
	for i := 1; i < len(contents); i++ {
		assert.True(t, strings.HasPrefix(contents[i], contents[i-1]), "the content grows part by part")
	}
	res, err := s.Wait()
	require.NoError(t, err, "Wait after the end")

	want, err := message.Assemble(bytes.NewReader(postBody(t, newMock(t, opts).URL, req)))
	require.NoError(t, err)

	assert.Equal(t, string(must(json.Marshal(want))), string(must(json.Marshal(res))))
	assert.Equal(t, "stop", res.FinishReason)
	assert.True(t, res.Usage.Reported())
	assert.Regexp(t, `^msg_`, res.Message.ID)
	assert.Len(t, res.Message.ToolInvocations, 1)
	assert.Equal(t, contents[len(contents)-1], res.Message.Content)
}

// TestStreamErrorPart: an error part ends the stream as the SDK's client
// throws it; the message keeps what came before.
func TestStreamErrorPart(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `2:[{"chatId":"chat_1"}]`+"\n"+`0:"half a page"`+"\n"+`3:"the agent crashed"`+"\n"+`0:"never read"`+"\n")
	}))
	defer ts.Close()
	s, err := newClient(t, ts.URL, "k").CreateChat(t.Context(), client.Request{Content: "x"})
	require.NoError(t, err)
	res, err := s.Wait()
	require.ErrorIs(t, err, message.ErrErrorPart)
	var ae *message.AssemblyError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, 3, ae.Line)
	assert.Equal(t, "the agent crashed", ae.Msg)
	assert.Equal(t, "chatwire: create chat: stream of chat chat_1: message: line 3: the agent crashed", err.Error())
	assert.Equal(t, "half a page", res.Message.Content)
	assert.Equal(t, "half a page", s.Message().Content)
	assert.False(t, s.Next())
}

// TestStreamUnknownCodeMessage: by default an unknown part is delivered and
// the message goes on without it.
func TestStreamUnknownCodeMessage(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `2:[{"chatId":"chat_1"}]`+"\n"+`0:"a"`+"\n"+`aui-state:{"x":1}`+"\n"+`0:"b"`+"\n")
	}))
	defer ts.Close()
	s, err := newClient(t, ts.URL, "k").CreateChat(t.Context(), client.Request{Content: "x"})
	require.NoError(t, err)
	codes, err := readAll(s)
	require.NoError(t, err)
	assert.Equal(t, []string{"2", "0", "aui-state", "0"}, codes)
	assert.Equal(t, "ab", s.Message().Content)
}

// TestStreamAccessorsDoNotAllocate guards the "does no allocation" of
// ChatStream.Message and its neighbours.
func TestStreamAccessorsDoNotAllocate(t *testing.T) {
	s, err := newClient(t, newMock(t, mock.Options{}).URL, mock.KeyValid).CreateChat(t.Context(), client.Request{Content: "x"})
	require.NoError(t, err)
	defer s.Close()
	for range 5 {
		require.True(t, s.Next())
	}
	allocs := testing.AllocsPerRun(100, func() {
		_ = s.Message()
		_ = s.Data()
		_ = s.FinishReason()
		_ = s.Usage()
		_ = s.Part()
		_ = s.ChatID()
	})
	assert.Zero(t, allocs, "allocations per call of the accessors")
}

func TestUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	c := newClient(t, "http://"+addr, "k")
	for _, op := range operations {
		err := op.run(t.Context(), c, "chat_1")
		require.Error(t, err, op.name)
		assert.Regexp(t, `^chatwire: (Post|Get) "http://`+regexp.QuoteMeta(addr)+`/api/chat[^"]*": dial tcp .*connection refused$`, err.Error())
		var apiErr *client.APIError
		assert.False(t, errors.As(err, &apiErr), "no response, no APIError")
	}
}
