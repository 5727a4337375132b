package client

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/chatwire/chatwire/internal/chatapi"
)

// A ResumeContract names how a service resumes a stream whose connection
// dropped: the request a client sends and what the answer holds. The
// contracts are those of the real clients, and the spec's subscribe in
// chatwire's shape (docs/chat.md has the table); each answers with the
// stream live to its end.
type ResumeContract string

const (
	// ResumeAISDK is the AI SDK 5, 6 and 7 contract (useChat({resume:
	// true}), DefaultChatTransport.reconnectToStream): GET
	// /api/chat/{chatId}/stream, answered with the UI message stream
	// replayed from its start, or 204 when the service has no stream of the
	// chat ([ErrNoStream]). The UI message stream only.
	ResumeAISDK ResumeContract = chatapi.ResumeAISDK
	// ResumeWorkflow is @ai-sdk/workflow's WorkflowChatTransport: GET
	// /api/chat/{runId}/stream?startIndex=N, the run id from the create's
	// x-workflow-run-id header (the chat id without one), answered with the
	// UI chunks from index N (N chunks received). The UI message stream
	// only.
	ResumeWorkflow ResumeContract = chatapi.ResumeWorkflow
	// ResumeAISDK4 is ai 4's experimental_resume: GET /api/chat?chatId=ID,
	// answered with the v4 data stream replayed from its start. The v4 data
	// stream only.
	ResumeAISDK4 ResumeContract = chatapi.ResumeAISDK4
	// ResumeSubscribe is the spec's GET /api/chat/{chatId}/subscribe in
	// chatwire's shape: ?startIndex=N (and &streamId=S for a stream
	// [Client.Follow] opened), answered with the stream in the chat's
	// protocol from index N: the line of the v4 data stream (its 2: line is
	// 0) or the UI chunk.
	ResumeSubscribe ResumeContract = chatapi.ResumeSubscribe
)

// ResumeContracts returns the contracts in the order of their names' table:
// ai-sdk, workflow, ai-sdk-4, subscribe. Each call returns a fresh slice.
func ResumeContracts() []ResumeContract {
	return []ResumeContract{ResumeAISDK, ResumeWorkflow, ResumeAISDK4, ResumeSubscribe}
}

// ParseResumeContract reads a contract's name: ai-sdk, workflow, ai-sdk-4
// or subscribe.
func ParseResumeContract(s string) (ResumeContract, error) {
	for _, c := range ResumeContracts() {
		if string(c) == s {
			return c, nil
		}
	}
	names := make([]string, 0, 4)
	for _, c := range ResumeContracts() {
		names = append(names, string(c))
	}
	return "", fmt.Errorf("chatwire: unknown resume contract %q: want %s", s, strings.Join(names, ", "))
}

// replays reports whether the contract answers with the stream from its
// start, which the client matches against what it delivered.
func (c ResumeContract) replays() bool { return chatapi.ResumeReplays(string(c)) }

// fits reports whether the contract resumes a stream of protocol p.
func (c ResumeContract) fits(p Protocol) bool {
	switch c {
	case ResumeAISDK, ResumeWorkflow:
		return p == ProtocolUI
	case ResumeAISDK4:
		return p == ProtocolV4
	}
	return true
}

// resumeSettings are what the resume options set.
type resumeSettings struct {
	contract ResumeContract // "": no resume
	attempts int
	base     time.Duration
	max      time.Duration
	notify   func(ResumeAttempt)
}

// The defaults of the resume options.
const (
	DefaultResumeAttempts = 8
	DefaultResumeBase     = 250 * time.Millisecond
	DefaultResumeMax      = 10 * time.Second
)

var defaultResume = resumeSettings{attempts: DefaultResumeAttempts, base: DefaultResumeBase, max: DefaultResumeMax}

