package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/chatwire/chatwire/internal/chatapi"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// EnvAPIKey is the environment variable [New] reads the API key from when
// no [WithAPIKey] option gives one.
const EnvAPIKey = chatapi.EnvAPIKey

// DefaultMaxRetryWait is the longest wait before a retry unless
// [WithMaxRetryWait] says otherwise.
const DefaultMaxRetryWait = 60 * time.Second

// A Client calls the chat API at one base URL with one API key.
// A Client is safe for concurrent use by several goroutines; make one and
// reuse it, so its HTTP connections are reused too.
//
// Every method takes a context: cancelling it aborts the request, and for a
// [ChatStream] the reading of the stream. A chat stream is long-lived (an
// agent works for minutes), so give an [http.Client] without a Timeout
// (the default here): http.Client.Timeout counts the whole response and
// would cut the stream. Bound a call with the context instead.
type Client struct {
	base *url.URL // without a trailing slash on its path
	cfg  settings
}

// settings are what Options set, for the client and for one call.
type settings struct {
	apiKey       string
	keySet       bool
	httpClient   *http.Client
	header       http.Header
	app          string
	retries      int
	maxRetryWait time.Duration
	strict       bool
	protocol     Protocol    // forced, or ProtocolAuto
	release      sdk.Release // the client of a UI message stream
	idle         time.Duration
	resume       resumeSettings
	err          error // the first bad option
}

// An Option configures a [Client] in [New], or one call when passed to a
// method, where it applies on top of the client's options.
type Option func(*settings)

// WithAPIKey sets the API key, sent as "Authorization: Bearer KEY". Without
// it the key comes from the environment variable [EnvAPIKey].
func WithAPIKey(key string) Option {
	return func(s *settings) { s.apiKey, s.keySet = key, true }
}

// WithHTTPClient sets the HTTP client the requests go through; nil means
// [http.DefaultClient]. Its Timeout, if any, also cuts chat streams: leave
// it zero and bound calls with their context.
func WithHTTPClient(c *http.Client) Option {
	return func(s *settings) { s.httpClient = c }
}

// WithHeader sets a header on every request, such as the mock's X-Team or
// X-Mock-Scenario; given to one call, it replaces the client's value. The headers the client sets itself (Authorization,
// Content-Type, User-Agent) cannot be set this way: use [WithAPIKey] and
// [WithUserAgent].
func WithHeader(key, value string) Option {
	return func(s *settings) {
		k := textproto.CanonicalMIMEHeaderKey(key)
		switch k {
		case "Authorization", "Content-Type", "User-Agent":
			s.fail(fmt.Errorf("header %s is set by the client; use WithAPIKey or WithUserAgent", k))
			return
		}
		s.header = s.header.Clone()
		if s.header == nil {
			s.header = http.Header{}
		}
		s.header.Set(k, value)
	}
}

// WithUserAgent puts the caller's own product token, such as "myapp/1.2",
// before the client's "chatwire-go/VERSION (…)" in the User-Agent header.
func WithUserAgent(product string) Option {
	return func(s *settings) { s.app = product }
}

// WithRetry makes a request that gets 429 Too Many Requests be sent again,
// up to n more times, after the wait its Retry-After header asks for (or,
// without one, 0.5s, 1s, 2s, … up to the maximum wait). A wait longer than
// the maximum ([WithMaxRetryWait]) is not waited for: the 429 is returned.
// Waiting stops when the context is done.
//
// Creating a chat and publishing a message spend credits, so no request is
// retried unless this option asks for it; a 429 means the request was not
// taken, so retrying it does not spend credits twice. Nothing else (5xx,
// network errors) is retried: the server may have started the work.
func WithRetry(n int) Option {
	return func(s *settings) {
		if n < 0 {
			s.fail(fmt.Errorf("WithRetry(%d): the number of retries must not be negative", n))
			return
		}
		s.retries = n
	}
}

// WithMaxRetryWait sets the longest wait before a retry; see [WithRetry].
func WithMaxRetryWait(d time.Duration) Option {
	return func(s *settings) {
		if d <= 0 {
			s.fail(fmt.Errorf("WithMaxRetryWait(%v): the wait must be positive", d))
			return
		}
		s.maxRetryWait = d
	}
}

// WithStrictStream makes chat streams stop with an [*message.AssemblyError]
// wrapping [linestream.ErrUnknownCode] at a line whose code the AI SDK v4
// does not know, as the SDK's own client throws there. By default such a
// line is delivered by [ChatStream.Next] as a part of
// [linestream.KindUnknown] and left out of the message, so that a stream
// that already cost credits survives a part kind added after this client
// was written.
func WithStrictStream(strict bool) Option {
	return func(s *settings) { s.strict = strict }
}

// fail records the first bad option.
func (s *settings) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

