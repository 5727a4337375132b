package mock

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chatwire/chatwire/internal/chatapi"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/internal/statuswriter"
	"github.com/chatwire/chatwire/resumable"
)

// Version is the version of the mock's behaviour, sent in every response
// as the X-Chatwire-Mock-Version header. It changes when a behaviour a
// client suite may rely on changes.
const Version = "0.1.0"

// The headers the mock reads and writes.
const (
	// HeaderVersion carries [Version] on every response.
	HeaderVersion = "X-Chatwire-Mock-Version"
	// HeaderRequestID carries a request id ("req_…") on every response.
	HeaderRequestID = "X-Request-Id"
	// HeaderChoice marks a response whose shape the spec does not show, so
	// that the mock chose it: "shape not in spec".
	HeaderChoice = "X-Chatwire-Mock-Choice"
	// HeaderScenario, on a request, forces a status: 400, 401, 402, 403,
	// 422, 429 or 500.
	HeaderScenario = "X-Mock-Scenario"
	// HeaderTeam, on a request, names the team it acts for (the spec does
	// not show how a team is selected).
	HeaderTeam = "X-Team"
)

// choiceNotInSpec is the value of [HeaderChoice].
const choiceNotInSpec = "shape not in spec"

// Protocol is a stream protocol the mock speaks (internal/protocol's type,
// named here so that client test suites outside this module can set
// [Options.Protocol]).
type Protocol = protocol.Protocol

// The protocols of [Options.Protocol].
const (
	// ProtocolV4 is the AI SDK v4 data stream, "<code>:<JSON>" lines: the
	// spec's, and the default.
	ProtocolV4 = protocol.V4
	// ProtocolUI is the UI message stream of AI SDK 5, 6 and 7: Server-Sent
	// Events, "data: <JSON chunk>", "data: [DONE]" last.
	ProtocolUI = protocol.UI
)

// Options configure a [Server]. The zero value is a conformant mock that
// streams at once, without pauses.
type Options struct {
	// Protocol is the stream protocol of POST /api/chat and its follow-ups:
	// [ProtocolV4] (the AI SDK v4 data stream, the spec's; the default, also
	// for the zero value) or [ProtocolUI] (the UI message stream of AI
	// SDK 5, 6 and 7, see the package doc). Faults and variants are each
	// for one protocol ([FaultsFor], [VariantsFor]).
	Protocol Protocol
	// Fault names one deliberate deviation from the spec (see [Faults]);
	// empty for none.
	Fault string
	// Pace is the pause before each stream part after the first.
	Pace time.Duration
	// AcceptEarlierModels makes the mock accept the spec's earlier set of
	// model values ([EarlierModels]) too.
	AcceptEarlierModels bool
	// Lines is the number of 0: progress lines in each stream; 0 means
	// [DefaultLines].
	Lines int
	// SpecPartsOnly limits streams to the two part kinds the spec shows,
	// 2 (the chat id) and 0 (progress text), leaving out the AI SDK's
	// step, reasoning, tool call and finish parts.
	SpecPartsOnly bool
	// Seed seeds the ids the mock hands out: two servers with the same seed
	// that receive the same requests in the same order hand out the same
	// chat, message, stream and request ids.
	Seed uint64
	// Now returns the current time; nil means [time.Now]. The mock reads
	// the clock for a chat's status ("running" until its stream would have
	// been written at Pace) and for Entry.Duration.
	Now func() time.Time
	// Sleep pauses for d, or until ctx is done and then returns ctx.Err();
	// nil means a timer. Tests inject one that does not wait.
	Sleep func(ctx context.Context, d time.Duration) error
	// RateLimit, when positive, is how many chat requests (create and
	// the follow-ups) one authenticated key may make in a [RateWindow];
	// the next ones in that window get 429 with Retry-After. The window
	// starts with the key's first request, so a run that sends a fixed
	// number of requests meets the limit at the same one every time.
	RateLimit int
	// Variants name allowed variations of the answers that the spec
	// leaves open (see [Variants]), such as "gzip" or "crlf".
	Variants []string
	// Log, when set, is called once per request when its response is
	// complete. It may be called from several goroutines at once.
	Log func(Entry)
	// CutAfter, when positive, cuts the first response of each stream a
	// create or publish starts after its CutAfter-th line (v4) or chunk
	// (UI), as a dropped connection: the client's read fails, and it must
	// resume. The agent goes on writing the stream into the store; the
	// responses of the resume routes are never cut. [DefaultCutAfter]
	// cuts inside the first text part.
	CutAfter int
	// Store keeps the streams the resume routes serve; nil means a
	// resumable.Memory with its default bounds (the package doc's
	// Streams section).
	Store resumable.Store
}

