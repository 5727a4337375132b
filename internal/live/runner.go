package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chatwire/chatwire/internal/chatapi"
	"github.com/chatwire/chatwire/internal/httpfail"
	"github.com/chatwire/chatwire/internal/protocol"
)

// DefaultPrompt is the content of every request unless Config.Prompt says
// otherwise.
const DefaultPrompt = "chatwire bench: build a one-line page that says hello"

// Config describes a run: where to send, how many requests, and how.
type Config struct {
	BaseURL string // the service's base URL; requests go to BaseURL + "/api/chat"
	Key     string // the API key, sent as "Authorization: Bearer <Key>"; never reported

	Requests    int           // measured requests (> 0); every one creates a chat
	Warmup      int           // requests sent before the measured ones, not measured
	Concurrency int           // closed loop: workers; open loop: most requests in flight (0: no limit)
	Rate        float64       // > 0: open loop with Poisson arrivals of Rate per second
	Duration    time.Duration // > 0: stop sending measured requests after this long
	Timeout     time.Duration // > 0: give up on a request (its whole stream) after this long
	// FirstLineTimeout, > 0, gives up on a request whose service stalls:
	// no response head or no non-blank line within it of the request, or
	// no line within it of the line before (chatwire check's
	// -first-line-timeout; see [Meter.SetFirstLineTimeout]).
	FirstLineTimeout time.Duration
	Seed             uint64 // seed of the open-loop schedule

	// Protocol is the protocol every response is read as: protocol.V4 or
	// protocol.UI; protocol.Unknown (the default) tells it from each
	// response (see [Meter.SetProtocol]), and the run's first response
	// sets the run's: a later response in the other fails
	// (ErrProtocolMismatch).
	Protocol protocol.Protocol

	// MaxLine is the longest stream line (v4) or event (ui) accepted, in
	// bytes; a longer one fails its request (ErrLineTooLong,
	// ErrEventTooLong). 0 means DefaultMaxLine. Memory is bounded by it:
	// each stream in flight buffers at most one line or event.
	MaxLine int
	// MaxUnits is the most lines or events one stream may have; a stream
	// of more fails (ErrTooManyLines, ErrTooManyEvents). 0 means
	// DefaultMaxUnits. Each costs a gap of 8 bytes, kept for the report.
	MaxUnits int

	// CutAfter, > 0, cuts each stream client-side after that many lines
	// (events) and resumes it with the Resume contract (ai-sdk, workflow,
	// ai-sdk-4, subscribe): see [Meter.SetCut] and [Report.Resume].
	CutAfter int
	Resume   string

	Prompt    string // the request's content; DefaultPrompt when empty
	Model     string // the request's model; left out when empty
	UserAgent string // the User-Agent header, when not empty

	Client *http.Client // nil: a client with a connection pool sized for the run
	Clock  Clock        // nil: SystemClock()
}

// MaxChats returns how many chats a run of c can create at most: every
// request, warmup included, may create one.
func (c *Config) MaxChats() int { return c.Requests + c.Warmup }

// OpenLoop reports whether c sends on a schedule (Rate > 0) instead of
// from a fixed number of workers.
func (c *Config) OpenLoop() bool { return c.Rate > 0 }

