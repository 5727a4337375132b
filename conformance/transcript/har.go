package transcript

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/chatwire/chatwire/internal/chatapi"
)

// A HAREntry is one POST /api/chat exchange taken from a HAR file (the
// HTTP Archive format browsers and proxies export).
type HAREntry struct {
	Index    int       // the entry's position in log.entries, from 0
	Started  time.Time // its startedDateTime
	Exchange *Exchange // nil when Skipped is set
	Skipped  string    // why the entry could not be made an exchange, such as a body the browser did not keep
}

// harFile is the part of HAR 1.2 FromHAR reads.
type harFile struct {
	Log struct {
		Entries []harEntry `json:"entries"`
	} `json:"log"`
}

type harEntry struct {
	StartedDateTime string  `json:"startedDateTime"`
	Time            float64 `json:"time"`
	Request         struct {
		Method   string       `json:"method"`
		URL      string       `json:"url"`
		Headers  []harNameVal `json:"headers"`
		PostData *struct {
			Text     string `json:"text"`
			Encoding string `json:"encoding"` // not in HAR 1.2, written by some tools
		} `json:"postData"`
	} `json:"request"`
	Response struct {
		Status      int          `json:"status"`
		HTTPVersion string       `json:"httpVersion"`
		Headers     []harNameVal `json:"headers"`
		Content     struct {
			Size     int64   `json:"size"`
			Text     *string `json:"text"`
			Encoding string  `json:"encoding"`
		} `json:"content"`
	} `json:"response"`
	Timings harTimings `json:"timings"`
	Error   string     `json:"_error"` // Chrome's reason for a failed request
}

type harNameVal struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// harTimings are the phases of an entry in milliseconds; -1 means the phase
// does not apply. ssl is part of connect.
type harTimings struct {
	Blocked, DNS, Connect, Send, Wait, Receive float64
}

func (t *harTimings) UnmarshalJSON(b []byte) error {
	var m map[string]float64
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*t = harTimings{m["blocked"], m["dns"], m["connect"], m["send"], m["wait"], m["receive"]}
	return nil
}

// FromHAR reads a HAR file and returns its POST /api/chat entries (the
// method POST and a URL path ending in /api/chat), in file order, as
// exchanges. Lines are the response's content.text (base64-decoded when its
// encoding says so) split at '\n'. HAR keeps no per-line timing: the
// response head's time is blocked+dns+connect+send+wait, every line is
// given the time the body was complete (that plus receive), and the end
// the entry's total time. An entry with status 0 (no response) becomes an
// exchange without a response that ended in a reset, with Chrome's _error
// as its error. An entry whose body the exporter did not keep is returned
// with Skipped set. HTTP/2 pseudo-headers (":authority", …) are left out.
//
// The exchanges hold whatever the file holds, credentials included: write
// them only through a [Writer], which redacts them. Bad JSON is an error
// with its line and column.
func FromHAR(r io.Reader) ([]HAREntry, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read HAR: %w", err)
	}
	var f harFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, harError(data, err)
	}
	var out []HAREntry
	for i, e := range f.Log.Entries {
		if !strings.EqualFold(e.Request.Method, http.MethodPost) || !isChatURL(e.Request.URL) {
			continue
		}
		entry, err := e.exchange()
		if err != nil {
			return out, fmt.Errorf("read HAR: entry %d: %w", i, err)
		}
		entry.Index = i
		out = append(out, entry)
	}
	return out, nil
}

// isChatURL reports whether rawURL's path is that of POST /api/chat under
// any base path.
func isChatURL(rawURL string) bool {
	u, err := url.Parse(rawURL)
	return err == nil && strings.HasSuffix(strings.TrimSuffix(u.Path, "/"), chatapi.ChatPath)
}

// harError gives a JSON error the line and column it happened at.
func harError(data []byte, err error) error {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off <= 0 {
		return fmt.Errorf("read HAR: %w", err)
	}
	// The decoder stops after the byte it could not take: name that byte.
	off = min(off-1, int64(len(data)))
	prefix := data[:off]
	line := bytes.Count(prefix, []byte("\n")) + 1
	col := len(prefix) - bytes.LastIndexByte(prefix, '\n')
	return fmt.Errorf("read HAR: line %d:%d (byte %d): %w", line, col, off, err)
}

