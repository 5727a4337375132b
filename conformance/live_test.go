package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance/internal/catalogue"
	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/protocol"
)

// testProbe returns the catalogue's probe id.
func testProbe(t *testing.T, id string) *Probe {
	t.Helper()
	for _, p := range catalogue.Probes(catalogue.Options{}) {
		if p.ID == id {
			return &p
		}
	}
	require.Failf(t, "no probe", "probe %s is not in the catalogue", id)
	return nil
}

// newTestLive returns a Live exchanger for h with short limits.
func newTestLive(t *testing.T, h http.Handler, opts func(*LiveOptions)) *Live {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	o := LiveOptions{BaseURL: srv.URL, Keys: testKeys, FirstLineTimeout: 2 * time.Second, Timeout: 5 * time.Second}
	if opts != nil {
		opts(&o)
	}
	l, err := NewLive(o)
	require.NoError(t, err, "NewLive")
	return l
}

// lines writes n stream lines and then, when stall, waits for the client
// to go away.
func lines(n int, stall bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(`2:[{"chatId":"c"}]` + "\n"))
		for i := 1; i < n; i++ {
			fmt.Fprintf(w, "0:\"line %d\"\n", i)
		}
		w.(http.Flusher).Flush()
		if stall {
			waitGone(r)
		}
	}
}

// waitGone waits until the client goes away. It reads the request body
// first: the server notices a closed connection only once it has.
func waitGone(r *http.Request) {
	io.Copy(io.Discard, r.Body)
	<-r.Context().Done()
}