// WithResume makes a stream whose connection drops before its end resume
// with the service's contract c, and deliver each part once: the parts of
// a replay from the start ([ResumeAISDK], [ResumeAISDK4]) are matched
// against those delivered, which they must equal byte for byte (else
// [ErrReplayMismatch]), and only the parts after them are delivered; an
// index-based resume ([ResumeWorkflow], [ResumeSubscribe]) asks for the
// next part's index. The message assembled across resumes is the one an
// uncut read assembles.
//
// A drop is a connection that fails (a reset, a cut chunked body, the idle
// timeout of [WithIdleTimeout]) or a body that ends cleanly before the
// protocol's end: the UI message stream's finish (or abort) chunk, and the
// v4 data stream's d: part where the stream has step parts (f:, e:); a v4
// stream without them has no end to wait for, and ends where its body
// does. A v4 body that ends in the middle of its last line, cleanly, is a
// drop too. A clean end counts because a cut does not always look like
// one: a proxy or a server that dies may close a body without a length
// as if it were whole, and the SDK's clients then end the turn as if it
// were done (useChat on a UI stream without finish); the workflow
// transport resumes there too. Every contract serves a stream after its
// end for a while, so a resume then replays the end instead of losing it.
// What the SDK's client throws at (a bad line or event, an error
// part or chunk) ends the stream as without this option, and so does a
// drop after the protocol's end: nothing promised is missing.
//
// Attempts wait with backoff and full jitter ([WithResumeBackoff]); a 429
// or 5xx answer waits its Retry-After (a wait beyond [WithMaxRetryWait]
// gives up). Connection failures, 408, 429 and 5xx answers and drops are
// tried again, up to [WithResumeAttempts] in a row without a new part
// ([ErrResumeExhausted]); any other status ends the stream with its
// [*APIError] (a 410 matching [ErrStreamEvicted]), and so does a 204
// ([ErrNoStream]). The context stops every wait and request. Errors of
// resuming are [*ResumeError]s.
//
// "" turns resuming off (the default).
func WithResume(c ResumeContract) Option {
	return func(s *settings) {
		if c != "" {
			if _, err := ParseResumeContract(string(c)); err != nil {
				s.fail(err)
				return
			}
		}
		s.resume.contract = c
	}
}

// WithResumeAttempts sets how many resumes in a row may deliver no new
// part before the stream fails with [ErrResumeExhausted]; a resume that
// delivers a part starts the count again. The default is
// [DefaultResumeAttempts].
func WithResumeAttempts(n int) Option {
	return func(s *settings) {
		if n < 1 {
			s.fail(fmt.Errorf("WithResumeAttempts(%d): want at least 1", n))
			return
		}
		s.resume.attempts = n
	}
}

// WithResumeBackoff sets the waits before resumes: the k-th attempt in a
// row (from 1) waits a random time from 0 to min(max, base·2^(k-1)) (full
// jitter, so that the clients a failed server dropped all at once do not
// come back all at once). The defaults are [DefaultResumeBase] and
// [DefaultResumeMax].
func WithResumeBackoff(base, max time.Duration) Option {
	return func(s *settings) {
		if base <= 0 || max < base {
			s.fail(fmt.Errorf("WithResumeBackoff(%v, %v): want 0 < base <= max", base, max))
			return
		}
		s.resume.base, s.resume.max = base, max
	}
}

// WithOnResume sets a function called before each attempt to resume, from
// the goroutine reading the stream, to log or count them.
func WithOnResume(fn func(ResumeAttempt)) Option {
	return func(s *settings) { s.resume.notify = fn }
}

// WithIdleTimeout bounds the wait for a stream's data: from a request to
// the first part of its response, and for each read after it. A stream
// that waits longer fails with [ErrIdleTimeout], or resumes ([WithResume]).
// Zero (the default) waits as long as the context allows.
func WithIdleTimeout(d time.Duration) Option {
	return func(s *settings) {
		if d < 0 {
			s.fail(fmt.Errorf("WithIdleTimeout(%v): the timeout must not be negative", d))
			return
		}
		s.idle = d
	}
}

// A ResumeAttempt is what [WithOnResume]'s function is told before an
// attempt to resume.
type ResumeAttempt struct {
	Contract  ResumeContract
	Attempt   int           // from 1, in a row without a new part
	Delivered int           // the parts delivered: the stream resumes after them
	Wait      time.Duration // the wait before the request
	Cause     error         // the drop, or the failure of the attempt before
}

// A ResumeError is why a stream that lost its connection could not go on:
// a contract that cannot resume it, an answer that ends it, a replay that
// does not match, or the attempts exhausted. Err wraps the sentinel
// ([ErrResumeExhausted], [ErrReplayMismatch], [ErrNoStream], or an
// [*APIError] matching [ErrStreamEvicted] and the others) and the cause.
type ResumeError struct {
	Contract  ResumeContract
	Delivered int // the parts delivered before it
	Attempts  int // the attempts in a row so far
	Err       error
}

// Error returns "resume (CONTRACT) after N parts, attempt K: …".
func (e *ResumeError) Error() string {
	return fmt.Sprintf("resume (%s) after %d parts, attempt %d: %v", e.Contract, e.Delivered, e.Attempts, e.Err)
}

// Unwrap returns Err.
func (e *ResumeError) Unwrap() error { return e.Err }

// resumeErr returns a ResumeError of the stream's state.
func (s *ChatStream) resumeErr(err error) error {
	return &ResumeError{Contract: s.cfg.resume.contract, Delivered: s.index, Attempts: s.attempts, Err: err}
}

