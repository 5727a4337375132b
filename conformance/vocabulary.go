package conformance

import "github.com/chatwire/chatwire/conformance/internal/check"

// This file gives the vocabulary the checker's packages share (package
// internal/check) the names users import. Each name is the type or value
// itself, not a copy: a Check of the catalogue is a Check here.

// A Check is one requirement of the spec and how to judge it: data (its
// ID, the spec sentence quoted, its [Level], [Kind], [Cost] and the key
// roles its probes need) plus a judge that reads exchanges, never the
// network, bound to it by the catalogue. Its method NeedsText returns the
// roles as the check list shows them ("valid", "other-team|-forbidden-header",
// "-"). `go doc github.com/chatwire/chatwire/conformance/internal/check.Check`
// documents its fields.
type Check = check.Check

// Kind says how a check gets its exchanges.
type Kind = check.Kind

// The kinds.
const (
	KindProbe     Kind = check.KindProbe     // judges the exchanges of its own probes
	KindInvariant Kind = check.KindInvariant // judges every exchange of the run where it applies
)

// Level is how strongly the spec asks for what a check tests.
type Level = check.Level

// The levels.
const (
	Must   Level = check.Must
	Should Level = check.Should
	Infos  Level = check.Infos
)

// Outcome is the verdict of one check.
type Outcome = check.Outcome

// The outcomes, after h2spec, Autobahn and Schemathesis.
const (
	Pass         Outcome = check.Pass         // the requirement is met
	Warn         Outcome = check.Warn         // conformant, but a SHOULD or the canonical form is not met
	Info         Outcome = check.Info         // behaviour the spec leaves open, recorded
	Fail         Outcome = check.Fail         // a MUST is violated (or a SHOULD with -strict)
	Skip         Outcome = check.Skip         // not run: not selected, a key role or the chat budget is missing
	Inconclusive Outcome = check.Inconclusive // the environment interfered (429, 402, timeout, unreachable)
	Error        Outcome = check.Error        // chatwire itself failed
)

// Outcomes lists the outcomes in report order.
func Outcomes() []Outcome { return check.Outcomes() }

// A Probe is one deterministic request of the catalogue: what to send
// (method, path, headers, body), with the key named by its [Auth] role,
// never by its value, its [Cost] and how much of the answer to read
// ([ReadMode]). Checks name the probes whose exchanges they judge by its
// ID, which is stable API: a recorder files transcripts under it and a
// replayer finds them by it. `go doc
// github.com/chatwire/chatwire/conformance/internal/check.Probe` documents
// its fields.
type Probe = check.Probe

// Auth is a probe's Authorization header: a scheme and the role of the key
// that follows it. The zero Auth, and any with RoleNone, sends no header;
// RoleEmpty sends the scheme and a space. Its String method returns the
// header as transcripts show it: "Bearer <key:valid>", "Bearer ", or "".
type Auth = check.Auth

// ReadMode says how much of a 200 response body an exchanger reads.
type ReadMode = check.ReadMode

const (
	// ReadFirstLine stops a 200 body that is not JSON after its first
	// non-blank line: a chat was created, its stream proved it, and closing
	// early limits the agent's work. JSON bodies and error bodies are read
	// whole, up to the byte cap.
	ReadFirstLine ReadMode = check.ReadFirstLine
	// ReadToCap reads a body to its end or to the exchanger's line, byte or
	// time cap, whichever comes first.
	ReadToCap ReadMode = check.ReadToCap
	// ReadCut reads a 200 stream to a point inside its first text part and
	// closes it: the first connection of a resume check.
	ReadCut ReadMode = check.ReadCut
)

// Cost says whether a probe spends: whether a conformant service creates a
// chat (and consumes credits) when it answers.
type Cost = check.Cost

// The costs.
const (
	CostFree Cost = check.CostFree // a conformant service creates nothing (it rejects the request)
	CostChat Cost = check.CostChat // a conformant service creates a chat
	// CostMaybe: the spec allows the service to accept the request (and
	// create a chat) or to refuse it, such as an earlier-set model or an
	// optional field given null. It is budgeted as a chat.
	CostMaybe Cost = check.CostMaybe
)

// A Role names the key a probe authenticates with, never the key itself:
// reports, curl lines and transcripts show the role, and only the [Live]
// exchanger turns it into a key. The names match the transcript package's
// key placeholders ("Bearer <key:valid>"). Its EnvVar method returns the
// environment variable that holds the key of the role, or "" for the
// roles that have none (unknown, empty, none).
type Role = check.Role

// The roles a probe's credential can play.
const (
	// RoleValid is the key in CHATWIRE_API_KEY: valid, with credits and
	// permission for the team it works in.
	RoleValid Role = check.RoleValid
	// RoleNoCredits is the key in CHATWIRE_API_KEY_NO_CREDITS: valid, but
	// its team has no credits left.
	RoleNoCredits Role = check.RoleNoCredits
	// RoleOtherTeam is the key in CHATWIRE_API_KEY_OTHER_TEAM: valid, but
	// without permission for the team the request names.
	RoleOtherTeam Role = check.RoleOtherTeam
	// RoleUnknown is a key the service never issued, made by [UnknownKey]
	// from the valid key's prefix and a random opaque part.
	RoleUnknown Role = check.RoleUnknown
	// RoleEmpty is an Authorization header whose scheme has no credential.
	RoleEmpty Role = check.RoleEmpty
	// RoleNone is a request without an Authorization header.
	RoleNone Role = check.RoleNone
)

// The environment variables the keys are read from.
const (
	EnvKey          = check.EnvKey
	EnvKeyNoCredits = check.EnvKeyNoCredits
	EnvKeyOtherTeam = check.EnvKeyOtherTeam
)

// UIOptions say how a run tells the protocols apart and which AI SDK
// clients judge a UI message stream: Protocol forces how every stream is
// read (protocol.Unknown, the default, tells it per response), SDK is the
// client release whose chunk schema and assembly judge (the zero Release
// means sdk.Newest()), Releases the releases chat/4.5/ui-skew reads each
// stream with (nil means sdk.DefaultReleases()). The zero UIOptions tells
// the protocol from each response, judges with the newest client and
// reports the skew of the default releases.
type UIOptions = check.UIOptions

// UnknownChat is the chat id a follow-up probe addresses when the run
// created no chat to address.
const UnknownChat = check.UnknownChat

// FollowUpPath returns the path of follow-up operation op with the chat id
// left as "{chatId}": the runner puts in the id of the first chat the run
// created, or [UnknownChat].
func FollowUpPath(op string) string { return check.FollowUpPath(op) }

// ResumeContracts returns the contracts -resume names, in the catalogue's
// order: ai-sdk, workflow, ai-sdk-4, subscribe.
func ResumeContracts() []string { return check.ResumeContracts() }

// ParseResume reads -resume's comma-separated contract names ("" is none);
// an unknown name is an error that lists the known ones.
func ParseResume(s string) ([]string, error) { return check.ParseResume(s) }

// ResumeProbeID returns the ID of the resume probe group of contract c,
// "resume/" and its name: the transcript of its connections is filed under
// it.
func ResumeProbeID(c string) string { return check.ResumeProbeID(c) }

// ResumeSteps returns the steps of a resume probe group in sending order,
// one request each: create, resume, reference, after-end, unknown, and
// the three auth requests.
func ResumeSteps() []string { return check.ResumeSteps() }