func (c *Config) validate() error {
	switch {
	case c.BaseURL == "":
		return errors.New("no base URL")
	case c.Requests <= 0:
		return fmt.Errorf("requests must be positive, not %d", c.Requests)
	case c.Warmup < 0:
		return fmt.Errorf("warmup must not be negative, not %d", c.Warmup)
	case c.Concurrency < 0 || (!c.OpenLoop() && c.Concurrency == 0):
		return fmt.Errorf("concurrency must be positive, not %d", c.Concurrency)
	case c.Rate < 0:
		return fmt.Errorf("rate must not be negative, not %g", c.Rate)
	case c.MaxLine < 0:
		return fmt.Errorf("max line must not be negative, not %d", c.MaxLine)
	case c.MaxUnits < 0:
		return fmt.Errorf("max units must not be negative, not %d", c.MaxUnits)
	case c.Protocol != protocol.Unknown && c.Protocol != protocol.V4 && c.Protocol != protocol.UI:
		return fmt.Errorf("unknown protocol %d", c.Protocol)
	case c.Duration < 0 || c.Timeout < 0 || c.FirstLineTimeout < 0:
		return errors.New("durations must not be negative")
	case c.CutAfter < 0:
		return fmt.Errorf("cut after must not be negative, not %d", c.CutAfter)
	case c.CutAfter > 0 && c.Resume == "":
		return errors.New("a cut needs the resume contract to resume with")
	case c.CutAfter == 0 && c.Resume != "":
		return fmt.Errorf("resume %q without a cut: give the lines (events) to cut after", c.Resume)
	}
	if c.CutAfter > 0 {
		if err := new(Meter).SetCut(c.CutAfter, c.Resume); err != nil {
			return err
		}
		if fits := resumeFits(c.Resume); c.Protocol != protocol.Unknown && fits != protocol.Unknown && fits != c.Protocol {
			return fmt.Errorf("the %s contract resumes the %s stream, not the %s stream", c.Resume, fits, c.Protocol)
		}
	}
	return nil
}

// A Runner sends the requests of one run and measures their streams.
// Its Progress method may be called from other goroutines during Run.
type Runner struct {
	cfg    Config
	url    string
	body   []byte
	client *http.Client
	clock  Clock
	meters sync.Pool

	// Progress of the current phase.
	measuring atomic.Bool
	total     atomic.Int64
	done      atomic.Int64
	failed    atomic.Int64
	lines     atomic.Int64
	phaseAt   atomic.Int64 // clock time the phase started, in ns

	proto atomic.Uint32 // the run's protocol: Config.Protocol, or the first response's
}

// NewRunner checks cfg and returns a runner for it.
func NewRunner(cfg Config) (*Runner, error) {
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("bench config: %w", err)
	}
	if cfg.Prompt == "" {
		cfg.Prompt = DefaultPrompt
	}
	if cfg.Clock == nil {
		cfg.Clock = SystemClock()
	}
	if cfg.MaxLine == 0 {
		cfg.MaxLine = DefaultMaxLine
	}
	if cfg.MaxUnits == 0 {
		cfg.MaxUnits = DefaultMaxUnits
	}
	if cfg.Client == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = max(cfg.Concurrency, 16)
		t.MaxResponseHeaderBytes = httpfail.MaxHeaderBytes
		cfg.Client = &http.Client{Transport: t}
	}
	body, err := requestBody(cfg.Prompt, cfg.Model)
	if err != nil {
		return nil, err
	}
	r := &Runner{
		cfg:    cfg,
		url:    strings.TrimRight(cfg.BaseURL, "/") + chatapi.ChatPath,
		body:   body,
		client: cfg.Client,
		clock:  cfg.Clock,
	}
	r.proto.Store(uint32(cfg.Protocol))
	r.meters.New = func() any {
		m := newMeter(r.clock, &r.lines, cfg.MaxLine, cfg.MaxUnits)
		m.SetProtocol(cfg.Protocol)
		m.SetFirstLineTimeout(cfg.FirstLineTimeout)
		m.SetCut(cfg.CutAfter, cfg.Resume) // checked by validate
		return m
	}
	return r, nil
}

// requestBody returns the JSON body of every request: the prompt, a stream,
// and the model when one is given.
func requestBody(prompt, model string) ([]byte, error) {
	type body struct {
		Content string `json:"content"`
		Stream  bool   `json:"stream"`
		Model   string `json:"model,omitempty"`
	}
	return json.Marshal(body{Content: prompt, Stream: true, Model: model})
}

// Progress is a snapshot of a running phase.
type Progress struct {
	Measuring bool              // false during the warmup
	Total     int               // requests the phase sends at most
	Done      int               // requests finished, failed ones included
	Failed    int               // requests that failed
	Lines     int64             // lines (events) read so far in the phase
	Elapsed   time.Duration     // since the phase started
	Protocol  protocol.Protocol // the run's, once known: Config.Protocol or the first response's
}

