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
// strict decoder alone, and with plain readers that do no work per line, in
// one run, so benchstat compares them column by column (-col /reader).
// Inputs:
//
//   - server=mock: the built-in mock at pace 0, as fast as it streams: one
//     write and flush per line, like a real streaming service.
//   - server=bulk: the same body, recorded once from the mock, written in
//     64 KiB writes: the server does nearly nothing, so the readers' own
//     costs show.
//
// lines/s is the figure to compare; the goal is meter ≥ 0.8 × plain.
// cpu-ns/line, the process's CPU time per line, tells the readers' cost
// apart when the machine is shared.
func BenchmarkStreamRead(b *testing.B) {
	m, err := mock.New(mock.Options{Lines: benchLines})
	if err != nil {
		b.Fatal(err)
	}
	mockSrv := httptest.NewServer(m)
	defer mockSrv.Close()
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
	defer bulk.Close()
	wantLines := bytes.Count(body, []byte{'\n'})

	for _, server := range []struct{ name, url string }{{"mock", mockSrv.URL}, {"bulk", bulk.URL}} {
		for _, reader := range []string{"meter", "decode", "lines", "copy"} {
			b.Run(fmt.Sprintf("server=%s/reader=%s", server.name, reader), func(b *testing.B) {
				benchRead(b, server.url, reader, wantLines, len(body))
			})
		}
	}
}

// benchRead sends one request per iteration and reads its body with the
// named reader: "meter" (Runner.do), "decode" (a strict linestream.Decoder,
// nothing else), "lines" (bufio.Reader.ReadSlice line count) or "copy"
// (io.Copy to io.Discard).
func benchRead(b *testing.B, url, reader string, wantLines, wantBytes int) {
	r, err := NewRunner(Config{BaseURL: url, Key: mock.KeyValid, Requests: 1, Concurrency: 1})
	if err != nil {
		b.Fatal(err)
	}
	m := newMeter(r.clock, &r.lines)
	ctx := context.Background()
	br := bufio.NewReaderSize(nil, 64<<10)
	d := linestream.NewDecoder(nil)
	d.SetStrict(true)
	b.ReportAllocs()
	b.SetBytes(int64(wantBytes))
	var lines, n int
	cpu0 := cpuTime()
	start := time.Now()
	for b.Loop() {
		switch reader {
		case "meter":
			var s Sample
			r.do(ctx, &s, m, false)
			if !s.OK() {
				b.Fatalf("meter: %s %s", s.Kind, s.Err)
			}
			lines, n = s.Lines, int(s.Bytes)
		default:
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.url, bytes.NewReader(r.body))
			if err != nil {
				b.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+mock.KeyValid)
			req.Header.Set("Content-Type", "application/json")
			resp, err := r.client.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			switch reader {
			case "copy":
				var c int64
				c, err = io.Copy(io.Discard, resp.Body)
				lines, n = wantLines, int(c)
			case "decode":
				cr := &countingReader{r: resp.Body}
				d.Reset(cr)
				lines = 0
				for d.Next() {
					lines++
				}
				n, err = int(cr.n), d.Err()
			default:
				lines, n, err = countLines(br, resp.Body)
			}
			resp.Body.Close()
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	elapsed, cpu := time.Since(start), cpuTime()-cpu0
	if lines != wantLines || n != wantBytes {
		b.Fatalf("%s read %d lines, %d bytes; want %d, %d", reader, lines, n, wantLines, wantBytes)
	}
	b.ReportMetric(float64(b.N*lines)/elapsed.Seconds(), "lines/s")
	// The process's CPU time (server, client and GC) per line: steadier
	// than wall time when other work shares the machine.
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*lines), "cpu-ns/line")
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
