package transcript

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"
)

// A SyntaxError is a malformed transcript: a line that is not a JSON object,
// a field of the wrong type, an event out of order, or a file that ends
// inside an exchange. It names the place.
type SyntaxError struct {
	File   string // the file name, when known
	Line   int    // 1-based line number
	Col    int    // 1-based byte column in the line
	Offset int64  // 0-based byte offset in the file
	Msg    string
}

func (e *SyntaxError) Error() string {
	if e.File != "" {
		return fmt.Sprintf("transcript: %s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("transcript: line %d:%d: %s", e.Line, e.Col, e.Msg)
}

// ReadFile reads the transcript in the file name. See [Read].
func ReadFile(name string) (*Transcript, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("read transcript: %w", err)
	}
	defer f.Close()
	return read(f, name)
}

// ReadFS reads the transcript name in fsys. See [Read].
func ReadFS(fsys fs.FS, name string) (*Transcript, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("read transcript: %w", err)
	}
	defer f.Close()
	return read(f, name)
}

// Read reads a transcript: the header line and the events after it, rebuilt
// into exchanges whose times are again durations since their own request.
//
// On bad input it returns a [*SyntaxError] with the place, and what it read
// before it: a transcript cut short by a crash (a truncated last line, or an
// exchange without its end event) comes back with the complete events and
// an error naming where it stops. The transcript is nil only when the
// header itself could not be read.
func Read(r io.Reader) (*Transcript, error) { return read(r, "") }

func read(r io.Reader, file string) (*Transcript, error) {
	rd := &reader{br: bufio.NewReader(r), file: file}
	t, err := rd.read()
	if t != nil {
		t.Path = file
	}
	return t, err
}

// reader is the state of one Read.
type reader struct {
	br     *bufio.Reader
	file   string
	line   int   // number of the current line
	offset int64 // offset of the current line
	next   int64 // offset of the line after it

	t     *Transcript
	exs   []*exchangeRead
	final bool // the current line had no newline

	format string // the header's format version
}

// exchangeRead is an exchange being rebuilt.
type exchangeRead struct {
	x     *Exchange
	start time.Duration // the request's time
	ended bool
	line  int // where its request was
}

func (rd *reader) read() (*Transcript, error) {
	for {
		b, err := rd.br.ReadBytes('\n')
		if len(b) == 0 && err == io.EOF {
			break
		}
		if err != nil && err != io.EOF {
			return rd.t, fmt.Errorf("read transcript %s: %w", rd.file, err)
		}
		rd.line++
		rd.offset = rd.next
		rd.next += int64(len(b))
		rd.final = err == io.EOF
		b = bytes.TrimRight(b, "\r\n")
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		if perr := rd.parseLine(b); perr != nil {
			return rd.t, perr
		}
	}
	if rd.t == nil {
		rd.line, rd.offset = max(rd.line, 1), 0
		return nil, rd.errorAt(1, "empty transcript: no header line")
	}
	for i, e := range rd.exs {
		if !e.ended {
			rd.line++
			rd.offset = rd.next
			return rd.t, rd.errorAt(1, fmt.Sprintf("exchange %d (request on line %d) has no end event: the transcript is cut short", i, e.line))
		}
	}
	return rd.t, nil
}

// parseLine reads one non-blank line.
func (rd *reader) parseLine(b []byte) error {
	obj, err := rd.object(b)
	if err != nil {
		return err
	}
	if rd.t == nil {
		return rd.header(obj)
	}
	return rd.event(obj)
}

// errorAt returns a SyntaxError at the 1-based column col of the current
// line.
func (rd *reader) errorAt(col int, msg string) *SyntaxError {
	return &SyntaxError{File: rd.file, Line: rd.line, Col: col, Offset: rd.offset + int64(col-1), Msg: msg}
}

// A field is one member of a line's object: its raw value and the column
// where the value starts.
type field struct {
	raw json.RawMessage
	col int
}