// Progress returns the progress of the current phase. It is safe to call
// while Run runs.
func (r *Runner) Progress() Progress {
	return Progress{
		Measuring: r.measuring.Load(),
		Total:     int(r.total.Load()),
		Done:      int(r.done.Load()),
		Failed:    int(r.failed.Load()),
		Lines:     r.lines.Load(),
		Elapsed:   r.clock.Now() - time.Duration(r.phaseAt.Load()),
		Protocol:  protocol.Protocol(r.proto.Load()),
	}
}

// Run sends the warmup requests, then the measured ones, and returns the
// report of the measured ones. When ctx is canceled it stops sending,
// cuts off the streams in flight and returns what it measured, marked
// interrupted. Failed requests are in the report, never an error of Run.
// Run may be called once.
func (r *Runner) Run(ctx context.Context) *Report {
	var warmupFailed, chats int
	if r.cfg.Warmup > 0 {
		w := r.phase(ctx, false, r.cfg.Warmup, r.cfg.Seed^0x5741524d, 0)
		for i := range w.samples {
			if !w.samples[i].OK() && !w.samples[i].Canceled {
				warmupFailed++
			}
			if w.samples[i].Status == http.StatusOK {
				chats++
			}
		}
	}
	started := time.Now()
	var m phaseResult
	if ctx.Err() == nil {
		m = r.phase(ctx, true, r.cfg.Requests, r.cfg.Seed, r.cfg.Duration)
	}
	rep := newReport(&r.cfg, m.samples, m.elapsed)
	if p := protocol.Protocol(r.proto.Load()); p != protocol.Unknown {
		rep.Protocol = p
	}
	rep.StartedAt = started
	rep.WarmupFailed = warmupFailed
	rep.ChatsCreated = chats
	for i := range m.samples {
		if m.samples[i].Status == http.StatusOK {
			rep.ChatsCreated++
		}
	}
	rep.Interrupted = ctx.Err() != nil
	return rep
}

type phaseResult struct {
	samples []Sample
	elapsed time.Duration
}

// phase sends n requests, closed or open loop, and returns the samples of
// those it sent. With limit > 0 it sends none after limit has passed.
func (r *Runner) phase(ctx context.Context, measuring bool, n int, seed uint64, limit time.Duration) phaseResult {
	start := r.clock.Now()
	r.measuring.Store(measuring)
	r.total.Store(int64(n))
	r.done.Store(0)
	r.failed.Store(0)
	r.lines.Store(0)
	r.phaseAt.Store(int64(start))
	deadline := time.Duration(-1)
	if limit > 0 {
		deadline = start + limit
	}
	samples := make([]Sample, n)
	var sent int
	if r.cfg.OpenLoop() {
		sent = r.openLoop(ctx, samples, NewArrivals(r.cfg.Rate, seed), start, deadline)
	} else {
		sent = r.closedLoop(ctx, samples, deadline)
	}
	samples = samples[:sent]
	end := start
	for i := range samples {
		end = max(end, samples[i].Sent+samples[i].E2E)
	}
	return phaseResult{samples: samples, elapsed: end - start}
}

// closedLoop runs Concurrency workers, each sending its next request when
// its previous one has ended. It returns how many requests were sent, which
// are samples[:sent].
func (r *Runner) closedLoop(ctx context.Context, samples []Sample, deadline time.Duration) int {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(r.cfg.Concurrency, len(samples)) {
		wg.Go(func() {
			m := r.meters.Get().(*Meter)
			defer r.meters.Put(m)
			for ctx.Err() == nil && (deadline < 0 || r.clock.Now() < deadline) {
				i := int(next.Add(1) - 1)
				if i >= len(samples) {
					return
				}
				s := &samples[i]
				s.Index = i
				r.do(ctx, s, m, false)
			}
		})
	}
	wg.Wait()
	return min(int(next.Load()), len(samples))
}

