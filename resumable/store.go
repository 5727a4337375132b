package resumable

import (
	"context"
	"time"

	"github.com/chatwire/chatwire/internal/protocol"
)

// Protocol is the stream protocol of a kept stream (internal/protocol's
// type, named here so that services can set [Meta.Protocol]).
type Protocol = protocol.Protocol

// The protocols of [Meta.Protocol].
const (
	// V4 is the AI SDK v4 data stream: "<code>:<JSON>" lines, indexed by
	// line (the 2: line is index 0).
	V4 = protocol.V4
	// UI is the UI message stream of AI SDK 5, 6 and 7: Server-Sent Events,
	// indexed by chunk (every data event but [DONE], from 0).
	UI = protocol.UI
)

// A Store keeps streams: each line (v4) or chunk (UI) with its index, an
// end marker with its reason, and the keys a service resumes by (a chat's
// active and latest streams, a run id's stream). Chat ids, run ids and
// stream ids share one namespace. A Store enforces its bounds (chunks,
// bytes, age) and names what they drop ([EvictedError]).
//
// Its shape is that of Redis Streams: Append is XADD with a cap, Read is
// XRANGE (and XREAD BLOCK when it waits), End writes an end marker, every
// write renews the stream's time to live. [Memory] is the in-memory Store.
//
// A Store is safe for concurrent use. Items handed to Append are not kept:
// the Store copies them. Items a Read returns must not be modified.
type Store interface {
	// Create adds the stream m describes, with no items. It becomes its
	// chat's active and latest stream, and m.RunID (when set) names it.
	// It fails with [ErrExists] when m.ID or m.RunID is taken (by a
	// stream, a run or a chat), and with [ErrOwner] when m.ChatID is a
	// chat of another owner.
	Create(ctx context.Context, m Meta) error
	// Append adds items to the end of stream id; the first gets index at,
	// which must be the stream's length ([ErrIndex] otherwise, nothing
	// added). It fails with [ErrEnded] when the stream has ended, with
	// [ErrNotFound] or an [EvictedError] when it is not kept.
	Append(ctx context.Context, id string, at int64, items ...[]byte) error
	// End writes stream id's end marker, after appending tail (items that
	// end the stream, such as a stop's abort chunk) at its end. The chat's
	// active stream is then none. It fails with [ErrEnded] when the stream
	// has already ended.
	End(ctx context.Context, id string, e End, tail ...[]byte) error
	// Read returns items of stream id from index from on (as many as the
	// store hands out at once, at least one when there is one). With wait,
	// when there is none yet and the stream has not ended, it waits for
	// one, for the end, or for ctx to be done (then it returns ctx's
	// error). An index the bounds dropped is an [EvictedError].
	Read(ctx context.Context, id string, from int64, wait bool) (Batch, error)
	// Stat returns what is known of the stream named by id, a stream id
	// or a run id: [ErrNotFound] when neither, an [EvictedError] when the
	// bounds dropped it.
	Stat(ctx context.Context, id string) (Info, error)
	// Chat returns the chat record of chatID: its owner, its active and
	// latest streams; [ErrNotFound] when there is none.
	Chat(ctx context.Context, chatID string) (Chat, error)
}

// Meta describes a stream when it is created.
type Meta struct {
	ID        string // the stream's id (the spec's streamId); required
	ChatID    string // the chat the stream answers in; required
	RunID     string // a workflow run id that names the stream too; optional
	MessageID string // the assistant message the stream writes; optional
	// Owner is who may read the stream, as the service's authorization
	// hook sees it (a team, a user); opaque to the store.
	Owner    string
	Protocol Protocol  // V4 or UI; required
	Created  time.Time // zero: the store's clock at Create
}

// Info is the state of a stream.
type Info struct {
	Meta
	// First is the index of the first item kept: 0 unless the stream's
	// bounds dropped its oldest items, and Dropped then names the bound.
	First   int64
	Dropped Why
	// Len is the number of items written so far: the index the next one
	// gets. The last item's index (the workflow transport's tail index)
	// is Len-1.
	Len   int64
	Bytes int64 // the bytes the store counts for the items kept
	// End is the end marker; nil while the stream is written.
	End *End
	// Updated is the time of the last write (Create, Append or End),
	// from which the stream's time to live counts.
	Updated time.Time
}

// Ended reports whether the stream has ended.
func (i *Info) Ended() bool { return i.End != nil }

// Batch is what a [Store.Read] returns.
type Batch struct {
	From  int64    // the index of Items[0]
	Items [][]byte // the items from From on; not to be modified
	// End is the stream's end marker when Items reach the stream's end
	// and the stream has ended; nil otherwise.
	End *End
}

// Chat is a chat's record in a store.
type Chat struct {
	ID     string
	Owner  string
	Active string // the stream being written, "" when none
	Latest string // the stream created last (the active one, or an ended one)
}

// Stream returns the stream to resume: the active one, else the latest.
func (c *Chat) Stream() string {
	if c.Active != "" {
		return c.Active
	}
	return c.Latest
}

// EndReason says why a stream ended.
type EndReason string

// The end reasons.
const (
	// Finished: its producer wrote it to the end.
	Finished EndReason = "finished"
	// Stopped: a stop ([Stop]) ended it before its end, for every reader.
	Stopped EndReason = "stopped"
	// Cut: its producer stopped before the end without meaning to (it
	// failed, or the service shut down): the stream will never be whole.
	// Handlers answer it as an error, never as a finished stream.
	Cut EndReason = "cut"
)

// End is a stream's end marker.
type End struct {
	Reason EndReason
	At     time.Time // zero: the store's clock
	// Detail says more, for a Cut: what stopped the producer.
	Detail string
}