// New returns a client of the API at baseURL, such as
// "https://api.example.com" (the paths /api/chat… are added to it; a path
// in baseURL is kept as their prefix). The API key comes from
// [WithAPIKey] or else the environment variable [EnvAPIKey]; New fails
// without one, and never puts the key in an error.
func New(baseURL string, opts ...Option) (*Client, error) {
	base, err := parseBaseURL(baseURL)
	if err != nil {
		return nil, err
	}
	c := &Client{base: base, cfg: settings{maxRetryWait: DefaultMaxRetryWait, release: sdk.Newest(), resume: defaultResume}}
	for _, o := range opts {
		o(&c.cfg)
	}
	if c.cfg.err != nil {
		return nil, fmt.Errorf("chatwire: %w", c.cfg.err)
	}
	if !c.cfg.keySet {
		c.cfg.apiKey = os.Getenv(EnvAPIKey)
	}
	if err := checkKey(c.cfg.apiKey); err != nil {
		return nil, fmt.Errorf("chatwire: %w", err)
	}
	return c, nil
}

// parseBaseURL checks that u is an absolute http or https URL without
// credentials, query or fragment, and trims a trailing slash.
func parseBaseURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("chatwire: base URL: %w", err)
	}
	bad := func(why string) error { return fmt.Errorf("chatwire: base URL %q: %s", u.Redacted(), why) }
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, bad(`want an http or https URL such as "https://api.example.com"`)
	case u.Host == "":
		return nil, bad("no host")
	case u.User != nil:
		return nil, bad("credentials do not belong in the URL; the key goes in WithAPIKey or " + EnvAPIKey)
	case u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return nil, bad("a query or fragment is not allowed")
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// checkKey rejects a missing key and one that cannot be sent in a header.
func checkKey(key string) error {
	if key == "" {
		return fmt.Errorf("no API key: set %s or pass WithAPIKey", EnvAPIKey)
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; c <= ' ' || c == 0x7f {
			return fmt.Errorf("the API key holds a space or control character at byte %d", i)
		}
	}
	return nil
}

// BaseURL returns the base URL the client calls, without a trailing slash.
func (c *Client) BaseURL() string { return c.base.String() }

// settingsFor returns the client's settings with a call's options applied.
func (c *Client) settingsFor(opts []Option) (settings, error) {
	s := c.cfg
	for _, o := range opts {
		o(&s)
	}
	if s.err != nil {
		return s, s.err
	}
	if err := checkKey(s.apiKey); err != nil {
		return s, err
	}
	return s, nil
}

// call is one operation: its method, path, JSON body and what it accepts.
type call struct {
	method string
	path   string // relative to the base URL, such as "/api/chat"
	body   []byte // nil for none
	accept string
}

// send makes the request, retrying a 429 as the settings allow, and returns
// a response with a 2xx status; any other status is an [*APIError]. The
// caller closes the response body.
func (c *Client) send(ctx context.Context, s *settings, op call) (*http.Response, error) {
	return retrying(ctx, s, func() (*http.Response, error) { return c.do(ctx, s, op) })
}

// retrying makes a request with try, again after a 429 as the settings
// allow ([WithRetry]), waiting what Retry-After asks for (else the
// backoff), unless that is longer than the maximum wait.
func retrying(ctx context.Context, s *settings, try func() (*http.Response, error)) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		resp, err := try()
		if err == nil {
			return resp, nil
		}
		var apiErr *APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusTooManyRequests || attempt >= s.retries {
			return nil, err
		}
		wait := apiErr.RetryAfter
		if !apiErr.hasRetryAfter {
			wait = backoff(attempt, s.maxRetryWait)
		}
		if wait > s.maxRetryWait {
			return nil, err
		}
		if serr := sleep(ctx, wait); serr != nil {
			return nil, fmt.Errorf("%w; gave up waiting %v to retry: %w", err, wait, serr)
		}
	}
}

// do makes the request once and returns a response with a 2xx status;
// any other status is an [*APIError], its body read and closed. The caller
// closes the response body.
func (c *Client) do(ctx context.Context, s *settings, op call) (*http.Response, error) {
	hc := s.httpClient
	if hc == nil {
		hc = http.DefaultClient
	}
	var body io.Reader
	if op.body != nil {
		body = bytes.NewReader(op.body)
	}
	req, err := http.NewRequestWithContext(ctx, op.method, c.base.String()+op.path, body) // op.path is escaped already
	if err != nil {
		return nil, fmt.Errorf("chatwire: %w", err)
	}
	for k, v := range s.header {
		req.Header[k] = v
	}
	req.Header.Set("Authorization", "Bearer "+s.apiKey)
	req.Header.Set("User-Agent", userAgent(s.app))
	if op.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if op.accept != "" {
		req.Header.Set("Accept", op.accept)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("chatwire: %w", err)
	}
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		return resp, nil
	}
	apiErr := newAPIError(resp, time.Now())
	resp.Body.Close()
	return nil, apiErr
}

// backoff returns the wait before retry attempt+1 when the server names
// none: 0.5s doubled per attempt, at most max.
func backoff(attempt int, max time.Duration) time.Duration {
	d := 500 * time.Millisecond
	for range attempt {
		if d >= max {
			break
		}
		d *= 2
	}
	return min(d, max)
}

// sleep waits for d or until ctx is done, and then returns ctx's error.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// errNoChatID is returned for an empty chat id argument.
var errNoChatID = errors.New("empty chat id")