// object splits a line into its fields. It rejects anything but one JSON
// object with unique keys.
func (rd *reader) object(b []byte) (map[string]field, error) {
	truncated := ""
	if rd.final {
		truncated = " (the last line has no newline: the transcript was probably cut short)"
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	wrap := func(err error) error {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return rd.errorAt(len(b)+1, "unexpected end of line"+truncated)
		}
		// The decoder's positions and messages are terser than
		// Unmarshal's, which point at the bad byte and say what was
		// expected: take those.
		var v any
		var se *json.SyntaxError
		if uerr := json.Unmarshal(b, &v); errors.As(uerr, &se) {
			if se.Offset >= int64(len(b)) {
				return rd.errorAt(len(b)+1, "unexpected end of line"+truncated)
			}
			return rd.errorAt(max(int(se.Offset), 1), se.Error()+truncated)
		}
		return rd.errorAt(int(dec.InputOffset())+1, strings.TrimPrefix(err.Error(), "json: ")+truncated)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, wrap(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, rd.errorAt(1, "a line must be a JSON object"+truncated)
	}
	obj := map[string]field{}
	for dec.More() {
		keyCol := int(dec.InputOffset()) + 1
		keyCol += skipSpace(b[keyCol-1:])
		if b[keyCol-1] == ',' {
			keyCol++
			keyCol += skipSpace(b[keyCol-1:])
		}
		tok, err := dec.Token()
		if err != nil {
			return nil, wrap(err)
		}
		key, _ := tok.(string)
		if _, dup := obj[key]; dup {
			return nil, rd.errorAt(keyCol, fmt.Sprintf("duplicate field %q", key))
		}
		valCol := int(dec.InputOffset()) + 1
		valCol += skipSpace(b[valCol-1:]) // to the colon
		valCol++
		valCol += skipSpace(b[min(valCol-1, len(b)):])
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, wrap(err)
		}
		obj[key] = field{raw: raw, col: valCol}
	}
	if _, err := dec.Token(); err != nil {
		return nil, wrap(err)
	}
	if rest := b[dec.InputOffset():]; len(bytes.TrimSpace(rest)) > 0 {
		return nil, rd.errorAt(int(dec.InputOffset())+1+skipSpace(rest), "text after the JSON object")
	}
	return obj, nil
}

// skipSpace returns the number of JSON white-space bytes b starts with.
func skipSpace(b []byte) int {
	n := 0
	for n < len(b) && (b[n] == ' ' || b[n] == '\t' || b[n] == '\r' || b[n] == '\n') {
		n++
	}
	return n
}

// The field accessors decode a field into v, or return an error at its
// place; a missing field is an error when required.

func (rd *reader) get(obj map[string]field, name string, required bool, v any, want string) (bool, error) {
	f, ok := obj[name]
	if !ok {
		if required {
			return false, rd.errorAt(1, fmt.Sprintf("missing field %q", name))
		}
		return false, nil
	}
	if err := json.Unmarshal(f.raw, v); err != nil {
		return false, rd.errorAt(f.col, fmt.Sprintf("field %q: want %s, got %s", name, want, abbreviate(f.raw)))
	}
	return true, nil
}

func (rd *reader) getString(obj map[string]field, name string, required bool) (string, error) {
	var s string
	_, err := rd.get(obj, name, required, &s, "a string")
	return s, err
}

func (rd *reader) getInt(obj map[string]field, name string, required bool) (int64, error) {
	var n int64
	_, err := rd.get(obj, name, required, &n, "an integer")
	return n, err
}

// abbreviate returns raw JSON shortened for a message.
func abbreviate(raw []byte) string {
	if len(raw) > 40 {
		return string(raw[:37]) + "..."
	}
	return string(raw)
}

// header reads the header line.
func (rd *reader) header(obj map[string]field) error {
	format, err := rd.getString(obj, "format", true)
	if err != nil {
		if _, isEvent := obj["ev"]; isEvent {
			return rd.errorAt(1, "the first line must be the transcript header, not an event")
		}
		return err
	}
	if format != Format && format != FormatV1 {
		return rd.errorAt(obj["format"].col, fmt.Sprintf("unsupported format %q: this reader reads %q and %q", format, Format, FormatV1))
	}
	rd.format = format
	h := Header{Format: format}
	if h.Tool, err = rd.getString(obj, "tool", false); err != nil {
		return err
	}
	if h.Target, err = rd.getString(obj, "target", false); err != nil {
		return err
	}
	if h.Probe, err = rd.getString(obj, "probe", false); err != nil {
		return err
	}
	if h.KeyRole, err = rd.getString(obj, "key_role", false); err != nil {
		return err
	}
	if _, err := rd.get(obj, "redacted", false, &h.Redacted, "an array of strings"); err != nil {
		return err
	}
	h.Redacted = mergeSorted(h.Redacted) // nil when empty
	at, err := rd.getString(obj, "recorded_at", false)
	if err != nil {
		return err
	}
	if at != "" {
		if h.RecordedAt, err = time.Parse(time.RFC3339, at); err != nil {
			return rd.errorAt(obj["recorded_at"].col, fmt.Sprintf("field \"recorded_at\": want an RFC 3339 time, got %q", at))
		}
	}
	rd.t = &Transcript{Header: h}
	return nil
}

