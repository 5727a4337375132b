package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client"
	"github.com/chatwire/chatwire/client/message"
	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/uistream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// uiMock starts the mock speaking the UI message stream.
func uiMock(t testing.TB, opts mock.Options) *httptest.Server {
	t.Helper()
	opts.Protocol = mock.ProtocolUI
	return newMock(t, opts)
}

// readChunks reads the rest of a UI stream and returns each chunk's type
// and the stream's error.
func readChunks(s *client.ChatStream) ([]string, error) {
	var types []string
	for s.Next() {
		types = append(types, string(s.Chunk().Type))
	}
	return types, s.Err()
}

// postBody posts a create with stream true to a mock and returns its body,
// read whole: what an uncut read of the same chat gets.
func postBody(t testing.TB, baseURL string, r client.Request) []byte {
	t.Helper()
	body, err := json.Marshal(r)
	require.NoError(t, err)
	body = append(body[:len(body)-1], `,"stream":true}`...)
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, baseURL+"/api/chat", bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+mock.KeyValid)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return b
}

func TestCreateChatUI(t *testing.T) {
	ts := uiMock(t, mock.Options{Lines: 3})
	s, err := newClient(t, ts.URL, mock.KeyValid).CreateChat(t.Context(), client.Request{Content: "a landing page"})
	require.NoError(t, err)
	defer s.Close()
	assert.Equal(t, client.ProtocolUI, s.Protocol())
	assert.Regexp(t, `^chat_[0-9a-f]{16}$`, s.ChatID(), "from the start chunk's messageMetadata.chatId")
	assert.Equal(t, -1, s.Index(), "before the first Next")
	require.True(t, s.Next())
	assert.Equal(t, 0, s.Index())
	c := s.Chunk()
	assert.Equal(t, "start", string(c.Type))
	assert.Equal(t, 1, c.Event)
	assert.Equal(t, linestreamZero, s.Part(), "no v4 part on a UI stream")
	types, err := readChunks(s)
	require.NoError(t, err)
	assert.Equal(t, []string{"start-step", "text-start", "text-delta", "text-delta", "text-end", "tool-input-start", "tool-input-delta",
		"tool-input-delta", "tool-input-available", "tool-output-available", "finish-step", "start-step", "text-start", "text-delta",
		"text-end", "finish-step", "finish"}, types)
	m, ok := s.UIMessage()
	require.True(t, ok)
	assert.Equal(t, 5, m.Len())
	assert.Equal(t, "", s.FinishReason(), "the mock's finish has no finishReason")
	assert.Empty(t, s.Message().Content, "the v4 message of a UI stream is empty")
	assert.True(t, strings.HasPrefix(string(s.AppendMessageJSON(nil)), `{"id":"msg_`))
	res, err := s.Wait()
	require.NoError(t, err)
	assert.Empty(t, res.Message.Parts, "Wait's v4 Result of a UI stream")
}

// TestUIStreamMessage: the client's message of a UI stream is the one
// uimessage.Reader reads from the same bytes, fetched from a twin mock,
// for the newest release and an old one.
func TestUIStreamMessage(t *testing.T) {
	for _, rel := range []string{"7", "6.0.0", "5.0.0"} {
		t.Run(rel, func(t *testing.T) {
			opts := mock.Options{Seed: 3}
			req := client.Request{Content: "a bakery", ReasoningEffort: client.ReasoningEffortHigh}
			s, err := newClient(t, uiMock(t, opts).URL, mock.KeyValid, client.WithSDK(sdk.MustParse(rel))).CreateChat(t.Context(), req)
			require.NoError(t, err)
			_, err = readChunks(s)
			require.NoError(t, err)

			body := postBody(t, uiMock(t, opts).URL, req)
			a := uimessage.NewAssembler(sdk.MustParse(rel), uimessage.WithTerminateOnError())
			r := uimessage.NewReader(bytes.NewReader(body), a)
			for r.Next() {
			}
			require.NoError(t, r.Err())
			assert.Equal(t, string(a.AppendJSON(nil)), string(s.AppendMessageJSON(nil)))
		})
	}
}