// openLoop sends request i at start + its arrival offset, waiting for a free
// slot when Concurrency requests are in flight. It returns how many were
// sent, which are samples[:sent].
func (r *Runner) openLoop(ctx context.Context, samples []Sample, arr *Arrivals, start, deadline time.Duration) int {
	var slots chan struct{}
	if r.cfg.Concurrency > 0 {
		slots = make(chan struct{}, r.cfg.Concurrency)
	}
	var wg sync.WaitGroup
	sent := 0
	for i := range samples {
		at := start + arr.Next()
		if deadline >= 0 && at >= deadline {
			break
		}
		if r.clock.SleepUntil(ctx, at) != nil {
			break
		}
		if slots != nil {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
			}
			if ctx.Err() != nil {
				break
			}
		}
		s := &samples[i]
		s.Index, s.Intended = i, at
		sent++
		wg.Go(func() {
			m := r.meters.Get().(*Meter)
			r.do(ctx, s, m, true)
			r.meters.Put(m)
			if slots != nil {
				<-slots
			}
		})
	}
	wg.Wait()
	return sent
}

// do sends one request and measures its response into s.
func (r *Runner) do(ctx context.Context, s *Sample, m *Meter, open bool) {
	defer func() {
		r.done.Add(1)
		if !s.OK() && !s.Canceled {
			r.failed.Add(1)
		}
	}()
	reqCtx, cancel := ctx, context.CancelFunc(func() {})
	if r.cfg.Timeout > 0 {
		reqCtx, cancel = context.WithTimeout(ctx, r.cfg.Timeout)
	}
	defer cancel()
	req, err := http.NewRequestWithContext(reqCtx, http.MethodPost, r.url, bytes.NewReader(r.body))
	if err != nil {
		s.Kind, s.Err = ErrTransport, err.Error()
		return
	}
	req.Header.Set("Authorization", "Bearer "+r.cfg.Key)
	req.Header.Set("Content-Type", "application/json")
	if r.cfg.UserAgent != "" {
		req.Header.Set("User-Agent", r.cfg.UserAgent)
	}
	if err := m.Measure(r.client, req, s, r.redact); err != nil {
		r.fail(ctx, reqCtx, s, err, s.Status != 0)
	}
	if p := s.Protocol; p != protocol.Unknown && !s.Canceled && !r.proto.CompareAndSwap(uint32(protocol.Unknown), uint32(p)) {
		if run := protocol.Protocol(r.proto.Load()); run != p {
			s.Kind, s.Err = ErrProtocolMismatch, fmt.Sprintf("a %s stream in a run of %s streams (-protocol chooses one)", p, run)
			s.BadLine, s.BadEvent = nil, nil
		}
	}
	if !open {
		s.Intended = s.Sent
	}
	if !s.OK() {
		// The aggregates take successful streams only: a failed one's gaps
		// would only hold memory (up to MaxUnits of them for a flood of
		// tiny events, in every failed sample of the run).
		s.Gaps = nil
	}
}

// fail classifies a request error (head false) or a read error: the run's
// cancellation, or a failure named by [NameFailure].
func (r *Runner) fail(ctx, reqCtx context.Context, s *Sample, err error, head bool) {
	if ctx.Err() != nil {
		s.Canceled = true
		return
	}
	NameFailure(s, err, errors.Is(reqCtx.Err(), context.DeadlineExceeded), r.cfg.Timeout, r.redact)
}

// redact replaces the key wherever a message holds it, and a start of the
// key that a cut-off message ends with.
func (r *Runner) redact(s string) string {
	key := r.cfg.Key
	if key == "" {
		return s
	}
	s = strings.ReplaceAll(s, key, "<key>")
	for k := len(key) - 1; k >= 4; k-- {
		if strings.HasSuffix(s, key[:k]) {
			return s[:len(s)-k] + "<key>"
		}
	}
	return s
}
