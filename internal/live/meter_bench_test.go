package live

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/linestream"
)

// benchLines is the number of 0: lines per response in the meter
// benchmarks: long streams, so per-request costs (the POST, the headers)
// do not hide the per-line cost.
const benchLines = 20_000

// BenchmarkStreamRead answers "is the meter the bottleneck?": it reads the
// same responses from a loopback server with the meter (the runner's whole
// request path: strict decoding of every line, read stamps, gaps), with the
// strict decoder alone, and with plain readers that do no work per line, so
// benchstat compares them column by column (-col /reader). Inputs:
//
//   - server=mock: the built-in mock at pace 0, as fast as it streams: one
//     write and flush per line, like a real streaming service.
//   - server=bulk: the same body, recorded once from the mock, written in
//     64 KiB writes: the server does nearly nothing, so the readers' own
//     costs show.
//
// lines/s is the figure to compare; the goal is meter ≥ 0.8 × plain.
// cpu-ns/line, the process's CPU time per line, tells the readers' cost
// apart when the machine is shared. BenchmarkStreamReadRatio takes the
// ratio itself, request by request.
func BenchmarkStreamRead(b *testing.B) {
	servers := startStreamServers(b)
	for _, srv := range servers.list {
		for _, reader := range readers {
			b.Run(fmt.Sprintf("server=%s/reader=%s", srv.name, reader), func(b *testing.B) {
				sr := newStreamReaders(b, srv.url, servers.lines, len(servers.body))
				b.ReportAllocs()
				b.SetBytes(int64(len(servers.body)))
				cpu0 := cpuTime()
				var elapsed time.Duration
				for b.Loop() {
					elapsed += sr.read(b, reader)
				}
				cpu := cpuTime() - cpu0
				b.ReportMetric(float64(b.N*servers.lines)/elapsed.Seconds(), "lines/s")
				// The process's CPU time (server, client and GC) per line:
				// steadier than wall time when other work shares the machine.
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*servers.lines), "cpu-ns/line")
			})
		}
	}
}

// BenchmarkStreamReadRatio reads the same responses as BenchmarkStreamRead,
// but every iteration reads one response with each reader in turn, so a
// busy spell of the machine slows all of them alike, and reports the
// meter's lines/s as a fraction of each other reader's
// (meter/lines = 0.9 means the meter reads 90% as many lines a second).
func BenchmarkStreamReadRatio(b *testing.B) {
	servers := startStreamServers(b)
	for _, srv := range servers.list {
		b.Run("server="+srv.name, func(b *testing.B) {
			sr := newStreamReaders(b, srv.url, servers.lines, len(servers.body))
			elapsed := map[string]time.Duration{}
			for b.Loop() {
				for _, reader := range readers {
					elapsed[reader] += sr.read(b, reader)
				}
			}
			for _, reader := range readers[1:] {
				b.ReportMetric(elapsed[reader].Seconds()/elapsed["meter"].Seconds(), "meter/"+reader)
			}
			b.ReportMetric(float64(b.N*servers.lines)/elapsed["meter"].Seconds(), "meter-lines/s")
		})
	}
}

// readers are the ways the benchmarks read a response; the meter first.
var readers = []string{"meter", "decode", "lines", "copy"}

type streamServers struct {
	list  []struct{ name, url string }
	body  []byte // one response of the mock
	lines int    // its lines
}

// startStreamServers starts the mock at pace 0 with long streams, and the
// bulk server of one recorded mock response; both stop with b.
func startStreamServers(b *testing.B) *streamServers {
	m, err := mock.New(mock.Options{Lines: benchLines})
	if err != nil {
		b.Fatal(err)
	}
	mockSrv := httptest.NewServer(m)
	b.Cleanup(mockSrv.Close)
	body := recordBody(b, mockSrv.URL)
	bulk := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		linestream.SetHeaders(w.Header())
		for rest := body; len(rest) > 0; {
			n := min(len(rest), 64<<10)
			if _, err := w.Write(rest[:n]); err != nil {
				return
			}
			rest = rest[n:]
		}
	}))
	b.Cleanup(bulk.Close)
	return &streamServers{
		list:  []struct{ name, url string }{{"mock", mockSrv.URL}, {"bulk", bulk.URL}},
		body:  body,
		lines: bytes.Count(body, []byte{'\n'}),
	}
}

