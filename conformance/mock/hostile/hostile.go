package hostile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
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
)

// Modes lists every mode.
func Modes() []Mode {
	return []Mode{Bomb400, BombJSON, BombStream, EndlessLine, HeaderFlood, Garbage, ResetMid, Drip, BadGzip}
}

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
	case Bomb400, BombJSON, BombStream, EndlessLine, BadGzip:
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
