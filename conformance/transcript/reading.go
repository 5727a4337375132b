package transcript

// A Reading is what a run read of one response body, once, while the body
// streamed in: the facts every check judges, typed. The conformance
// checker builds it (a package of its own reads each body once) and its
// judges read it; they never parse a body. A transcript stores the
// reading of an exchange whose body it keeps only an excerpt of (the end
// event's "reading"), so that a replay judges the whole body as the live
// run did; of a body it keeps whole, a replay reads the lines again into
// the same reading.
//
// Quoted texts in a reading (excerpts, reasons) are cut to a few hundred
// bytes: a reading stays small whatever the body.
type Reading struct {
	// Kind says how the body was read: "json" (a JSON object), "stream"
	// (a 200 to a request that asked for a stream, whose body is not a
	// JSON object), or "other" (any other body, such as an error's).
	Kind string `json:"kind"`
	// Protocol is the stream's protocol, "v4" or "ui", and ProtocolBy what
	// told it ("its headers", "its first bytes", "-protocol ui", …).
	Protocol   string `json:"protocol,omitempty"`
	ProtocolBy string `json:"protocol_by,omitempty"`
	// Whole reports that the body was read to its end: its last bytes are
	// the service's, not where the reader stopped.
	Whole bool `json:"whole"`

	JSON *JSONReading  `json:"json,omitempty"`
	V4   *V4Reading    `json:"v4,omitempty"`
	UI   *UIReading    `json:"ui,omitempty"`
	End  *EndReading   `json:"end,omitempty"`
	IDs  []ChatIDFound `json:"chat_ids,omitempty"`
	Text *TextReading  `json:"text,omitempty"`
	// Items are the stream's lines (v4) or chunks (UI) one by one, for
	// the checks that compare several connections of one stream (the
	// resume checks); nil for other probes.
	Items *ItemsReading `json:"items,omitempty"`
}

// ItemsReading is a stream read item by item, in the index space of
// RESUME.md and package resumable: each non-blank line of a v4 stream
// (its 2: line is 0), each SSE event with data but [DONE] of a UI stream
// (comments are not items).
type ItemsReading struct {
	// Count is how many items were read.
	Count int `json:"count"`
	// Hashes are the first MaxItems items' digests, in order: the first 16
	// hex digits of the SHA-256 of the line (v4) or the event's data (UI).
	// Two connections of one stream carry the same items when their
	// hashes are equal.
	Hashes []string `json:"hashes,omitempty"`
	// Types are the items' types, in step with Hashes: the v4 line's
	// code, or the UI chunk's type; what a reason names.
	Types []string `json:"types,omitempty"`
	// Capped: the stream had more than MaxItems items; those past it are
	// counted, not kept.
	Capped bool `json:"capped,omitempty"`
	// Cut is how many items were read before the reader closed the body
	// on purpose (End.Reason "cut"): it cuts inside the first text part,
	// after the first text delta that follows a text start and one item
	// more. 0 when the body was not cut.
	Cut int `json:"cut,omitempty"`
	// MessageID is the messageId of the UI stream's start chunk, "" when
	// it has none.
	MessageID string `json:"message_id,omitempty"`
	// Finished: the stream carries the end of its message (a finish
	// chunk, a v4 d: line).
	Finished bool `json:"finished,omitempty"`
}

// MaxItems is how many items' digests an [ItemsReading] keeps.
const MaxItems = 20_000

// TextReading is what any body says in its first line, for the checks of
// error bodies.
type TextReading struct {
	FirstLine string `json:"first_line,omitempty"` // the first non-blank line, cut
}

// JSONReading is a body read as JSON.
type JSONReading struct {
	Object bool   `json:"object"`          // the body is a JSON object
	Error  string `json:"error,omitempty"` // why it is not
	// The members of the object the checks read, as raw JSON; "" when
	// absent.
	ChatID             string `json:"chat_id,omitempty"`
	URL                string `json:"url,omitempty"`
	StreamID           string `json:"stream_id,omitempty"`
	AssistantMessageID string `json:"assistant_message_id,omitempty"`
}

// Fault is a place in a body where a reading found something wrong, and
// what.
type Fault struct {
	Event  int    `json:"event,omitempty"` // the UI stream's event, from 1
	Line   int    `json:"line,omitempty"`  // the body's line, from 1
	Col    int    `json:"col,omitempty"`
	Offset int64  `json:"offset,omitempty"`
	Type   string `json:"type,omitempty"`  // the chunk's type
	Name   string `json:"name,omitempty"`  // the error's name, as a client names it
	Msg    string `json:"msg"`             // what is wrong
	Text   string `json:"text,omitempty"`  // the line, the event's data or the value at fault, cut
	Field  string `json:"field,omitempty"` // the value at fault
}