// streamReaders reads responses of one server with any of the readers,
// reusing their buffers.
type streamReaders struct {
	r                    *Runner
	m                    *Meter
	br                   *bufio.Reader
	d                    *linestream.Decoder
	wantLines, wantBytes int
}

func newStreamReaders(b *testing.B, url string, wantLines, wantBytes int) *streamReaders {
	r, err := NewRunner(Config{BaseURL: url, Key: mock.KeyValid, Requests: 1, Concurrency: 1})
	if err != nil {
		b.Fatal(err)
	}
	d := linestream.NewDecoder(nil)
	d.SetStrict(true)
	return &streamReaders{r: r, m: newMeter(r.clock, &r.lines, DefaultMaxLine, DefaultMaxUnits), br: bufio.NewReaderSize(nil, 64<<10), d: d,
		wantLines: wantLines, wantBytes: wantBytes}
}

// read sends one request and reads its body with the named reader: "meter"
// (Runner.do), "decode" (a strict linestream.Decoder, nothing else),
// "lines" (bufio.Reader.ReadSlice line count) or "copy" (io.Copy to
// io.Discard). It returns the time from the send to the end of the body.
func (sr *streamReaders) read(b *testing.B, reader string) time.Duration {
	ctx := context.Background()
	start := time.Now()
	var lines, n int
	if reader == "meter" {
		var s Sample
		sr.r.do(ctx, &s, sr.m, false)
		if !s.OK() {
			b.Fatalf("meter: %s %s", s.Kind, s.Err)
		}
		lines, n = s.Lines, int(s.Bytes)
	} else {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, sr.r.url, bytes.NewReader(sr.r.body))
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+mock.KeyValid)
		req.Header.Set("Content-Type", "application/json")
		resp, err := sr.r.client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		switch reader {
		case "copy":
			var c int64
			c, err = io.Copy(io.Discard, resp.Body)
			lines, n = sr.wantLines, int(c)
		case "decode":
			cr := &countingReader{r: resp.Body}
			sr.d.Reset(cr)
			for sr.d.Next() {
				lines++
			}
			n, err = int(cr.n), sr.d.Err()
		default:
			lines, n, err = countLines(sr.br, resp.Body)
		}
		resp.Body.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
	elapsed := time.Since(start)
	if lines != sr.wantLines || n != sr.wantBytes {
		b.Fatalf("%s read %d lines, %d bytes; want %d, %d", reader, lines, n, sr.wantLines, sr.wantBytes)
	}
	return elapsed
}

// countLines counts the lines of r with a reused bufio.Reader.
func countLines(br *bufio.Reader, r io.Reader) (lines, n int, err error) {
	br.Reset(r)
	for {
		line, err := br.ReadSlice('\n')
		n += len(line)
		if len(line) > 0 && line[len(line)-1] == '\n' {
			lines++
		}
		switch err {
		case nil, bufio.ErrBufferFull:
		case io.EOF:
			return lines, n, nil
		default:
			return lines, n, err
		}
	}
}

// cpuTime returns the user and system CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// recordBody returns the body of one streamed response of the mock.
func recordBody(b *testing.B, url string) []byte {
	req, err := http.NewRequest(http.MethodPost, url+"/api/chat", bytes.NewReader([]byte(`{"content":"`+DefaultPrompt+`"}`)))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+mock.KeyValid)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("record mock stream: status %d, %v", resp.StatusCode, err)
	}
	return body
}
