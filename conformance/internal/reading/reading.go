package reading

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"strings"
	"sync/atomic"

	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// Options say how a body is read.
type Options struct {
	// Protocol forces the protocol of every stream; protocol.Unknown
	// tells it per response: its headers, then its first bytes, else the
	// spec's v4 stream.
	Protocol protocol.Protocol
	// Client is the release whose chunk schema and assembly the checks
	// judge a UI stream with; the zero Release means sdk.Newest().
	Client sdk.Release
	// Releases are the releases of the skew report, and those whose
	// users' end state is judged; nil means sdk.DefaultReleases().
	Releases []sdk.Release
	// FirstOnly stops a stream's reading at its first line (v4) or first
	// event (UI): the probes that only prove a chat was created.
	FirstOnly bool
	// Stream reads a 200 as a stream whatever the request's body: the
	// answer to a resume request (a GET), which asks for the stream by
	// its route.
	Stream bool
	// Items records the stream item by item (transcript.ItemsReading),
	// for the checks that compare several connections of one stream.
	Items bool
	// Cut stops the stream inside its first text part, as a client whose
	// connection drops there (ErrCut): after the first text delta that
	// follows a text start, and one item more. It records the items.
	Cut bool
}

func (o Options) client() sdk.Release {
	if o.Client == (sdk.Release{}) {
		return sdk.Newest()
	}
	return o.Client
}

func (o Options) releases() []sdk.Release {
	if o.Releases == nil {
		return sdk.DefaultReleases()
	}
	return o.Releases
}

// reads counts the bodies read, for the test that no body is read twice.
var reads atomic.Int64

// Reads returns how many bodies this process has read, for tests.
func Reads() int64 { return reads.Load() }

// maxText is how many bytes of a body a reading quotes.
const maxText = 240

// Read reads a response's body as it arrives from body, once, into its
// reading. It reads to the body's end, or, with FirstOnly, to the end of a
// stream's first line or event. The error is the one body reported, other
// than io.EOF: the reading is of what arrived before it (its Whole is
// false). A response without a head has no reading (nil).
func Read(req *transcript.Request, resp *transcript.Response, body io.Reader, o Options) (*transcript.Reading, error) {
	if resp == nil {
		return nil, nil
	}
	reads.Add(1)
	t := newTee(body)
	br := bufio.NewReaderSize(t, 64<<10)
	rd := &transcript.Reading{Kind: "other"}
	stream := resp.Status == 200 && (o.Stream || wantsStream(req.Body))
	if !stream {
		b, err := io.ReadAll(br)
		readJSONOrText(rd, b)
		rd.Whole = err == nil
		return rd, err
	}
	// A body that starts as a JSON object is the JSON answer, not a
	// stream, however it was asked for.
	if peek, _ := br.Peek(1); len(peek) == 1 && peek[0] == '{' {
		b, err := io.ReadAll(br)
		if readJSON(rd, b); rd.JSON.Object {
			rd.Kind, rd.Whole = "json", err == nil
			return rd, err
		}
		rd.JSON = nil
		br = bufio.NewReaderSize(io.MultiReader(bytes.NewReader(b), errReader{err}), 64<<10)
	}
	rd.Kind = "stream"
	p, by, in := tell(resp, br, o.Protocol)
	rd.Protocol, rd.ProtocolBy = p.String(), by
	var err error
	if p == protocol.UI {
		err = readUI(rd, resp, in, t, o)
	} else {
		err = readV4(rd, in, t, o)
	}
	if o.FirstOnly || errors.Is(err, ErrCut) {
		return rd, err
	}
	if err == nil {
		// What the decoders left unread (after a fault) is read through,
		// for the line facts and the evidence.
		_, err = io.Copy(io.Discard, in)
	}
	rd.Whole = err == nil
	t.finish(rd)
	return rd, err
}

// errReader returns err, or io.EOF for nil.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	return 0, io.EOF
}

// wantsStream reports whether a request body asks for a text stream: a
// JSON object whose stream member is absent or true.
func wantsStream(body []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil || m == nil {
		return false
	}
	s, ok := m["stream"]
	return !ok || string(s) == "true"
}

// tell tells the protocol of a stream: forced, else by its headers, else
// by its first lines, else the spec's v4 stream. by says what told it. It
// reads the body's lines only as far as they tell (protocol.Sniff's
// rule: past blank lines, SSE comments and event, id and retry fields, to
// the first other line), so that a reading that stops at the first line
// reads no further; body is then the whole body again.
func tell(resp *transcript.Response, br *bufio.Reader, forced protocol.Protocol) (p protocol.Protocol, by string, body io.Reader) {
	if forced != protocol.Unknown {
		return forced, "-protocol " + forced.String(), br
	}
	if p := protocol.FromHeader(resp.Header); p != protocol.Unknown {
		return p, "its headers", br
	}
	var head []byte
	for len(head) < protocol.SniffBytes {
		line, err := br.ReadSlice('\n')
		head = append(head, line...)
		if p := protocol.Sniff(head); p != protocol.Unknown {
			return p, "its first bytes", io.MultiReader(bytes.NewReader(head), br)
		}
		if err != nil || !protocol.Silent(bytes.TrimRight(line, "\r\n")) {
			break
		}
	}
	return protocol.V4, "neither its headers nor its first bytes tell (read as the spec's v4 stream)", io.MultiReader(bytes.NewReader(head), br)
}

// judgedMembers are the members of a JSON object the checks read.
var judgedMembers = []string{"chatId", "url", "streamId", "assistantMessageId"}

// readJSON records whether b is a JSON object, and its judged members.
func readJSON(rd *transcript.Reading, b []byte) {
	rd.JSON = &transcript.JSONReading{}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil || m == nil {
		rd.JSON.Error = "the body is not a JSON object: " + Excerpt(bytes.TrimSpace(b))
		return
	}
	rd.JSON.Object = true
	for _, name := range judgedMembers {
		v, ok := m[name]
		if !ok {
			continue
		}
		s := string(v)
		switch name {
		case "chatId":
			rd.JSON.ChatID = s
		case "url":
			rd.JSON.URL = s
		case "streamId":
			rd.JSON.StreamID = s
		case "assistantMessageId":
			rd.JSON.AssistantMessageID = s
		}
	}
}

// readJSONOrText reads a body that is not a stream: as JSON when it is a
// JSON object, and its first line in any case.
func readJSONOrText(rd *transcript.Reading, b []byte) {
	readJSON(rd, b)
	if rd.JSON.Object {
		rd.Kind = "json"
	}
	for _, l := range bytes.Split(b, []byte("\n")) {
		if l = bytes.TrimSuffix(l, []byte("\r")); len(l) > 0 {
			rd.Text = &transcript.TextReading{FirstLine: Excerpt(l)}
			break
		}
	}
}

// MediaType returns the media type of a Content-Type value in lower case,
// or "" when it is missing or malformed.
func MediaType(ct string) string {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return ""
	}
	return strings.ToLower(mt)
}

// errStop ends a decoder's reading where FirstOnly wants it to end.
var errStop = errors.New("reading: first line read")