func TestLiveReading(t *testing.T) {
	cases := []struct {
		name      string
		probe     string
		h         http.HandlerFunc
		opts      func(*LiveOptions)
		status    int // 0: no response head
		lines     int
		end       string
		endErr    string // substring of End.Err
		lastNL    bool
		firstText string
	}{
		{name: "a first-line probe stops after the first line", probe: "model/current[gamma-k3]", h: lines(10, true),
			status: 200, lines: 1, end: transcript.EndCap, lastNL: true, firstText: `2:[{"chatId":"c"}]`},
		{name: "a first-line probe skips blank lines", probe: "model/current[gamma-k3]", h: func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("\r\n\n2:[{\"chatId\":\"c\"}]\n0:\"x\"\n"))
		}, status: 200, lines: 3, end: transcript.EndCap, lastNL: true, firstText: "\r"},
		{name: "a first-line probe reads a header-less UI stream past its comments to its first event", probe: "model/current[gamma-k3]", h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.Write([]byte(": ok\n\nevent: message\ndata: {\"type\":\"start\"}\n\ndata: {\"type\":\"start-step\"}\n\n"))
			w.(http.Flusher).Flush()
			waitGone(r)
		}, status: 200, lines: 5, end: transcript.EndCap, lastNL: true, firstText: ": ok"},
		{name: "a first-line probe stops at the first v4 line after SSE comments", probe: "model/current[gamma-k3]", h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.Write([]byte(": ok\n2:[{\"chatId\":\"c\"}]\n0:\"x\"\n"))
			w.(http.Flusher).Flush()
			waitGone(r)
		}, status: 200, lines: 2, end: transcript.EndCap, lastNL: true, firstText: ": ok"},
		{name: "a stream is read to the line cap", probe: "stream-default", h: lines(50, true), opts: func(o *LiveOptions) { o.MaxLines = 5 },
			status: 200, lines: 5, end: transcript.EndCap, lastNL: true},
		{name: "a stream is read to its end", probe: "stream-default", h: lines(50, false),
			status: 200, lines: 50, end: transcript.EndEOF, lastNL: true},
		{name: "the byte cap cuts a long line", probe: "stream-default", h: func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`0:"` + strings.Repeat("x", 300<<10) + "\"\n"))
		}, opts: func(o *LiveOptions) { o.MaxBytes = 100 << 10 }, status: 200, lines: 1, end: transcript.EndCap, lastNL: false},
		{name: "a JSON 200 is read whole", probe: "model/current[gamma-k3]", h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte("{\n  \"chatId\": \"c\",\n  \"url\": \"https://x/c\"\n}\n"))
		}, status: 200, lines: 4, end: transcript.EndEOF, lastNL: true, firstText: "{"},
		{name: "an error body is read whole", probe: "model/current[gamma-k3]", h: func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(422)
			w.Write([]byte("line one\nline two"))
		}, status: 422, lines: 2, end: transcript.EndEOF, lastNL: false},
		{name: "a stalled stream times out after its first line", probe: "stream-default", h: lines(3, true),
			opts:   func(o *LiveOptions) { o.FirstLineTimeout, o.IdleTimeout = 2*time.Second, 20*time.Millisecond },
			status: 200, lines: 3, end: transcript.EndTimeout, endErr: "no line for", lastNL: true},
		{name: "a head without a first line times out", probe: "stream-default", h: func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(200)
			w.(http.Flusher).Flush()
			waitGone(r)
		}, opts: func(o *LiveOptions) { o.FirstLineTimeout = 20 * time.Millisecond },
			status: 200, lines: 0, end: transcript.EndTimeout, endErr: "no first line within"},
		{name: "no head times out", probe: "stream-default", h: func(w http.ResponseWriter, r *http.Request) {
			waitGone(r)
		}, opts: func(o *LiveOptions) { o.FirstLineTimeout = 20 * time.Millisecond },
			status: 0, end: transcript.EndTimeout, endErr: "no response head"},
		{name: "a stream still sending at the time limit is read to its cap", probe: "stream-default", h: func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			for i := 0; r.Context().Err() == nil; i++ {
				fmt.Fprintf(w, "0:\"%d\"\n", i)
				w.(http.Flusher).Flush()
				time.Sleep(time.Millisecond)
			}
		}, opts: func(o *LiveOptions) { o.Timeout, o.MaxLines = 30*time.Millisecond, 1<<20 },
			status: 200, end: transcript.EndCap, lines: -1},
		{name: "a redirect is not followed", probe: "stream-default", h: func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/elsewhere", http.StatusTemporaryRedirect)
		}, status: 307, end: transcript.EndEOF, lines: -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := newTestLive(t, c.h, c.opts)
			x, err := l.Do(context.Background(), testProbe(t, c.probe))
			require.NoError(t, err, "Do")
			if c.status == 0 {
				assert.Nil(t, x.Response, "response head")
			} else if assert.NotNil(t, x.Response, "response head") {
				assert.Equal(t, c.status, x.Response.Status, "status")
			}
			assert.Equal(t, c.end, x.End.Reason, "end reason (err %q)", x.End.Err)
			assert.Contains(t, x.End.Err, c.endErr, "end error")
			if c.lines >= 0 {
				require.Len(t, x.Lines, c.lines, "lines read")
			}
			assert.Equal(t, len(x.Lines), x.End.Lines, "End.Lines")
			if c.lines > 0 {
				assert.Equal(t, c.lastNL, x.Lines[len(x.Lines)-1].NL, "NL of the last line")
			}
			if c.firstText != "" {
				assert.Equal(t, c.firstText, string(x.Lines[0].Text), "first line")
			}
		})
	}
}

// TestLiveObserver checks the order of the observer's calls and the
// numbering of a probe's attempts.
func TestLiveObserver(t *testing.T) {
	var events []string
	obs := Observer{
		OnRequest: func(p *Probe, ex int, r *transcript.Request) {
			events = append(events, fmt.Sprintf("request %s %d %s", p.ID, ex, r.Header.Get("Authorization")))
		},
		OnResponse: func(p *Probe, ex int, r *transcript.Response) {
			events = append(events, fmt.Sprintf("response %d %d", ex, r.Status))
		},
		OnLine: func(p *Probe, ex int, l transcript.Line) {
			events = append(events, fmt.Sprintf("line %d %s", ex, l.Text))
		},
		OnEnd: func(p *Probe, ex int, x *transcript.Exchange) {
			events = append(events, fmt.Sprintf("end %d %s", ex, x.End.Reason))
		},
	}
	l := newTestLive(t, lines(2, false), func(o *LiveOptions) { o.Observer = Observers(obs, Observer{}) })
	p := testProbe(t, "stream-default")
	for range 2 {
		_, err := l.Do(context.Background(), p)
		require.NoError(t, err, "Do")
	}
	want := []string{
		"request stream-default 0 Bearer " + testKeyValid, "response 0 200", `line 0 2:[{"chatId":"c"}]`, `line 0 0:"line 1"`, "end 0 eof",
		"request stream-default 1 Bearer " + testKeyValid, "response 1 200", `line 1 2:[{"chatId":"c"}]`, `line 1 0:"line 1"`, "end 1 eof",
	}
	assert.Equal(t, want, events, "observer calls")
}

