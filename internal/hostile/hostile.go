package hostile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Mode is what a [Server] sends to every request.
type Mode string

// The modes.
const (
	Bomb400     Mode = "bomb-400"     // 400, a gzip body that inflates without end ({"error":"aaaa…)
	BombJSON    Mode = "bomb-json"    // 200 application/json, a gzip body that inflates without end ({"chatId":"aaaa…)
	BombStream  Mode = "bomb-stream"  // 200 text/plain, a gzip stream of one endless first line (2:[{"chatId":"aaaa…)
	EndlessLine Mode = "endless-line" // 200 text/plain, a good first line, then one line without end, uncompressed
	HeaderFlood Mode = "header-flood" // a 200 head of 20 MB of headers
	Garbage     Mode = "garbage"      // bytes that are not HTTP (an SSH banner)
	ResetMid    Mode = "reset-mid"    // 200 text/plain, a good first line, half a line, then a TCP reset
	Drip        Mode = "drip"         // a good 200 stream, one byte per Server.Drip interval, the status line included
	BadGzip     Mode = "bad-gzip"     // 200, Content-Encoding: gzip over a body that is not gzip

	// The UI message stream's (Server-Sent Events) hostile answers: each a
	// 200 with the SDK's headers (text/event-stream,
	// x-vercel-ai-ui-message-stream: v1) and a good start event first
	// (but the keep-alives).
	SSEEndlessEvent Mode = "sse-endless-event" // data lines ("data: aaa…") one after another, never a blank line: one endless event
	SSEEndlessData  Mode = "sse-endless-data"  // one data line without end: a text delta of gigabytes
	SSEKeepAlive    Mode = "sse-keepalive"     // ": keep-alive" comments and blank lines without end, never an event with data
	SSEDrip         Mode = "sse-drip"          // the head at once, then a good stream one byte per Server.Drip interval
	SSETinyEvents   Mode = "sse-tiny-events"   // {"type":"start-step"} events without end, 30 bytes each
	SSEInvalidUTF8  Mode = "sse-invalid-utf8"  // text deltas with invalid UTF-8 in their strings, then an event with a byte 0xff where JSON wants a value
	SSEBomb         Mode = "sse-bomb"          // a gzip body that inflates to one endless text delta (data: {"type":"text-delta",…"delta":"aaaa…)
)

// Modes lists every mode.
func Modes() []Mode {
	return append([]Mode{Bomb400, BombJSON, BombStream, EndlessLine, HeaderFlood, Garbage, ResetMid, Drip, BadGzip}, SSEModes()...)
}

// SSEModes lists the modes of the UI message stream.
func SSEModes() []Mode {
	return []Mode{SSEEndlessEvent, SSEEndlessData, SSEKeepAlive, SSEDrip, SSETinyEvents, SSEInvalidUTF8, SSEBomb}
}

// sseStart is the good first event of the SSE modes.
const sseStart = "data: {\"type\":\"start\",\"messageMetadata\":{\"chatId\":\"c1\"}}\n\n"

// FloodBytes is how large the header block of [HeaderFlood] is.
const FloodBytes = 20 << 20

// A Server answers every request in one hostile mode.
type Server struct {
	URL  string // http://127.0.0.1:port
	Mode Mode

	ln   net.Listener
	http *httptest.Server
	wg   sync.WaitGroup
	drip time.Duration
	done chan struct{}
}

// Start starts a server in mode m on 127.0.0.1. drip is the pause between
// the bytes of [Drip] (0 means a second). Close stops it.
func Start(m Mode, drip time.Duration) (*Server, error) {
	if drip <= 0 {
		drip = time.Second
	}
	s := &Server{Mode: m, drip: drip, done: make(chan struct{})}
	switch m {
	case HeaderFlood, Garbage, ResetMid, Drip:
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("hostile %s: %w", m, err)
		}
		s.ln, s.URL = ln, "http://"+ln.Addr().String()
		s.wg.Go(s.accept)
		return s, nil
	case Bomb400, BombJSON, BombStream, EndlessLine, BadGzip,
		SSEEndlessEvent, SSEEndlessData, SSEKeepAlive, SSEDrip, SSETinyEvents, SSEInvalidUTF8, SSEBomb:
		s.http = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
		s.URL = s.http.URL
		return s, nil
	}
	return nil, fmt.Errorf("hostile: unknown mode %q", m)
}

// Close stops the server and waits for its connections to end.
func (s *Server) Close() {
	close(s.done)
	if s.http != nil {
		s.http.CloseClientConnections()
		s.http.Close()
		return
	}
	s.ln.Close()
	s.wg.Wait()
}

// serveHTTP answers the modes an http.Server can send.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	switch s.Mode {
	case Bomb400:
		bomb(w, http.StatusBadRequest, "application/json", `{"error":"`)
	case BombJSON:
		bomb(w, http.StatusOK, "application/json", `{"chatId":"`)
	case BombStream:
		bomb(w, http.StatusOK, "text/plain; charset=utf-8", `2:[{"chatId":"`)
	case EndlessLine:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("2:[{\"chatId\":\"c1\"}]\n0:\""))
		endless(w, nil)
	case BadGzip:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write([]byte("2:[{\"chatId\":\"c1\"}]\n0:\"not gzip at all\"\n"))
	default:
		s.serveSSE(w)
	}
}

