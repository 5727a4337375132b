package live

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/resumable"
	"github.com/chatwire/chatwire/uistream"
)

// resumeService is a service of this API whose streams resume by every
// contract: each POST writes the items of one mock stream through a
// resumable.Writer, and resumable.Handlers answer the resumes; fault
// makes its resumes harm the client as a named bug does.
type resumeService struct {
	ui    bool
	items [][]byte // the stream's lines (v4) or chunks' data (UI)
	store *resumable.Memory
	h     *resumable.Handlers
	fault string       // "": conformant; "early", "late", "altered", "no-stream"
	posts atomic.Int64 // the creates so far: each a chat of its own
}

func newResumeService(t *testing.T, proto protocol.Protocol, fault string) *httptest.Server {
	t.Helper()
	mp := mock.ProtocolV4
	if proto == protocol.UI {
		mp = mock.ProtocolUI
	}
	srv, err := mock.New(mock.Options{Protocol: mp, Seed: 3})
	require.NoError(t, err)
	req := httptest.NewRequest("POST", "/api/chat", strings.NewReader(`{"content":"x"}`))
	req.Header.Set("Authorization", "Bearer "+mock.KeyValid)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	require.Equal(t, 200, rec.Code)
	s := &resumeService{ui: proto == protocol.UI, store: resumable.NewMemory(resumable.MemoryOptions{}), fault: fault}
	if s.ui {
		d := uistream.NewDecoder(rec.Body)
		for d.Next() {
			s.items = append(s.items, append([]byte(nil), d.Chunk().Data...))
		}
	} else {
		d := linestream.NewDecoder(rec.Body)
		for d.Next() {
			s.items = append(s.items, append([]byte(nil), d.Part().Raw...))
		}
	}
	require.Greater(t, len(s.items), 8)
	s.h = &resumable.Handlers{Store: s.store, Authenticate: func(w http.ResponseWriter, r *http.Request) (string, bool) {
		return "team", r.Header.Get("Authorization") == "Bearer "+mock.KeyValid
	}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/chat", s.post)
	mux.HandleFunc("GET /api/chat/{id}/stream", s.resume(s.h.Stream))
	mux.HandleFunc("GET /api/chat/{id}/subscribe", s.resume(s.h.Subscribe))
	mux.HandleFunc("GET /api/chat", s.resume(s.h.AISDK4))
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts
}

func (s *resumeService) frame(it []byte) []byte {
	if s.ui {
		return uistream.AppendChunk(nil, it)
	}
	return append(append([]byte(nil), it...), '\n')
}

// post writes the stream, its chat id the first line's (v4) or the start
// chunk's, a new chat each time.
func (s *resumeService) post(w http.ResponseWriter, r *http.Request) {
	n := strconv.FormatInt(s.posts.Add(1), 10)
	chatID := "chat_" + n
	p := resumable.V4
	if s.ui {
		p = resumable.UI
		uistream.Headers(w.Header())
	} else {
		linestream.SetHeaders(w.Header())
	}
	sw := resumable.NewWriter(context.Background(), s.store, w, resumable.Meta{ID: "strm_" + n, ChatID: chatID, RunID: "run_" + n, Owner: "team", Protocol: p})
	w.WriteHeader(http.StatusOK)
	for i, it := range s.items {
		if i == 0 {
			it = s.withChatID(it, chatID)
		}
		sw.Write(s.frame(it))
		sw.Flush()
	}
	if s.ui {
		sw.Write(uistream.AppendDone(nil))
	}
	sw.Close()
}

// withChatID returns the first item with the chat id in place of the
// mock's.
func (s *resumeService) withChatID(it []byte, id string) []byte {
	if !s.ui {
		return linestream.AppendChatIDPart(nil, id)[:len(linestream.AppendChatIDPart(nil, id))-1]
	}
	return []byte(`{"type":"start","messageMetadata":{"chatId":"` + id + `"},"messageId":"msg_1"}`)
}

// resume answers a resume with h, or as the fault harms the client: a
// resume from one index too early or too late, a replay whose second item
// is altered, a 204.
func (s *resumeService) resume(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		n, _ := strconv.Atoi(q.Get("startIndex"))
		switch {
		case s.fault == "no-stream":
			w.WriteHeader(http.StatusNoContent)
			return
		case s.fault == "early" && n > 0:
			q.Set("startIndex", strconv.Itoa(n-1))
		case s.fault == "late" && n > 0:
			q.Set("startIndex", strconv.Itoa(n+1))
		case s.fault == "altered" && !q.Has("startIndex"):
			rec := httptest.NewRecorder()
			h(rec, r)
			body := rec.Body.Bytes()
			if s.ui {
				body = bytes.Replace(body, []byte(`"type":"start-step"`), []byte(`"type":"start-step","x":1`), 1)
			} else {
				body = bytes.Replace(body, []byte("\nf:{"), []byte("\nf:{\"x\":1,"), 1)
			}
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			w.Write(body)
			return
		}
		r.URL.RawQuery = q.Encode()
		h(w, r)
	}
}