// V4Reading is a body read as the AI SDK v4 data stream.
type V4Reading struct {
	Parts int `json:"parts"` // parts read before a fault, if any
	// FirstLine is the first non-blank line, cut; FirstErr what is wrong
	// with it as the spec's first line; FirstChatID the chatId JSON
	// reads from it, and PrefixChatID the one the spec's prefix shortcut
	// reads (PrefixFound false when it finds none).
	FirstLine    string `json:"first_line,omitempty"`
	FirstErr     string `json:"first_err,omitempty"`
	FirstChatID  string `json:"first_chat_id,omitempty"`
	HasFirstID   bool   `json:"has_first_chat_id,omitempty"`
	PrefixChatID string `json:"prefix_chat_id,omitempty"`
	PrefixFound  bool   `json:"prefix_found,omitempty"`
	// Bad is the first line that is not <code>:<JSON> or not the SDK's
	// shape for its code; Unknown the first line with a code the SDK does
	// not know.
	Bad     *Fault `json:"bad,omitempty"`
	Unknown *Fault `json:"unknown,omitempty"`
}

// UIReading is a body read as the UI message stream.
type UIReading struct {
	Events int  `json:"events"` // events with data, [DONE] included
	Chunks int  `json:"chunks"` // chunks delivered
	Done   bool `json:"done"`   // a data: [DONE] was read
	// Bad is the event every client throws at (its data is not JSON, or
	// the SSE framing breaks); ReadErr another error that ended the
	// reading (an event past the decoder's maximum).
	Bad     *Fault `json:"bad,omitempty"`
	ReadErr string `json:"read_err,omitempty"`
	// Unterminated is the last event, left without its blank line: the
	// client drops it.
	Unterminated *Fault `json:"unterminated,omitempty"`
	// Ignored are what the client ignores (unknown fields, named events,
	// events after [DONE]), one sentence each.
	Ignored []string `json:"ignored,omitempty"`
	// First is the first chunk: its event, type and data (cut), and the
	// raw messageMetadata.chatId it carries (FirstChatIDFound).
	First            *Fault `json:"first,omitempty"`
	FirstStart       bool   `json:"first_start,omitempty"`
	FirstChatID      string `json:"first_chat_id,omitempty"`
	FirstChatIDFound bool   `json:"first_chat_id_found,omitempty"`
	// LaterChatID says where a chunk after the first carries a
	// messageMetadata.chatId, "" when none does.
	LaterChatID string `json:"later_chat_id,omitempty"`
	// Client is the release whose schema and assembly the checks judge
	// with; Schema and Assembly are where its schema rejects a chunk and
	// where its assembly throws (up to the schema's throw); Assembled the
	// chunks its assembly took.
	Client    string `json:"client"`
	Schema    *Fault `json:"schema,omitempty"`
	Assembly  *Fault `json:"assembly,omitempty"`
	Assembled int    `json:"assembled"`
	// Skew is each release of the skew range and where it throws, schema
	// or assembly, reading the whole stream as readUIMessageStream does.
	Skew []ReleaseThrow `json:"skew,omitempty"`
}

// ReleaseThrow is where one client release throws on a stream, or nil.
type ReleaseThrow struct {
	Release string `json:"release"`
	Throw   *Throw `json:"throw,omitempty"`
}

// Throw is where a release throws.
type Throw struct {
	Event       int    `json:"event"`        // the chunk's number among the stream's chunks, from 1
	StreamEvent int    `json:"stream_event"` // the event's number among the stream's events, from 1
	Source      string `json:"source"`
	Type        string `json:"type,omitempty"`
	Field       string `json:"field,omitempty"`
	Reason      string `json:"reason"`
}

// EndReading is what each client's user is left with once the stream
// ended: the message as the client holds it, and what of the stream the
// client does not show.
type EndReading struct {
	Clients []ClientEnd `json:"clients"`
	// Finished: the stream carries the end of a turn (a finish chunk, a
	// d: part); Framed: a v4 stream frames its turn in the SDK's step
	// parts; Abort: where an abort chunk is; OpenSteps: start_step parts
	// no finish_step closed.
	Finished  bool   `json:"finished"`
	Framed    bool   `json:"framed,omitempty"`
	Abort     string `json:"abort,omitempty"`
	OpenSteps int    `json:"open_steps,omitempty"`
	// Dropped are the lines carrying a chunk or part no client reads;
	// BadUTF8 where the first byte that is not UTF-8 is.
	Dropped []string `json:"dropped,omitempty"`
	BadUTF8 string   `json:"bad_utf8,omitempty"`
	// Errors are the error chunks or parts; SuccessAfterError a finish
	// that follows one and claims a reason other than "error";
	// NoReasonAfterError a finish without a reason that follows one.
	Errors             []StreamError `json:"errors,omitempty"`
	SuccessAfterError  string        `json:"success_after_error,omitempty"`
	NoReasonAfterError string        `json:"no_reason_after_error,omitempty"`
}

// StreamError is an error a stream carries.
type StreamError struct {
	At   string `json:"at"`
	Text string `json:"text"`
}

// ClientEnd is what one client release leaves its user with.
type ClientEnd struct {
	Client string `json:"client"`
	// Newest: the newest release of a maintained major.
	Newest bool `json:"newest,omitempty"`
	// Shown is the error the client shows at or before the end, "" for
	// none.
	Shown string   `json:"shown,omitempty"`
	Empty bool     `json:"empty,omitempty"`
	Open  []string `json:"open,omitempty"`
	Lost  []string `json:"lost,omitempty"`
	Twice []string `json:"twice,omitempty"`
}

// ChatIDFound is a chat id a response carries, and where.
type ChatIDFound struct {
	ID    string `json:"id"`
	Where string `json:"where"`
}