// An Entry describes one request the mock handled, for a request log.
// It never holds the API key: Role names what the key is to the mock.
type Entry struct {
	Method    string
	Path      string
	Status    int
	Duration  time.Duration
	Role      Role   // empty for routes without auth (the chat page, /)
	RequestID string // the value of the X-Request-Id response header
	// Cut reports that a stream was cut before its end: the client went
	// away, or the server stopped (the request's context ended).
	Cut bool
}

// A Server is the mock of the chat creation API: an [http.Handler] that
// serves POST /api/chat, its follow-up operations and the chat pages.
// It keeps the chats it created in memory (the most recent [maxChats]).
// A Server is safe for concurrent use.
type Server struct {
	opts  Options
	fault string
	ui    bool // Options.Protocol is protocol.UI

	store resumable.Store
	// resume answers the resume routes; each request uses a copy with its
	// own hooks.
	resume resumable.Handlers
	// ctx is the agent's: the streams are produced under it, after their
	// responses too, until Close ends it.
	ctx       context.Context
	stop      context.CancelFunc
	producers sync.WaitGroup

	mu      sync.Mutex
	reqIDs  *rand.Rand // request ids, apart so failed requests do not shift chat ids
	chatIDs *rand.Rand // chat, message, stream and tool call ids
	seq     int
	// firstChat is the id of the first chat created, which the
	// chat-id-reused faults give every later chat.
	firstChat string
	chats     map[string]*chat
	order     []string           // chat ids in creation order, for eviction
	keep      int                // how many chats to keep: maxChats
	windows   map[string]*window // rate-limit windows by key
	variant   map[string]bool
	streams   map[string]*message // the messages of the chats kept, by stream id
}

// New returns a mock server with the given options. It fails when the
// fault or a variant is unknown or not one of the protocol's, or Lines is
// negative.
func New(opts Options) (*Server, error) {
	switch opts.Protocol {
	case protocol.Unknown:
		opts.Protocol = protocol.V4
	case protocol.V4, protocol.UI:
	default:
		return nil, fmt.Errorf("unknown protocol %d", opts.Protocol)
	}
	if opts.Fault != "" {
		if _, err := LookupFaultFor(opts.Protocol, opts.Fault); err != nil {
			return nil, err
		}
	}
	variant := map[string]bool{}
	for _, v := range opts.Variants {
		if _, err := LookupVariantFor(opts.Protocol, v); err != nil {
			return nil, err
		}
		variant[v] = true
	}
	if opts.RateLimit < 0 {
		return nil, fmt.Errorf("rate limit must not be negative, got %d", opts.RateLimit)
	}
	if opts.Lines < 0 {
		return nil, fmt.Errorf("lines must be at least 1, got %d", opts.Lines)
	}
	if opts.Lines == 0 {
		opts.Lines = DefaultLines
		if variant[variantLongStream] {
			opts.Lines = LongStreamLines
		}
	}
	if opts.Pace < 0 {
		return nil, fmt.Errorf("pace must not be negative, got %v", opts.Pace)
	}
	if opts.CutAfter < 0 {
		return nil, fmt.Errorf("cut-after must not be negative, got %d", opts.CutAfter)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Sleep == nil {
		opts.Sleep = sleep
	}
	store := opts.Store
	if store == nil {
		store = resumable.NewMemory(resumable.MemoryOptions{Now: opts.Now})
	}
	ctx, stop := context.WithCancel(context.Background())
	s := &Server{
		opts:    opts,
		fault:   opts.Fault,
		ui:      opts.Protocol == protocol.UI,
		store:   store,
		ctx:     ctx,
		stop:    stop,
		reqIDs:  rand.New(rand.NewPCG(opts.Seed, 0x7265717565737473)),
		chatIDs: rand.New(rand.NewPCG(opts.Seed, 0x6368617473636874)),
		chats:   make(map[string]*chat),
		keep:    maxChats,
		windows: map[string]*window{},
		variant: variant,
		streams: map[string]*message{},
	}
	s.resume = resumable.Handlers{Store: store, NoDone: variant[variantResumeNoDone]}
	switch {
	case variant[variantResume204AfterEnd]:
		s.resume.AfterEnd = resumable.AfterEndNoContent
	case variant[variantResumeEmptyAfterEnd]:
		s.resume.AfterEnd = resumable.AfterEndEmpty
	}
	return s, nil
}

// Close stops the streams the agent is still producing, each ended as cut
// in the store (its resumes get an error, never a stream that looks
// finished), and waits for them. A Server leaves no goroutine once its
// streams end; Close ends them early.
func (s *Server) Close() {
	s.stop()
	s.waitProducers()
}

// sleep is the default Options.Sleep.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// newID returns prefix followed by 16 hex digits from src.
func (s *Server) newID(src *rand.Rand, prefix string) string {
	s.mu.Lock()
	v := src.Uint64()
	s.mu.Unlock()
	return fmt.Sprintf("%s%016x", prefix, v)
}

// ServeHTTP routes a request. Every response carries [HeaderVersion] and
// [HeaderRequestID]; errors are JSON objects {"error":{"code","message"}}.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := s.opts.Now()
	var gw *gzipWriter
	if s.variant[variantGzip] && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		gw = newGzipWriter(w)
		w = gw
	}
	resp := &response{Writer: statuswriter.Writer{ResponseWriter: w}}
	resp.requestID = s.newID(s.reqIDs, "req_")
	h := w.Header()
	h.Set(HeaderVersion, Version)
	h.Set(HeaderRequestID, resp.requestID)
	s.route(resp, r)
	if resp.Status == 0 {
		resp.WriteHeader(http.StatusOK)
	}
	if s.opts.Log != nil {
		s.opts.Log(Entry{
			Method: r.Method, Path: r.URL.Path, Status: resp.Status,
			Duration: s.opts.Now().Sub(start), Role: resp.role, RequestID: resp.requestID, Cut: resp.cut,
		})
	}
	if resp.cut {
		// Abort: net/http breaks the connection (HTTP/2: resets the
		// stream) without the body's end, so that the client sees a
		// broken body, never the clean end of a finished stream. The gzip
		// stream is left without its trailer for the same reason.
		panic(http.ErrAbortHandler)
	}
	if gw != nil {
		gw.Close()
	}
}