func runCut(t *testing.T, url string, proto protocol.Protocol, contract string, cut int) *Report {
	t.Helper()
	r, err := NewRunner(Config{BaseURL: url, Key: mock.KeyValid, Requests: 4, Concurrency: 2, Protocol: proto, CutAfter: cut, Resume: contract})
	require.NoError(t, err)
	return r.Run(context.Background())
}

// TestCutResume: the meter cuts each stream and resumes it by each
// contract; against a conformant service every stream reads whole across
// the cut, with a TTFR; against a service whose resume harms the client,
// each request fails with the kind that names the harm.
func TestCutResume(t *testing.T) {
	for _, tt := range []struct {
		proto    protocol.Protocol
		contract string
	}{
		{protocol.UI, "ai-sdk"},
		{protocol.UI, "workflow"},
		{protocol.UI, "subscribe"},
		{protocol.V4, "ai-sdk-4"},
		{protocol.V4, "subscribe"},
	} {
		t.Run(tt.proto.String()+" "+tt.contract, func(t *testing.T) {
			replays := tt.contract == "ai-sdk" || tt.contract == "ai-sdk-4"
			for _, f := range []struct {
				fault, kind string
				lost, dup   int
			}{
				{"", "", 0, 0},
				{"early", ErrResumeDuplicated, 0, 1},
				{"late", ErrResumeLost, 1, 0},
				{"altered", ErrResumeMismatch, 0, 0},
				{"no-stream", ErrResumeNoStream, 0, 0},
			} {
				if replays && (f.fault == "early" || f.fault == "late") || !replays && f.fault == "altered" {
					continue // the contract has no index to get wrong, or no replay to alter
				}
				t.Run("fault "+f.fault, func(t *testing.T) {
					ts := newResumeService(t, tt.proto, f.fault)
					uncut := runCut(t, ts.URL, tt.proto, "", 0)
					require.Equal(t, 4, uncut.OK, "%v", uncut.Errors)
					rep := runCut(t, ts.URL, tt.proto, tt.contract, 3)
					rr := rep.Resume
					require.NotNil(t, rr)
					assert.Equal(t, 4, rr.Cut, "every stream is cut")
					if f.kind == "" {
						assert.Equal(t, 4, rep.OK, "%v %+v", rep.Errors, rep.Samples[0])
						assert.Equal(t, 4, rr.Whole)
						assert.Equal(t, 4, rr.TTFR.N, "a TTFR for every stream")
						assert.Equal(t, uncut.Lines, rep.Lines, "the units across the cut are an uncut read's")
						assert.Equal(t, uncut.Samples[0].End, rep.Samples[0].End)
						assert.Len(t, rep.Samples[0].Gaps, uncut.Samples[0].Lines-2, "the gap across the cut is not a gap")
						if replays {
							assert.Equal(t, 3, rep.Samples[0].Resume.Replayed)
						}
						return
					}
					assert.Equal(t, 4, rep.Errors[f.kind], "the harm is named: %v, %s", rep.Errors, rep.Samples[0].Err)
					assert.Equal(t, 4*f.lost, rr.LostUnits)
					assert.Equal(t, 4*f.dup, rr.DuplicatedUnits)
					assert.Zero(t, rr.Whole)
					var text strings.Builder
					require.NoError(t, WriteText(&text, rep))
					assert.Contains(t, text.String(), "resume ("+tt.contract+", each stream cut after 3 ")
					assert.Contains(t, text.String(), f.kind)
				})
			}
		})
	}
}

// TestCutResumeJSON: the resume's figures go through the JSON report and
// back.
func TestCutResumeJSON(t *testing.T) {
	ts := newResumeService(t, protocol.UI, "")
	rep := runCut(t, ts.URL, protocol.UI, "workflow", 2)
	var b bytes.Buffer
	require.NoError(t, WriteJSON(&b, rep))
	assert.Contains(t, b.String(), `"resume": {`)
	assert.Contains(t, b.String(), `"contract": "workflow"`)
	back, err := ReadJSON(&b)
	require.NoError(t, err)
	require.NotNil(t, back.Resume)
	assert.Equal(t, rep.Resume.Whole, back.Resume.Whole)
	assert.Equal(t, rep.Resume.TTFR.N, back.Resume.TTFR.N)
	var page bytes.Buffer
	require.NoError(t, WriteHTML(&page, rep, nil))
	assert.Contains(t, page.String(), "<h2>Resume</h2>")
}

// TestCutConfig: a cut without a contract, a contract without a cut, an
// unknown contract and a contract of the other protocol are refused.
func TestCutConfig(t *testing.T) {
	for _, tt := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"no contract", Config{CutAfter: 3}, "needs the resume contract"},
		{"no cut", Config{Resume: "ai-sdk"}, "without a cut"},
		{"unknown", Config{CutAfter: 3, Resume: "ai-sdk-5"}, `unknown resume contract "ai-sdk-5"`},
		{"other protocol", Config{CutAfter: 3, Resume: "ai-sdk", Protocol: protocol.V4}, "resumes the ui stream, not the v4 stream"},
		{"negative", Config{CutAfter: -1, Resume: "ai-sdk"}, "must not be negative"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.BaseURL, tt.cfg.Requests, tt.cfg.Concurrency = "http://x", 1, 1
			_, err := NewRunner(tt.cfg)
			assert.ErrorContains(t, err, tt.want)
		})
	}
}