// ms turns HAR milliseconds into a duration; -1 (not applicable) is 0.
func ms(v float64) time.Duration {
	if v <= 0 {
		return 0
	}
	return time.Duration(v * float64(time.Millisecond))
}

// exchange makes the entry an exchange.
func (e *harEntry) exchange() (HAREntry, error) {
	var out HAREntry
	if e.StartedDateTime != "" {
		t, err := time.Parse(time.RFC3339Nano, e.StartedDateTime)
		if err != nil {
			return out, fmt.Errorf("startedDateTime %q: want an ISO 8601 time", e.StartedDateTime)
		}
		out.Started = t
	}
	x := &Exchange{Request: Request{Method: http.MethodPost, URL: e.Request.URL, Header: harHeader(e.Request.Headers)}}
	if pd := e.Request.PostData; pd != nil {
		body, err := harText(pd.Text, pd.Encoding)
		if err != nil {
			return out, fmt.Errorf("request postData: %w", err)
		}
		x.Request.Body = body
	}
	tm := e.Timings
	head := ms(tm.Blocked) + ms(tm.DNS) + ms(tm.Connect) + ms(tm.Send) + ms(tm.Wait)
	total := max(ms(e.Time), head+ms(tm.Receive))
	if e.Response.Status == 0 {
		msg := e.Error
		if msg == "" {
			msg = "no response (status 0 in the HAR file)"
		}
		x.End = End{Reason: EndReset, At: total, Err: msg}
		out.Exchange = x
		return out, nil
	}
	x.Response = &Response{Status: e.Response.Status, Proto: harProto(e.Response.HTTPVersion),
		Header: harHeader(e.Response.Headers), At: head}
	c := e.Response.Content
	if c.Text == nil {
		if c.Size != 0 {
			out.Skipped = fmt.Sprintf("the HAR file does not hold the %d-byte response body (the exporter did not keep it)", c.Size)
			return out, nil
		}
		empty := ""
		c.Text = &empty
	}
	body, err := harText(*c.Text, c.Encoding)
	if err != nil {
		return out, fmt.Errorf("response content: %w", err)
	}
	bodyAt := head + ms(tm.Receive)
	for len(body) > 0 {
		line, rest, nl := bytes.Cut(body, []byte("\n"))
		x.Lines = append(x.Lines, Line{Text: line, At: bodyAt, NL: nl})
		body = rest
	}
	x.End = End{Reason: EndEOF, At: total, Lines: len(x.Lines), Bytes: int64(len(x.Body()))}
	if e.Error != "" {
		x.End.Reason, x.End.Err = EndReset, e.Error
	}
	out.Exchange = x
	return out, nil
}

// harText decodes a HAR text field by its encoding ("" or "base64").
func harText(text, encoding string) ([]byte, error) {
	switch strings.ToLower(encoding) {
	case "":
		return []byte(text), nil
	case "base64":
		b, err := base64.StdEncoding.DecodeString(text)
		if err != nil {
			return nil, fmt.Errorf("text is not base64: %w", err)
		}
		return b, nil
	}
	return nil, fmt.Errorf("unknown encoding %q: want base64 or none", encoding)
}

// harHeader makes HAR name/value pairs a header, without HTTP/2
// pseudo-headers.
func harHeader(nvs []harNameVal) http.Header {
	h := http.Header{}
	for _, nv := range nvs {
		if strings.HasPrefix(nv.Name, ":") {
			continue
		}
		h.Add(nv.Name, nv.Value)
	}
	return h
}

// harProto turns a HAR httpVersion ("http/1.1", "h2", "HTTP/2.0", "h3")
// into the form net/http reports.
func harProto(v string) string {
	switch strings.ToLower(v) {
	case "h2", "http/2", "http/2.0":
		return "HTTP/2.0"
	case "h3", "http/3", "http/3.0":
		return "HTTP/3.0"
	case "http/1.0":
		return "HTTP/1.0"
	case "http/1.1":
		return "HTTP/1.1"
	}
	return v
}