// route dispatches on the path, then the method. Unknown paths get 404 and
// known paths with another method 405, both before authentication.
func (s *Server) route(w *response, r *http.Request) {
	p := r.URL.Path
	var method string
	var handle func(*response, *http.Request, string)
	var id string
	switch {
	case p == "/":
		method, handle = http.MethodGet, s.index
	case p == chatapi.ChatPath && r.URL.Query().Has("chatId") && (r.Method == http.MethodGet || r.Method == http.MethodHead):
		method, handle = http.MethodGet, s.resumeV4
	case p == chatapi.ChatPath:
		method, handle = http.MethodPost, s.create
	case strings.HasPrefix(p, chatapi.ChatPath+"/"):
		var op string
		var ok bool
		id, op, ok = strings.Cut(strings.TrimPrefix(p, chatapi.ChatPath+"/"), "/")
		if ok && id != "" && !strings.Contains(op, "/") {
			switch op {
			case "status":
				method, handle = http.MethodGet, s.status
			case "subscribe":
				method, handle = http.MethodGet, s.subscribe
			case "publish":
				method, handle = http.MethodPost, s.publish
			case "stream":
				method, handle = http.MethodGet, s.resumeStream
			case "stop":
				method, handle = http.MethodPost, s.stopChat
			}
		}
	case strings.HasPrefix(p, "/chat/"):
		id = strings.TrimPrefix(p, "/chat/")
		if id != "" && !strings.Contains(id, "/") {
			method, handle = http.MethodGet, s.page
		}
	}
	switch {
	case handle == nil:
		s.writeError(w, http.StatusNotFound, codeNotFound, "", "no such route: "+p)
	case r.Method != method && !(method == http.MethodGet && r.Method == http.MethodHead):
		w.Header().Set("Allow", method)
		s.writeError(w, http.StatusMethodNotAllowed, codeMethodNotAllowed, "",
			fmt.Sprintf("%s %s is not supported; use %s", r.Method, p, method))
	default:
		handle(w, r, id)
	}
}

// index answers GET / with the mock's name and version, for client suites
// that check the mock's version before they start (as stripe-go does with
// stripe-mock).
func (s *Server) index(w *response, _ *http.Request, _ string) {
	w.Header().Set(HeaderChoice, choiceNotInSpec)
	writeJSON(w, http.StatusOK, struct {
		Name    string `json:"name"`
		Version string `json:"version"`
		Fault   string `json:"fault,omitempty"`
	}{"chatwire mock", Version, s.fault})
}