func TestLiveCredentials(t *testing.T) {
	var got []string
	h := func(w http.ResponseWriter, r *http.Request) {
		v, ok := r.Header["Authorization"]
		got = append(got, fmt.Sprint(ok, v))
		w.WriteHeader(401)
	}
	l := newTestLive(t, http.HandlerFunc(h), nil)
	for _, id := range []string{"auth/missing-key", "auth/empty-bearer", "auth/basic-scheme", "credits/no-credits", "auth/other-team"} {
		_, err := l.Do(context.Background(), testProbe(t, id))
		require.NoError(t, err, "Do(%s)", id)
	}
	// The server sees "Bearer" for "Bearer ": net/http trims a header value.
	want := []string{"false []", "true [Bearer]", "true [Basic " + testKeyValid + "]", "true [Bearer " + testKeyNoCredits + "]", "true [Bearer " + testKeyOtherTeam + "]"}
	assert.Equal(t, want, got, "Authorization headers sent")

	_, err := l.Do(context.Background(), testProbe(t, "auth/unknown-key"))
	require.NoError(t, err, "Do(auth/unknown-key)")
	unknown := strings.TrimPrefix(got[len(got)-1], "true [Bearer ")
	assert.True(t, strings.HasPrefix(unknown, "tk_test_"), "the unknown key %q keeps the valid key's prefix", unknown)
	assert.NotContains(t, unknown, "valid", "the unknown key is not the valid key")

	noKeys := newTestLive(t, http.HandlerFunc(h), func(o *LiveOptions) { o.Keys = Keys{} })
	for _, id := range []string{"body/not-json", "auth/unknown-key", "credits/no-credits"} {
		_, err := noKeys.Do(context.Background(), testProbe(t, id))
		assert.Error(t, err, "Do(%s) without its key", id)
	}
}

func TestLivePacing(t *testing.T) {
	l := newTestLive(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(400) }),
		func(o *LiveOptions) { o.Rate = 0.001 }) // one request per 1000 s
	p := testProbe(t, "body/not-json")
	_, err := l.Do(context.Background(), p)
	require.NoError(t, err, "the first request goes out at once")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = l.Do(ctx, p)
	assert.True(t, errors.Is(err, context.Canceled), "the second request waits for its slot until the run is cancelled, got %v", err)
	x, err := l.Do(context.Background(), testProbe(t, "rate-limit/burst"))
	require.NoError(t, err, "the burst is not paced")
	assert.Equal(t, 400, x.Response.Status, "burst status")
}

func TestLiveUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	l, err := NewLive(LiveOptions{BaseURL: url, Keys: testKeys})
	require.NoError(t, err, "NewLive")
	x, err := l.Do(context.Background(), testProbe(t, "auth/missing-key"))
	require.NoError(t, err, "a connection failure is an exchange")
	assert.Nil(t, x.Response, "response of a closed port")
	assert.Equal(t, transcript.EndReset, x.End.Reason, "end of a refused connection")
	assert.NotEmpty(t, x.End.Err, "the connection error")
}

// TestReadBackIsTheLiveReading reads exchanges live, then reads their
// recorded lines again as a replay does: the same reading, field for
// field, for a stream, a JSON answer, an error and a stream read only to
// its first line, of both protocols.
func TestReadBackIsTheLiveReading(t *testing.T) {
	for _, proto := range []protocol.Protocol{protocol.V4, protocol.UI} {
		srv, err := mock.New(mock.Options{Protocol: proto, Seed: 1})
		require.NoError(t, err)
		l := newTestLive(t, srv, func(o *LiveOptions) { o.Keys = Keys{Valid: mock.KeyValid} })
		for _, id := range []string{"stream-default", "json", "model/current[gamma-k3]", "body/not-json", "auth/unknown-key"} {
			t.Run(proto.String()+"/"+id, func(t *testing.T) {
				p := testProbe(t, id)
				x, err := l.Do(context.Background(), p)
				require.NoError(t, err)
				require.NotNil(t, x.Reading, "the live exchange's reading")
				again := *x
				again.Reading = nil
				readBack(&again, p, UIOptions{})
				assert.Equal(t, x.Reading, again.Reading, "the reading of the recorded lines is the live reading")
			})
		}
	}
}
