package reading

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream"
)

// tee passes a body through to a decoder and reads its lines on the way,
// for the facts a decoder does not give: where the first byte that is not
// UTF-8 is, the lines a UI message stream's parser drops, and the text of
// recent lines, which a fault quotes.
type tee struct {
	r       io.Reader
	partial []byte // the current line so far
	line    int    // lines completed
	off     int64  // offset of the current line's start
	badUTF8 string
	dropped []string
	recent  [ringSize]ringLine
}

// ringSize is how many recent lines a tee remembers the start of: more
// than a decoder reads ahead of the line it is at.
const ringSize = 1024

type ringLine struct {
	n    int
	text string
}

func newTee(r io.Reader) *tee { return &tee{r: r} }

func (t *tee) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	b := p[:n]
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			t.partial = append(t.partial, b...)
			break
		}
		t.partial = append(t.partial, b[:i]...)
		t.endLine(t.partial, true)
		t.partial = t.partial[:0]
		b = b[i+1:]
	}
	if err == io.EOF && len(t.partial) > 0 {
		t.endLine(t.partial, false)
		t.partial = t.partial[:0]
	}
	return n, err
}

// endLine takes a complete line (nl: a '\n' ended it).
func (t *tee) endLine(l []byte, nl bool) {
	t.line++
	if t.badUTF8 == "" && !utf8.Valid(l) {
		j := 0
		for j < len(l) {
			r, n := utf8.DecodeRune(l[j:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			j += n
		}
		t.badUTF8 = fmt.Sprintf("line %d, byte %d", t.line, t.off+int64(j))
	}
	text := bytes.TrimSuffix(l, []byte("\r"))
	if d := droppedChunk(text); d != "" {
		t.dropped = append(t.dropped, fmt.Sprintf("line %d: %s", t.line, d))
	}
	t.recent[t.line%ringSize] = ringLine{t.line, Excerpt(text)}
	t.off += int64(len(l))
	if nl {
		t.off++
	}
}

// lineText returns the start of line n, if the tee still remembers it.
func (t *tee) lineText(n int) string {
	if r := t.recent[n%ringSize]; r.n == n {
		return r.text
	}
	return ""
}

// finish records the line facts into the reading's end.
func (t *tee) finish(rd *transcript.Reading) {
	if rd.End == nil {
		return
	}
	rd.End.BadUTF8 = t.badUTF8
	if rd.Protocol == "ui" {
		rd.End.Dropped = t.dropped
	}
}

// droppedChunk says what a line of a UI message stream carries that no
// client reads, "" for nothing: a chunk's JSON outside a data: field (as
// an event:, id: or unknown field's value, in a comment, or alone on its
// line), or a v4 data stream part. The SSE parser passes such lines over
// without a word.
func droppedChunk(l []byte) string {
	if len(l) == 0 {
		return ""
	}
	name, value, hasColon := bytes.Cut(l, []byte(":"))
	if string(name) == "data" {
		return ""
	}
	value = bytes.TrimPrefix(value, []byte(" "))
	switch {
	case isChunkJSON(l):
		return "a chunk alone on its line, not in a data: field: " + Excerpt(l)
	case hasColon && isChunkJSON(value):
		field := "an " + string(name) + ": field"
		if len(name) == 0 {
			field = "a comment"
		}
		return "a chunk in " + field + ", not in a data: field: " + Excerpt(l)
	case hasColon && linestream.KindOf(name) != linestream.KindUnknown && json.Valid(value):
		return "a v4 data stream part, which the UI stream's clients do not read: " + Excerpt(l)
	}
	return ""
}

// isChunkJSON reports whether b is a JSON object with a string type member
// that names a chunk type: what a service means as a chunk.
func isChunkJSON(b []byte) bool {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return false
	}
	var c struct {
		Type *string `json:"type"`
	}
	if json.Unmarshal(b, &c) != nil || c.Type == nil {
		return false
	}
	return uistream.TypeOf([]byte(*c.Type)) != uistream.ChunkUnknown
}

// maxExcerpt is how many bytes of a body or line a reading quotes.
const maxExcerpt = 120

// Excerpt returns b as readable text of at most 120 bytes: printable
// characters as they are, control characters and bytes that are not UTF-8
// escaped as Go escapes them, and "…" when it was cut.
func Excerpt(b []byte) string {
	var sb strings.Builder
	for i := 0; i < len(b); {
		if i >= maxExcerpt {
			sb.WriteString("…")
			break
		}
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&sb, `\x%02x`, b[i])
		case r == ' ' || unicode.IsPrint(r):
			sb.WriteRune(r)
		default:
			q := strconv.QuoteRune(r)
			sb.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
	return sb.String()
}