// response records the status and the key role of a response for the log.
type response struct {
	statuswriter.Writer
	role      Role
	requestID string
	cut       bool // the stream stopped before its end: abort the response
}

// gate runs the checks every chat operation passes before its body is
// read: authentication (401), the key's scenario (429, 500, 403, and 402
// when the operation spends credits), then the X-Mock-Scenario header.
// It writes the error response and reports false when one applies.
func (s *Server) gate(w *response, r *http.Request, spends bool) bool {
	role, reason := authenticate(r.Header)
	if role == RoleUnknown && s.fault == faultUnknownKey && strings.HasPrefix(bearerKey(r.Header), KeyPrefix) {
		role, reason = RoleValid, ""
	}
	w.role = role
	switch {
	case role == RoleNone && s.fault == faultMissingKey403:
		s.writeError(w, http.StatusForbidden, codeForbidden, "", "no permission for the team")
		return false
	case !role.authenticated():
		s.writeError(w, http.StatusUnauthorized, codeUnauthorized, "", reason)
		return false
	case role == RoleRateLimited:
		w.Header().Set("Retry-After", "1")
		s.writeError(w, http.StatusTooManyRequests, codeRateLimited, "", "rate limit exceeded: retry after 1 second")
		return false
	case role == RoleServerError:
		s.writeError(w, http.StatusInternalServerError, codeServerError, "", "internal server error")
		return false
	case role == RoleOtherTeam && s.fault != faultOtherTeam401:
		s.forbidden(w, "this API key has no permission for the team")
		return false
	}
	if team := r.Header.Get(HeaderTeam); team != "" && team != role.team() && s.fault != faultOtherTeam401 {
		s.forbidden(w, fmt.Sprintf("this API key has no permission for team %q", team))
		return false
	}
	if !s.underLimit(w, r) {
		return false
	}
	if spends && role == RoleNoCredits && s.fault != faultNoCredits && s.fault != faultNoCredits401 && s.fault != faultNoCredits403 {
		s.writeError(w, http.StatusPaymentRequired, codeCredits, "", "insufficient credits: add credits to the team to create chats")
		return false
	}
	return s.scenario(w, r)
}

// forbidden writes a 403, or the 401 the other-team-401 fault writes instead.
func (s *Server) forbidden(w *response, msg string) {
	if s.fault == faultOtherTeam401 {
		s.writeError(w, http.StatusUnauthorized, codeUnauthorized, "", "invalid API key")
		return
	}
	s.writeError(w, http.StatusForbidden, codeForbidden, "", msg)
}

// scenarioValues returns the values X-Mock-Scenario takes: the error
// statuses of the spec's status table.
func scenarioValues() []string {
	var vs []string
	for _, status := range chatapi.Statuses() {
		if status >= 400 {
			vs = append(vs, strconv.Itoa(status))
		}
	}
	return vs
}

// scenarioStatus returns the status and error code a value of
// X-Mock-Scenario forces ([scenarioValues]), and false for a value it does
// not know.
func scenarioStatus(v string) (int, string, bool) {
	switch v {
	case "400":
		return http.StatusBadRequest, codeInvalidRequest, true
	case "401":
		return http.StatusUnauthorized, codeUnauthorized, true
	case "402":
		return http.StatusPaymentRequired, codeCredits, true
	case "403":
		return http.StatusForbidden, codeForbidden, true
	case "422":
		return http.StatusUnprocessableEntity, codeValidation, true
	case "429":
		return http.StatusTooManyRequests, codeRateLimited, true
	case "500":
		return http.StatusInternalServerError, codeServerError, true
	}
	return 0, "", false
}

// scenario applies the X-Mock-Scenario header: it writes the forced error
// (or a 400 for a value it does not know) and reports false, or reports
// true when the header is absent.
func (s *Server) scenario(w *response, r *http.Request) bool {
	v := strings.TrimSpace(r.Header.Get(HeaderScenario))
	if v == "" {
		return true
	}
	status, code, ok := scenarioStatus(v)
	if !ok {
		s.writeError(w, http.StatusBadRequest, codeInvalidScenario, "",
			fmt.Sprintf("%s must be one of %s; got %q", HeaderScenario, strings.Join(scenarioValues(), ", "), v))
		return false
	}
	if status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", "1")
	}
	s.writeError(w, status, code, "", fmt.Sprintf("status %s forced by the %s header", v, HeaderScenario))
	return false
}

// bearerKey returns the key of a Bearer Authorization header, or "".
func bearerKey(h http.Header) string {
	scheme, key, _ := strings.Cut(h.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(key)
}