var linestreamZero = (&client.ChatStream{}).Part()

// TestTellProtocol serves one body with the headers of each case and
// wants the protocol the client tells, as chatwire's commands tell it.
func TestTellProtocol(t *testing.T) {
	const v4 = `2:[{"chatId":"chat_1"}]` + "\n" + `0:"hi"` + "\n"
	const ui = ": keep-alive\n\n" + `data: {"type":"start","messageId":"m1"}` + "\n\n" + `data: {"type":"text-start","id":"t"}` + "\n\n" +
		`data: {"type":"text-delta","id":"t","delta":"hi"}` + "\n\n" + `data: {"type":"text-end","id":"t"}` + "\n\n" + `data: {"type":"finish"}` + "\n\n" + "data: [DONE]\n\n"
	tests := []struct {
		name   string
		header map[string]string
		body   string
		force  client.Protocol
		want   client.Protocol
		err    string // the create's error, "" for none
	}{
		{"v4, text/plain", map[string]string{"Content-Type": "text/plain"}, v4, client.ProtocolAuto, client.ProtocolV4, ""},
		{"v4, the SDK's header", map[string]string{"X-Vercel-Ai-Data-Stream": "v1"}, v4, client.ProtocolAuto, client.ProtocolV4, ""},
		{"UI, text/event-stream", map[string]string{"Content-Type": "text/event-stream"}, ui, client.ProtocolAuto, client.ProtocolUI, ""},
		{"UI, the SDK's header", map[string]string{"X-Vercel-Ai-Ui-Message-Stream": "v1", "Content-Type": "text/plain"}, ui, client.ProtocolAuto, client.ProtocolUI, ""},
		{"UI, sniffed past a comment", map[string]string{"Content-Type": "text/plain"}, ui, client.ProtocolAuto, client.ProtocolUI, ""},
		{"v4 forced on SSE", map[string]string{"Content-Type": "text/event-stream"}, ui, client.ProtocolV4, client.ProtocolV4,
			`chatwire: create chat: read first line: linestream: line 1:1: empty code before ':'`},
		{"HTML is read as v4 and rejected", map[string]string{"Content-Type": "text/html"}, "<html><title>502</title></html>\n", client.ProtocolAuto, client.ProtocolV4,
			`chatwire: create chat: read first line: linestream: line 1:1: `},
		{"an empty UI stream", map[string]string{"Content-Type": "text/event-stream"}, "data: [DONE]\n\n", client.ProtocolAuto, client.ProtocolUI,
			`chatwire: create chat: unexpected response: the stream ended before its first chunk`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				for k, v := range tt.header {
					w.Header().Set(k, v)
				}
				io.WriteString(w, tt.body)
			}))
			defer ts.Close()
			s, err := newClient(t, ts.URL, "k", client.WithProtocol(tt.force)).CreateChat(t.Context(), client.Request{Content: "x"})
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			defer s.Close()
			assert.Equal(t, tt.want, s.Protocol())
			_, err = s.Wait()
			require.NoError(t, err)
			if tt.want == client.ProtocolUI {
				assert.Equal(t, `{"id":"m1","role":"assistant","parts":[{"type":"text","text":"hi","state":"done"}]}`, string(s.AppendMessageJSON(nil)))
			} else {
				assert.Equal(t, "hi", s.Message().Content)
			}
		})
	}
}