// resumeWait returns the wait before attempt k (from 1) with full jitter.
func resumeWait(k int, base, max time.Duration) time.Duration {
	d := base
	for i := 1; i < k && d < max; i++ {
		d *= 2
	}
	d = min(d, max)
	return time.Duration(rand.Int64N(int64(d) + 1))
}

// resume reopens the stream after a drop (cause) with the contract,
// waiting and trying again as the settings allow, and makes the new
// response the one the stream reads. It returns a *ResumeError, or the
// context's error.
func (s *ChatStream) resume(cause error) error {
	r := s.cfg.resume
	cl, err := s.resumeCall()
	if err != nil {
		return s.resumeErr(fmt.Errorf("%w; cannot resume: %v", cause, err))
	}
	retryAfter := time.Duration(-1)
	for {
		if s.attempts >= r.attempts {
			return s.resumeErr(fmt.Errorf("%w (%d in a row without a new part); the last: %w", ErrResumeExhausted, s.attempts, cause))
		}
		s.attempts++
		wait := retryAfter
		if wait < 0 {
			wait = resumeWait(s.attempts, r.base, r.max)
		}
		if r.notify != nil {
			r.notify(ResumeAttempt{Contract: r.contract, Attempt: s.attempts, Delivered: s.index, Wait: wait, Cause: cause})
		}
		if err := sleep(s.ctx, wait); err != nil {
			return err
		}
		retryAfter = -1
		resp, err := s.dial(cl)
		if err != nil {
			var apiErr *APIError
			switch {
			case s.ctx.Err() != nil:
				return s.ctx.Err()
			case errors.As(err, &apiErr):
				if !retried(apiErr.StatusCode) {
					return s.resumeErr(err)
				}
				if apiErr.hasRetryAfter {
					if apiErr.RetryAfter > s.cfg.maxRetryWait {
						return s.resumeErr(fmt.Errorf("%w; its Retry-After is past the longest wait, %v", err, s.cfg.maxRetryWait))
					}
					retryAfter = apiErr.RetryAfter
				}
			}
			cause = err
			continue
		}
		if err := s.accept(resp, cl); err != nil {
			s.conn.release()
			return s.resumeErr(err)
		}
		return nil
	}
}

// retried reports whether a resume answered with status code is tried
// again: a timeout, a rate limit, a server error.
func retried(code int) bool {
	return code == http.StatusRequestTimeout || code == http.StatusTooManyRequests || code >= 500 && code <= 599
}

// accept checks a resume's 2xx response and makes it the stream's: a 204
// is no stream, and headers that name the other protocol are not this
// stream. A replay is read from its first part, an index-based answer from
// the part after those delivered.
func (s *ChatStream) accept(resp *http.Response, cl call) error {
	if resp.StatusCode == http.StatusNoContent {
		what := "the service has no stream of chat " + s.chatID + " to resume"
		if s.cfg.resume.contract != ResumeAISDK {
			what = "which this contract's client takes for an error (its stream must be answered 200)"
		}
		return fmt.Errorf("%w: GET %s answered 204 No Content: %s", ErrNoStream, cl.path, what)
	}
	if p := fromHeader(resp.Header); p != ProtocolAuto && p != s.proto {
		return unexpected("GET %s answered the %s stream, and this stream is %s (Content-Type %s)", cl.path, p, s.proto, resp.Header.Get("Content-Type"))
	}
	s.connIndex = s.index
	if s.cfg.resume.contract.replays() {
		s.connIndex = 0
	}
	if s.proto == ProtocolUI {
		s.ur.Reset(&s.conn)
	} else {
		s.dec.Reset(&s.conn)
	}
	return nil
}

// resumeCall returns the request of the stream's contract, or why there
// is none.
func (s *ChatStream) resumeCall() (call, error) {
	c := s.cfg.resume.contract
	if !c.fits(s.proto) {
		other := map[Protocol]string{ProtocolUI: "the UI message stream", ProtocolV4: "the v4 data stream"}
		return call{}, fmt.Errorf("the %s contract does not resume %s", c, other[s.proto])
	}
	id := s.chatID
	if c == ResumeWorkflow && s.runID != "" {
		id = s.runID
	}
	if id == "" {
		return call{}, errors.New("the stream named no chat id (no X-Chat-Id header, no messageMetadata.chatId, no data part with a chatId)")
	}
	return call{method: http.MethodGet, path: chatapi.ResumeTarget(chatapi.ChatPath, string(c), id, s.index, s.streamID)}, nil
}