// event reads one event line.
func (rd *reader) event(obj map[string]field) error {
	ev, err := rd.getString(obj, "ev", true)
	if err != nil {
		return err
	}
	ex, err := rd.getInt(obj, "ex", true)
	if err != nil {
		return err
	}
	ms, err := rd.getInt(obj, "t", true)
	if err != nil {
		return err
	}
	t := time.Duration(ms) * time.Millisecond
	var redacted []string
	if _, err := rd.get(obj, "redacted", false, &redacted, "an array of strings"); err != nil {
		return err
	}
	rd.t.eventRedacted = mergeSorted(rd.t.eventRedacted, redacted)

	if ev == evRequest {
		if ex != int64(len(rd.exs)) {
			return rd.errorAt(obj["ex"].col, fmt.Sprintf("request of exchange %d out of order: want exchange %d", ex, len(rd.exs)))
		}
		x, err := rd.request(obj)
		if err != nil {
			return err
		}
		rd.exs = append(rd.exs, &exchangeRead{x: x, start: t, line: rd.line})
		rd.t.Exchanges = append(rd.t.Exchanges, x)
		return nil
	}
	switch ev {
	case evResponse, evLine, evEnd:
	default:
		return rd.errorAt(obj["ev"].col, fmt.Sprintf("unknown event %q: want request, response, line or end", ev))
	}
	if ex < 0 || ex >= int64(len(rd.exs)) {
		return rd.errorAt(obj["ex"].col, fmt.Sprintf("%s of exchange %d before its request", ev, ex))
	}
	e := rd.exs[ex]
	if e.ended {
		return rd.errorAt(obj["ev"].col, fmt.Sprintf("%s of exchange %d after its end", ev, ex))
	}
	at := t - e.start
	switch ev {
	case evResponse:
		if e.x.Response != nil || len(e.x.Lines) > 0 {
			return rd.errorAt(obj["ev"].col, fmt.Sprintf("second response of exchange %d", ex))
		}
		return rd.response(obj, e.x, at)
	case evLine:
		if e.x.Response == nil {
			return rd.errorAt(obj["ev"].col, fmt.Sprintf("line of exchange %d before its response", ex))
		}
		return rd.bodyLine(obj, e.x, at)
	}
	e.ended = true
	return rd.end(obj, e.x, at)
}

// request rebuilds a request from its event.
func (rd *reader) request(obj map[string]field) (*Exchange, error) {
	x := &Exchange{}
	var err error
	if x.Request.Method, err = rd.getString(obj, "method", true); err != nil {
		return nil, err
	}
	if x.Request.URL, err = rd.getString(obj, "url", true); err != nil {
		return nil, err
	}
	if x.Request.Header, err = rd.headers(obj); err != nil {
		return nil, err
	}
	var n int
	if f, ok := obj["body"]; ok {
		x.Request.Body = append([]byte(nil), f.raw...)
		n++
	}
	if _, ok := obj["body_text"]; ok {
		s, err := rd.getString(obj, "body_text", true)
		if err != nil {
			return nil, err
		}
		x.Request.Body = []byte(s)
		n++
	}
	if _, ok := obj["body_b64"]; ok {
		if x.Request.Body, err = rd.base64(obj, "body_b64"); err != nil {
			return nil, err
		}
		n++
	}
	if n > 1 {
		return nil, rd.errorAt(1, "more than one of body, body_text and body_b64")
	}
	return x, nil
}

// response reads a response event into x.
func (rd *reader) response(obj map[string]field, x *Exchange, at time.Duration) error {
	status, err := rd.getInt(obj, "status", true)
	if err != nil {
		return err
	}
	if status < 100 || status > 999 {
		return rd.errorAt(obj["status"].col, fmt.Sprintf("field \"status\": %d is not an HTTP status", status))
	}
	proto, err := rd.getString(obj, "proto", false)
	if err != nil {
		return err
	}
	h, err := rd.headers(obj)
	if err != nil {
		return err
	}
	x.Response = &Response{Status: int(status), Proto: proto, Header: h, At: at}
	return nil
}