// TestUIChatID: a UI stream's chat id comes from a header, else the first
// chunk that carries one.
func TestUIChatID(t *testing.T) {
	tests := []struct {
		name   string
		header string
		events []string
		want   string
	}{
		{"X-Chat-Id header", "chat_h", []string{`{"type":"start","messageMetadata":{"chatId":"chat_m"}}`}, "chat_h"},
		{"start metadata", "", []string{`{"type":"start","messageMetadata":{"chatId":"chat_m"}}`}, "chat_m"},
		{"data part", "", []string{`{"type":"start"}`, `{"type":"data-chat","data":{"chatId":"chat_d"}}`}, "chat_d"},
		{"escaped", "", []string{`{"type":"start","messageMetadata":{"chatId":"chat_\u00e9"}}`}, "chat_é"},
		{"the first one counts", "", []string{`{"type":"start","messageMetadata":{"chatId":"chat_1"}}`, `{"type":"message-metadata","messageMetadata":{"chatId":"chat_2"}}`}, "chat_1"},
		{"none", "", []string{`{"type":"start","messageMetadata":{"n":1}}`}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				uistream.Headers(w.Header())
				if tt.header != "" {
					w.Header().Set("X-Chat-Id", tt.header)
				}
				uw := uistream.NewWriter(w)
				for _, e := range tt.events {
					uw.Chunk([]byte(e))
				}
				uw.Chunk([]byte(`{"type":"finish"}`))
				uw.Done()
			}))
			defer ts.Close()
			s, err := newClient(t, ts.URL, "k").CreateChat(t.Context(), client.Request{Content: "x"})
			require.NoError(t, err)
			_, err = s.Wait()
			require.NoError(t, err)
			assert.Equal(t, tt.want, s.ChatID())
		})
	}
}