// serveSSE answers the modes of the UI message stream.
func (s *Server) serveSSE(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Vercel-Ai-Ui-Message-Stream", "v1")
	if s.Mode == SSEBomb {
		bomb(w, http.StatusOK, "text/event-stream", sseStart+`data: {"type":"text-delta","id":"t","delta":"`)
		return
	}
	w.WriteHeader(http.StatusOK)
	flush := func() {
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	if s.Mode == SSEDrip {
		flush() // the head at once
		body := sseStart + "data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"hello\"}\n\ndata: [DONE]\n\n"
		t := time.NewTicker(s.drip)
		defer t.Stop()
		for i := range len(body) {
			if _, err := w.Write([]byte{body[i]}); err != nil {
				return
			}
			flush()
			select {
			case <-t.C:
			case <-s.done:
				return
			}
		}
		return
	}
	if s.Mode != SSEKeepAlive {
		if _, err := io.WriteString(w, sseStart); err != nil {
			return
		}
	}
	switch s.Mode {
	case SSEEndlessEvent:
		repeat(w, s.done, "data: "+strings.Repeat("a", 1000)+"\n")
	case SSEEndlessData:
		io.WriteString(w, `data: {"type":"text-delta","id":"t","delta":"`)
		endless(w, s.done)
	case SSEKeepAlive:
		repeat(w, s.done, ": keep-alive\n\n")
	case SSETinyEvents:
		repeat(w, s.done, "data: {\"type\":\"start-step\"}\n\n")
	case SSEInvalidUTF8:
		io.WriteString(w, "data: {\"type\":\"text-start\",\"id\":\"t\"}\n\n"+
			"data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"caf\xe9 \xff\xfe\"}\n\n"+
			"data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\xff}\n\n"+
			"data: [DONE]\n\n")
	}
}

// repeat writes unit to w again and again, in blocks of about 64 KiB,
// until a write fails or done is closed.
func repeat(w io.Writer, done <-chan struct{}, unit string) {
	block := []byte(strings.Repeat(unit, max(1, 64<<10/len(unit))))
	for {
		select {
		case <-done:
			return
		default:
		}
		if _, err := w.Write(block); err != nil {
			return
		}
	}
}

// bomb writes a gzip body that inflates to prefix and then 'a's until the
// client goes away: gzip members written one after another, a gzip reader
// reads them as one stream, about 1 KiB on the wire per MiB inflated.
func bomb(w http.ResponseWriter, status int, contentType, prefix string) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Encoding", "gzip")
	w.WriteHeader(status)
	if _, err := w.Write(gzipped([]byte(prefix))); err != nil {
		return
	}
	for {
		if _, err := w.Write(mebibomb()); err != nil {
			return
		}
	}
}

// mebibomb is one gzip member of 1 MiB of 'a', compressed once.
var mebibomb = sync.OnceValue(func() []byte { return gzipped(bytes.Repeat([]byte("a"), 1<<20)) })

// gzipped returns b as one gzip member.
func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	gz.Write(b)
	gz.Close()
	return buf.Bytes()
}

var chunk = []byte(strings.Repeat("a", 64<<10))

// endless writes 'a's to w until a write fails or done is closed.
func endless(w interface{ Write([]byte) (int, error) }, done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		default:
		}
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
}

// accept serves the modes written on the raw connection.
func (s *Server) accept() {
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.wg.Go(func() {
			defer c.Close()
			go func() { <-s.done; c.Close() }()
			s.serveConn(c)
		})
	}
}

// serveConn reads a request head and answers it in the server's mode.
func (s *Server) serveConn(c net.Conn) {
	br := bufio.NewReader(c)
	for {
		l, err := br.ReadString('\n')
		if err != nil {
			return
		}
		if l == "\r\n" {
			break
		}
	}
	switch s.Mode {
	case Garbage:
		c.Write([]byte("SSH-2.0-OpenSSH_9.6\r\nProtocol mismatch.\n"))
	case HeaderFlood:
		c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"))
		line := "X-Flood: " + strings.Repeat("a", 1000) + "\r\n"
		for n := 0; n < FloodBytes; n += len(line) {
			if _, err := c.Write([]byte(line)); err != nil {
				return
			}
		}
		c.Write([]byte("\r\n2:[{\"chatId\":\"c1\"}]\n"))
	case ResetMid:
		c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
			"2:[{\"chatId\":\"c1\"}]\n0:\"half a li"))
		time.Sleep(20 * time.Millisecond) // let the client read what came first
		if tc, ok := c.(*net.TCPConn); ok {
			tc.SetLinger(0) // close with RST, not FIN
		}
	case Drip:
		resp := "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n2:[{\"chatId\":\"c1\"}]\n0:\"hello\"\n"
		t := time.NewTicker(s.drip)
		defer t.Stop()
		for i := range len(resp) {
			if _, err := c.Write([]byte{resp[i]}); err != nil {
				return
			}
			select {
			case <-t.C:
			case <-s.done:
				return
			}
		}
	}
}