// bodyLine reads a line event into x.
func (rd *reader) bodyLine(obj map[string]field, x *Exchange, at time.Duration) error {
	l := Line{At: at, NL: true}
	_, hasText := obj["text"]
	_, hasB64 := obj["text_b64"]
	switch {
	case hasText && hasB64:
		return rd.errorAt(1, "both text and text_b64")
	case hasB64:
		b, err := rd.base64(obj, "text_b64")
		if err != nil {
			return err
		}
		l.Text = b
	default:
		s, err := rd.getString(obj, "text", true)
		if err != nil {
			return err
		}
		l.Text = []byte(s)
	}
	if _, err := rd.get(obj, "nl", false, &l.NL, "a boolean"); err != nil {
		return err
	}
	if _, err := rd.get(obj, "cut", false, &l.Cut, "a boolean"); err != nil {
		return err
	}
	if bytes.IndexByte(l.Text, '\n') >= 0 {
		return rd.errorAt(max(obj["text"].col, obj["text_b64"].col), "a line's text holds a newline")
	}
	x.Lines = append(x.Lines, l)
	return nil
}

// end reads an end event into x.
func (rd *reader) end(obj map[string]field, x *Exchange, at time.Duration) error {
	reason, err := rd.getString(obj, "reason", true)
	if err != nil {
		return err
	}
	if !slices.Contains([]string{EndEOF, EndCap, EndTimeout, EndReset, EndCancel, EndCut}, reason) {
		return rd.errorAt(obj["reason"].col, fmt.Sprintf("unknown end reason %q: want eof, cap, timeout, reset, cancel or cut", reason))
	}
	if reason == EndCut && rd.format == FormatV1 {
		return rd.errorAt(obj["reason"].col, fmt.Sprintf("end reason %q needs format %q; the header says %q", reason, Format, FormatV1))
	}
	lines, err := rd.getInt(obj, "lines", false)
	if err != nil {
		return err
	}
	n, err := rd.getInt(obj, "bytes", false)
	if err != nil {
		return err
	}
	msg, err := rd.getString(obj, "err", false)
	if err != nil {
		return err
	}
	kind, err := rd.getString(obj, "kind", false)
	if err != nil {
		return err
	}
	x.End = End{Reason: reason, At: at, Lines: int(lines), Bytes: n, Err: msg, Kind: kind}
	var t struct {
		Kept    *int64   `json:"kept"`
		SHA256  string   `json:"sha256"`
		Reading *Reading `json:"reading"`
	}
	if ok, err := rd.get(obj, "truncated", false, &t, `an object {"kept","sha256","reading"}`); err != nil || !ok {
		return err
	}
	if t.Kept == nil || len(t.SHA256) != 64 {
		return rd.errorAt(obj["truncated"].col, `field "truncated": want "kept" and a hex "sha256" of 64 digits`)
	}
	x.End.Truncated = &Truncation{Kept: *t.Kept, SHA256: t.SHA256, Reading: t.Reading}
	return nil
}

// headers reads the "headers" object of an event.
func (rd *reader) headers(obj map[string]field) (http.Header, error) {
	var m map[string][]string
	if _, err := rd.get(obj, "headers", false, &m, "an object of string arrays"); err != nil {
		return nil, err
	}
	h := make(http.Header, len(m))
	for name, vs := range m {
		h[http.CanonicalHeaderKey(name)] = append(h[http.CanonicalHeaderKey(name)], vs...)
	}
	return h, nil
}

// base64 reads a standard base64 field.
func (rd *reader) base64(obj map[string]field, name string) ([]byte, error) {
	s, err := rd.getString(obj, name, true)
	if err != nil {
		return nil, err
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, rd.errorAt(obj[name].col, fmt.Sprintf("field %q: not standard base64: %v", name, err))
	}
	return b, nil
}

// Files returns the transcript files (named *.chatlog.jsonl) in fsys at or
// under root, sorted. root may name a single file.
func Files(fsys fs.FS, root string) ([]string, error) {
	var files []string
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (p == root || strings.HasSuffix(p, Ext)) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("find transcripts: %w", err)
	}
	return files, nil // WalkDir walks in lexical order
}