// TestUIFaults runs the client against the UI mock with each of its
// faults: every fault must have a case here, saying what a caller meets.
func TestUIFaults(t *testing.T) {
	x := client.Request{Content: "x"}
	open := func(t *testing.T, ts *httptest.Server, opts ...client.Option) *client.ChatStream {
		t.Helper()
		s, err := newClient(t, ts.URL, mock.KeyValid, opts...).CreateChat(t.Context(), x)
		require.NoError(t, err)
		t.Cleanup(func() { s.Close() })
		return s
	}
	// throws: the stream stops with the client's throw at a chunk of type
	// typ, named name, as release rel reads it.
	throws := func(rel, typ, name string) func(*testing.T, *httptest.Server) {
		return func(t *testing.T, ts *httptest.Server) {
			s := open(t, ts, client.WithSDK(sdk.MustParse(rel)))
			types, err := readChunks(s)
			var re *uimessage.ReadError
			require.ErrorAs(t, err, &re, "ai@%s throws", rel)
			assert.Equal(t, typ, re.Type)
			assert.Equal(t, name, re.Name)
			assert.Len(t, types, re.Event-1, "every chunk before the throw is delivered, not the one the client throws at")
			assert.True(t, strings.HasPrefix(err.Error(), "chatwire: create chat: stream of chat "+s.ChatID()+": uimessage: line "), err.Error())
		}
	}
	reads := func(check func(*testing.T, *client.ChatStream)) func(*testing.T, *httptest.Server) {
		return func(t *testing.T, ts *httptest.Server) {
			s := open(t, ts)
			_, err := readChunks(s)
			require.NoError(t, err)
			check(t, s)
		}
	}
	text := func(s *client.ChatStream) string {
		m, _ := s.UIMessage()
		var b strings.Builder
		for i := range m.Len() {
			var p struct{ Type, Text string }
			require.NoError(t, json.Unmarshal(m.Part(i).AppendJSON(nil), &p))
			b.WriteString(p.Text)
		}
		return b.String()
	}
	cases := map[string]func(*testing.T, *httptest.Server){
		"ui-unknown-chunk-type":    throws("7", "progress", "AI_TypeValidationError"),
		"ui-delta-not-started":     throws("7", "text-delta", "AI_UIMessageStreamError"),
		"ui-delta-after-end":       throws("7", "text-delta", "AI_UIMessageStreamError"),
		"ui-output-unknown-call":   throws("7", "tool-output-available", "AI_UIMessageStreamError"),
		"ui-no-text-start":         throws("7", "text-delta", "AI_UIMessageStreamError"),
		"ui-finish-reason-unknown": throws("7", "finish", "AI_TypeValidationError"),
		"ui-chunk-from-7": func(t *testing.T, ts *httptest.Server) {
			throws("6", "custom", "AI_TypeValidationError")(t, ts)
			reads(func(t *testing.T, s *client.ChatStream) {
				assert.Contains(t, string(s.AppendMessageJSON(nil)), `"type":"custom"`, "ai 7 adds a custom part")
			})(t, ts)
		},
		"ui-no-final-blank-line": func(t *testing.T, ts *httptest.Server) {
			types, err := readChunks(open(t, ts))
			require.NoError(t, err)
			assert.Equal(t, "finish-step", types[len(types)-1], "the last event, finish, is dropped as the client drops it")
		},
		"ui-json-split": throws("7", "", "AI_JSONParseError"),
		"ui-content-type": reads(func(t *testing.T, s *client.ChatStream) {
			assert.Equal(t, client.ProtocolUI, s.Protocol(), "told from the first bytes")
		}),
		"ui-chat-id-missing": reads(func(t *testing.T, s *client.ChatStream) { assert.Empty(t, s.ChatID()) }),
		"ui-strict-unknown-key": func(t *testing.T, ts *httptest.Server) {
			throws("5.0.0", "finish", "AI_TypeValidationError")(t, ts)
			reads(func(t *testing.T, s *client.ChatStream) { assert.Equal(t, "stop", s.FinishReason()) })(t, ts)
		},
		"ui-no-done": func(t *testing.T, ts *httptest.Server) {
			types, err := readChunks(open(t, ts))
			require.NoError(t, err)
			assert.Equal(t, "finish", types[len(types)-1])
		},
		"ui-empty-stream": func(t *testing.T, ts *httptest.Server) {
			_, err := newClient(t, ts.URL, mock.KeyValid).CreateChat(t.Context(), x)
			require.ErrorIs(t, err, client.ErrUnexpectedResponse)
			assert.Contains(t, err.Error(), "the stream ended before its first chunk")
		},
		"ui-no-finish": reads(func(t *testing.T, s *client.ChatStream) { assert.NotEmpty(t, text(s)) }),
		"ui-text-unfinished": reads(func(t *testing.T, s *client.ChatStream) {
			assert.Contains(t, string(s.AppendMessageJSON(nil)), `"state":"streaming"`, "the text part without text-end")
		}),
		"ui-chunk-outside-data": reads(func(t *testing.T, s *client.ChatStream) {
			assert.NotEmpty(t, text(s))
		}),
		"ui-message-id-changes": reads(func(t *testing.T, s *client.ChatStream) {
			m, _ := s.UIMessage()
			assert.Equal(t, 2, m.Len(), "ai 7.0.173 starts the message anew at the second start")
		}),
		"ui-not-utf8":          reads(func(t *testing.T, s *client.ChatStream) { assert.Contains(t, text(s), "caf\uFFFD au lait") }),
		"ui-error-then-finish": throws("7", "error", "Error"),
		"ui-chat-id-changes": reads(func(t *testing.T, s *client.ChatStream) {
			assert.NotEqual(t, "chat_of_someone_else", s.ChatID(), "the first chat id named")
		}),
		"ui-chat-id-reused": func(t *testing.T, ts *httptest.Server) {
			first := open(t, ts)
			second := open(t, ts)
			assert.Equal(t, first.ChatID(), second.ChatID())
		},
	}
	runFaults(t, mock.UIFaults(), cases, uiMock)
}

