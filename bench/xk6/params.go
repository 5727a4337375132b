package chatwire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"strings"
	"time"

	"github.com/grafana/sobek"
	"go.k6.io/k6/js/common"
	"go.k6.io/k6/lib"
	"go.k6.io/k6/lib/types"
	"go.k6.io/k6/metrics"

	"github.com/chatwire/chatwire/internal/live"
)

// DefaultTimeout is how long post waits for a whole stream unless
// params.timeout says otherwise: k6's http default.
const DefaultTimeout = 60 * time.Second

// paramKeys are the keys of post's params object, in the order the error
// for an unknown key lists them.
var paramKeys = []string{"headers", "timeout", "firstLineTimeout", "tags", "cutAfter", "resume"}

// request is a post call's request, read from its arguments.
type request struct {
	url     string
	body    []byte
	header  http.Header
	host    string // the Host header, which net/http takes apart from the others
	timeout time.Duration
	// firstLine ends a stream whose service stalls: no response head or
	// first line within it of the request, or no line within it of the
	// line before (chatwire check's and bench's -first-line-timeout).
	firstLine time.Duration
	tags      metrics.TagsAndMeta
	// cutAfter and resume cut the stream client-side after cutAfter lines
	// (events) and resume it by the contract (chatwire bench's -cut-after
	// and -resume; see live.Meter.SetCut); 0 and "": no cut.
	cutAfter int
	resume   string
}

// newRequest reads post's arguments the way k6's http.post reads them: body
// a string, an ArrayBuffer, or an object sent as JSON (then the default
// Content-Type is application/json); params with headers, timeout and
// firstLineTimeout (each a duration string such as "90s" or milliseconds)
// and tags. An unknown
// params key is an error: a misspelt timeout must not pass unnoticed.
func newRequest(rt *sobek.Runtime, state *lib.State, url string, body, params sobek.Value) (*request, error) {
	if err := checkURL(url); err != nil {
		return nil, err
	}
	r := &request{url: url, header: make(http.Header), timeout: DefaultTimeout, firstLine: live.DefaultFirstLineTimeout, tags: state.Tags.GetCurrentValues()}
	if ua := state.Options.UserAgent; ua.Valid && ua.String != "" {
		r.header.Set("User-Agent", ua.String)
	}
	isJSON, err := r.readBody(rt, body)
	if err != nil {
		return nil, err
	}
	if isJSON {
		r.header.Set("Content-Type", "application/json")
	}
	if err := r.readParams(rt, params); err != nil {
		return nil, err
	}
	switch {
	case r.cutAfter > 0 && r.resume == "":
		return nil, errors.New("params.cutAfter needs params.resume: ai-sdk, workflow, ai-sdk-4 or subscribe")
	case r.cutAfter == 0 && r.resume != "":
		return nil, errors.New("params.resume needs params.cutAfter: the lines (events) to read before the cut")
	case r.cutAfter > 0:
		if err := live.NewMeter(nil).SetCut(r.cutAfter, r.resume); err != nil {
			return nil, fmt.Errorf("params: %w", err)
		}
	}
	r.tags.SetSystemTagOrMetaIfEnabled(state.Options.SystemTags, metrics.TagMethod, http.MethodPost)
	r.tags.SetSystemTagOrMetaIfEnabled(state.Options.SystemTags, metrics.TagURL, url)
	if _, ok := r.tags.Tags.Get(metrics.TagName.String()); !ok {
		r.tags.SetSystemTagOrMetaIfEnabled(state.Options.SystemTags, metrics.TagName, url)
	}
	return r, nil
}

// checkURL returns an error unless u is an absolute http or https URL: a
// script's mistake, not a failed stream.
func checkURL(u string) error {
	parsed, err := neturl.Parse(u)
	switch {
	case err != nil:
		return fmt.Errorf("url %q: want an http:// or https:// URL: %w", u, errors.Unwrap(err))
	case parsed.Scheme != "http" && parsed.Scheme != "https":
		return fmt.Errorf("url %q: want an http:// or https:// URL", u)
	case parsed.Host == "":
		return fmt.Errorf("url %q has no host", u)
	}
	return nil
}

// readBody reads the body argument and reports whether it was an object
// sent as JSON.
func (r *request) readBody(rt *sobek.Runtime, body sobek.Value) (bool, error) {
	if common.IsNullish(body) {
		return false, nil
	}
	switch v := body.Export().(type) {
	case string:
		r.body = []byte(v)
		return false, nil
	case sobek.ArrayBuffer:
		r.body = bytes.Clone(v.Bytes())
		return false, nil
	case []byte:
		r.body = bytes.Clone(v)
		return false, nil
	}
	if _, isObject := body.(*sobek.Object); !isObject {
		return false, fmt.Errorf("body must be a string, an ArrayBuffer or an object, not %s", body.ExportType())
	}
	stringify, ok := sobek.AssertFunction(rt.Get("JSON").ToObject(rt).Get("stringify"))
	if !ok {
		return false, errors.New("JSON.stringify is not a function")
	}
	js, err := stringify(sobek.Undefined(), body)
	if err != nil {
		return false, fmt.Errorf("body as JSON: %w", err)
	}
	r.body = []byte(js.String())
	return true, nil
}

// readParams reads the params argument.
func (r *request) readParams(rt *sobek.Runtime, params sobek.Value) error {
	if common.IsNullish(params) {
		return nil
	}
	obj := params.ToObject(rt)
	for _, k := range obj.Keys() {
		v := obj.Get(k)
		switch k {
		case "headers":
			if common.IsNullish(v) {
				continue
			}
			h := v.ToObject(rt)
			for _, name := range h.Keys() {
				value := h.Get(name).String()
				if strings.EqualFold(name, "Host") {
					r.host = value
					continue
				}
				r.header.Set(name, value)
			}
		case "timeout", "firstLineTimeout":
			d, err := types.GetDurationValue(v.Export())
			if err != nil {
				return fmt.Errorf("params.%s: %w", k, err)
			}
			if d <= 0 {
				return fmt.Errorf("params.%s must be positive, not %v", k, d)
			}
			if k == "timeout" {
				r.timeout = d
			} else {
				r.firstLine = d
			}
		case "cutAfter":
			n := v.ToInteger()
			if f := v.ToFloat(); f != float64(n) || n <= 0 {
				return fmt.Errorf("params.cutAfter must be a positive whole number, not %v", v)
			}
			r.cutAfter = int(n)
		case "resume":
			r.resume = v.String()
		case "tags":
			if err := common.ApplyCustomUserTags(rt, &r.tags, v); err != nil {
				return fmt.Errorf("params.tags: %w", err)
			}
		default:
			return fmt.Errorf("unknown params key %q; post reads %s", k, strings.Join(paramKeys, ", "))
		}
	}
	return nil
}

// httpRequest returns the request to send, bound to ctx.
func (r *request) httpRequest(ctx context.Context) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.url, io.NopCloser(bytes.NewReader(r.body)))
	if err != nil {
		return nil, err
	}
	req.ContentLength = int64(len(r.body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(r.body)), nil }
	req.Header = r.header.Clone()
	if r.host != "" {
		req.Host = r.host
	}
	return req, nil
}

// redact replaces the credentials of the request's Authorization header
// wherever text holds them, so a server that echoes a key does not get it
// into a script's output.
func (r *request) redact(text string) string {
	auth := r.header.Get("Authorization")
	if _, cred, ok := strings.Cut(auth, " "); ok {
		auth = cred
	}
	if len(auth) < 4 {
		return text
	}
	return strings.ReplaceAll(text, auth, "<key>")
}
