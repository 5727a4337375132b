package check

import (
	"net/http"

	"github.com/chatwire/chatwire/internal/chatapi"
)

// A Probe is one deterministic request of the catalogue: what to send,
// with the key named by its role, never by its value. Checks name the
// probes whose exchanges they judge by [Probe.ID], which is stable API: a
// recorder files transcripts under it and a replayer finds them by it.
type Probe struct {
	ID     string      // stable, such as "auth/missing-key" or "model/current[gamma-k3]"
	Method string      // POST, or GET for the status and subscribe follow-ups
	Path   string      // relative to the base URL, such as "/api/chat"; "{chatId}" stands for the run's first chat (see [FollowUpPath])
	Auth   Auth        // the Authorization header, by role
	Header http.Header // the other request headers (Content-Type, a team header)
	Body   []byte      // sent as is; not always JSON (body/not-json)
	Cost   Cost        // CostChat when a conformant service creates a chat for it
	Read   ReadMode    // how much of a 200 body to read
	// AuthProbe marks the probes that test authentication: a 401 or 403 is
	// what they are about, not a failed precondition.
	AuthProbe bool
	// Burst marks the rate-limit probe: sent up to the run's
	// RateLimitBurst times without pacing, until a 429 arrives.
	Burst bool
	// Resume names the contract of a resume probe group ("ai-sdk",
	// "workflow", "ai-sdk-4", "subscribe"; see [ResumeContracts]): one
	// probe whose exchanges are the group's several connections, each a
	// step. The run sends it only for the contracts of -resume.
	Resume string
	// Step is the step of a resume group a request of it is (see
	// [ResumeSteps]); the run sets it on each request it derives.
	Step string
}

// Auth is a probe's Authorization header: a scheme and the role of the key
// that follows it. The zero Auth, and any with RoleNone, sends no header;
// RoleEmpty sends the scheme and a space.
type Auth struct {
	Scheme string // "Bearer" or "Basic"
	Role   Role
}

// String returns the header value with the key's role in place of the key,
// as transcripts show it: "Bearer <key:valid>", "Bearer ", or "" when no
// header is sent.
func (a Auth) String() string {
	switch a.Role {
	case RoleNone, "":
		return ""
	case RoleEmpty:
		return a.Scheme + " "
	}
	return a.Scheme + " <key:" + string(a.Role) + ">"
}

// KeyRole returns the role whose key p needs, or "" for none.
func KeyRole(p *Probe) Role {
	switch p.Auth.Role {
	case RoleNone, RoleEmpty, "":
		return ""
	case RoleUnknown:
		return RoleValid
	}
	return p.Auth.Role
}

// ReadMode says how much of a 200 response body an exchanger reads.
type ReadMode int

const (
	// ReadFirstLine stops a 200 body that is not JSON after its first
	// non-blank line: a chat was created, its stream proved it, and closing
	// early limits the agent's work. JSON bodies and error bodies are read
	// whole, up to the byte cap.
	ReadFirstLine ReadMode = iota
	// ReadToCap reads a body to its end or to the exchanger's line, byte or
	// time cap, whichever comes first.
	ReadToCap
	// ReadCut reads a 200 stream to a point inside its first text part
	// and closes it, as a client whose connection drops there: the first
	// connection of a resume check (transcript.EndCut).
	ReadCut
)

// Cost says whether a probe spends: whether a conformant service creates a
// chat (and consumes credits) when it answers.
type Cost string

// The costs.
const (
	CostFree Cost = "free" // a conformant service creates nothing (it rejects the request)
	CostChat Cost = "chat" // a conformant service creates a chat
	// CostMaybe: the spec allows the service to accept the request (and
	// create a chat) or to refuse it, such as an earlier-set model or an
	// optional field given null. It is budgeted as a chat.
	CostMaybe Cost = "maybe"
)

// Spends reports whether a conformant service may create a chat for a
// probe of cost c.
func Spends(c Cost) bool { return c == CostChat || c == CostMaybe }

// ChatIDPlaceholder stands in a follow-up path for the id of a chat the run
// created; [UnknownChat] replaces it when the run created none.
const ChatIDPlaceholder = "{chatId}"

// UnknownChat is the chat id a follow-up probe addresses when the run
// created no chat to address.
const UnknownChat = "chatwire-probe-no-chat"

// FollowUpPath returns the path of follow-up operation op with the chat id
// left as "{chatId}": the runner puts in the id of the first chat the run
// created, or [UnknownChat].
func FollowUpPath(op string) string { return chatapi.ChatPath + "/" + ChatIDPlaceholder + "/" + op }