// TestUIFollowUps: subscribe and publish of a UI chat are UI streams too.
func TestUIFollowUps(t *testing.T) {
	ts := uiMock(t, mock.Options{Lines: 2})
	c := newClient(t, ts.URL, mock.KeyValid)
	chat, err := c.CreateChatJSON(t.Context(), client.Request{Content: "x"})
	require.NoError(t, err)
	for name, open := range map[string]func() (*client.ChatStream, error){
		"subscribe": func() (*client.ChatStream, error) { return c.Subscribe(t.Context(), chat.ChatID) },
		"follow":    func() (*client.ChatStream, error) { return c.Follow(t.Context(), chat) },
		"publish": func() (*client.ChatStream, error) {
			return c.Publish(t.Context(), chat.ChatID, client.Request{Content: "more"})
		},
	} {
		t.Run(name, func(t *testing.T) {
			s, err := open()
			require.NoError(t, err)
			defer s.Close()
			assert.Equal(t, client.ProtocolUI, s.Protocol())
			assert.Equal(t, chat.ChatID, s.ChatID())
			types, err := readChunks(s)
			require.NoError(t, err)
			assert.Equal(t, "finish", types[len(types)-1])
		})
	}
}

// TestFollow: a chat created with stream false whose answer names its
// stream is followed through subscribe with that streamId.
func TestFollow(t *testing.T) {
	var got []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Method+" "+r.URL.RequestURI())
		switch {
		case r.Method == http.MethodPost:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"chatId":"chat_1","url":"/c/1","streamId":"strm_9","assistantMessageId":"msg_9"}`)
		case r.URL.Path == "/api/chat/chat_1/subscribe" && r.URL.Query().Get("streamId") == "strm_9":
			io.WriteString(w, `2:[{"chatId":"chat_1"}]`+"\n"+`0:"from the workflow"`+"\n")
		default:
			http.NotFound(w, r)
		}
	}))
	defer ts.Close()
	c := newClient(t, ts.URL, "k")
	chat, err := c.CreateChatJSON(t.Context(), client.Request{Content: "x", Backend: "WORKFLOW"})
	require.NoError(t, err)
	require.Equal(t, "strm_9", chat.StreamID)
	s, err := c.Follow(t.Context(), chat)
	require.NoError(t, err)
	res, err := s.Wait()
	require.NoError(t, err)
	assert.Equal(t, "from the workflow", res.Message.Content)
	assert.Equal(t, []string{"POST /api/chat", "GET /api/chat/chat_1/subscribe?streamId=strm_9"}, got)

	_, err = c.Follow(t.Context(), nil)
	assert.EqualError(t, err, "chatwire: follow: no chat")
	_, err = c.Follow(t.Context(), &client.Chat{ChatID: "nope"})
	var apiErr *client.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 404, apiErr.StatusCode)
}

func TestParseProtocol(t *testing.T) {
	for in, want := range map[string]client.Protocol{"v4": client.ProtocolV4, "UI": client.ProtocolUI, "auto": client.ProtocolAuto, "": client.ProtocolAuto} {
		p, err := client.ParseProtocol(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, p, in)
		if in != "" {
			assert.Equal(t, strings.ToLower(in), p.String())
		}
	}
	_, err := client.ParseProtocol("v5")
	assert.EqualError(t, err, `chatwire: unknown protocol "v5": AI SDK 5, 6 and 7 speak the UI message stream; use ui`)
}

// TestV4Message: AppendMessageJSON of a v4 stream is its Result's JSON.
func TestV4Message(t *testing.T) {
	s, err := newClient(t, newMock(t, mock.Options{Lines: 2}).URL, mock.KeyValid).CreateChat(t.Context(), client.Request{Content: "x"})
	require.NoError(t, err)
	res, err := s.Wait()
	require.NoError(t, err)
	assert.Equal(t, string(res.AppendJSON(nil)), string(s.AppendMessageJSON(nil)))
	_, ok := s.UIMessage()
	assert.False(t, ok, "no UIMessage of a v4 stream")
	assert.Equal(t, client.ProtocolV4, s.Protocol())
	var ae *message.AssemblyError
	assert.False(t, errors.As(s.Err(), &ae))
}
