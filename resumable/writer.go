package resumable

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/chatwire/chatwire/uistream"
)

// HeaderRunID is the response header of a POST that names its workflow
// run: the workflow transport (@ai-sdk/workflow's WorkflowChatTransport)
// throws without it, and resumes with GET {api}/{runId}/stream.
const HeaderRunID = "X-Workflow-Run-Id"

// A Writer is what a service writes its stream through to make it
// resumable: it keeps each line (v4) or chunk (UI) in a [Store] with its
// index, then writes it to the live response. Give it to the protocol's
// encoder, as the destination of [linestream.NewWriter] or
// [uistream.NewWriter], which write one part per Write and flush: the
// Writer is an [http.Flusher] and passes the flush on.
//
// It reads what is written as the protocol's clients do (see the package
// doc's index spaces): a v4 line is kept once its "\n" is written, a UI
// chunk once its event's blank line is; SSE comments (keep-alives) and
// "data: [DONE]" go to the live response only. The live response gets the
// bytes as written.
//
// The live response and the store are independent: when the client goes
// away, the live writes fail and the Writer goes on keeping the stream
// (LiveErr says it), so a producer that goes on writing (with a context
// that outlives the request) leaves the whole stream to resume; when the
// store fails, the live response goes on unresumable, and the store's
// error is reported once, by Close (and StoreErr). Write fails only when
// neither is left, and with [ErrStopped] when a [Stop] ended the stream:
// the live response then gets what the stop added and a clean end.
//
// A Writer is not safe for concurrent use.
type Writer struct {
	ctx      context.Context
	store    Store
	meta     Meta
	live     io.Writer
	sp       splitter
	next     int64 // the index of the next item
	storeErr error
	liveErr  error
	stopped  bool
	closed   bool
	frame    []byte // the live frames of a stop's items
}

// NewWriter creates stream m in store (it becomes its chat's active and
// latest stream) and returns the Writer that keeps it and writes it to
// live. live may be nil for a stream that nobody reads live (a create
// answered with JSON, a producer running on its own).
//
// ctx is used for every store call: it must outlive the request when the
// stream is to be kept after its client goes away. When live is an
// [http.ResponseWriter] and m.RunID is set, NewWriter sets [HeaderRunID]
// on it, so call it before the response's head is written. A store that
// fails to create the stream does not stop the live response: Close
// reports it.
func NewWriter(ctx context.Context, store Store, live io.Writer, m Meta) *Writer {
	w := &Writer{ctx: ctx, store: store, meta: m, live: live, sp: splitter{ui: m.Protocol == UI}}
	if rw, ok := live.(http.ResponseWriter); ok && m.RunID != "" {
		rw.Header().Set(HeaderRunID, m.RunID)
	}
	if err := store.Create(ctx, m); err != nil {
		w.storeErr = fmt.Errorf("resumable: keep stream %s: %w", m.ID, err)
	}
	return w
}

// errClosed is what Write returns after Close or Cut.
var errClosed = errors.New("resumable: write to a closed Writer")

// Write keeps the lines or chunks that p completes, then writes p to the
// live response. It returns len(p) unless neither the store nor the live
// response is left, or the stream was stopped ([ErrStopped]).
func (w *Writer) Write(p []byte) (int, error) {
	switch {
	case w.closed:
		return 0, errClosed
	case w.stopped:
		return 0, ErrStopped
	}
	items := w.sp.split(p)
	if len(items) > 0 && w.storeErr == nil {
		if err := w.store.Append(w.ctx, w.meta.ID, w.next, items...); err != nil {
			if errors.Is(err, ErrEnded) {
				return 0, w.stop()
			}
			w.storeErr = fmt.Errorf("resumable: keep stream %s at index %d: %w", w.meta.ID, w.next, err)
		}
	}
	w.next += int64(len(items))
	if w.live != nil && w.liveErr == nil {
		if _, err := w.live.Write(p); err != nil {
			w.liveErr = err
		}
	}
	if w.storeErr != nil && (w.live == nil || w.liveErr != nil) {
		if w.liveErr != nil {
			return 0, errors.Join(w.storeErr, w.liveErr)
		}
		return 0, w.storeErr
	}
	return len(p), nil
}

// Flush flushes the live response, when it can.
func (w *Writer) Flush() {
	if f, ok := w.live.(http.Flusher); ok && w.liveErr == nil {
		f.Flush()
	}
}

// stop catches the live response up with a stopped stream (the items the
// stop added, then, for the UI stream, data: [DONE]) and returns
// ErrStopped.
func (w *Writer) stop() error {
	w.stopped = true
	if w.live == nil || w.liveErr != nil {
		return ErrStopped
	}
	for from := w.next; ; {
		b, err := w.store.Read(w.ctx, w.meta.ID, from, false)
		if err != nil {
			return ErrStopped
		}
		for _, it := range b.Items {
			w.frame = w.frame[:0]
			if w.sp.ui {
				w.frame = uistream.AppendChunk(w.frame, it)
			} else {
				w.frame = append(append(w.frame, it...), '\n')
			}
			if _, err := w.live.Write(w.frame); err != nil {
				return ErrStopped
			}
		}
		from += int64(len(b.Items))
		if len(b.Items) == 0 || b.End != nil {
			break
		}
	}
	if w.sp.ui {
		w.live.Write(uistream.AppendDone(w.frame[:0]))
	}
	w.Flush()
	return ErrStopped
}

// Detach stops writing to the live response and goes on keeping the
// stream: call it before the handler that owns the response returns while
// the producer goes on.
func (w *Writer) Detach() { w.live = nil }

// Index returns the number of lines or chunks written so far: the index
// of the next.
func (w *Writer) Index() int64 { return w.next }

// StoreErr returns the store's first error, nil while it keeps the
// stream.
func (w *Writer) StoreErr() error { return w.storeErr }

// LiveErr returns the live response's first error (the client went away),
// nil while it takes the stream.
func (w *Writer) LiveErr() error { return w.liveErr }

// Close ends the stream as finished: it keeps a last v4 line written
// without its "\n" and writes the end marker. It returns the store's
// first error, if the store failed (then it marks the stream cut, if the
// store takes it, so that its readers are told). A stopped stream is
// left as the stop ended it. Close after Close or Cut does nothing and
// returns nil: the error is reported once.
func (w *Writer) Close() error {
	return w.end(End{Reason: Finished})
}

// Cut ends the stream as cut by its producer, which stopped before the
// end without meaning to (detail says why): its readers get an error,
// never a stream that looks finished. It returns the store's first
// error, as Close does.
func (w *Writer) Cut(detail string) error {
	return w.end(End{Reason: Cut, Detail: detail})
}

// end writes the end marker e once.
func (w *Writer) end(e End) error {
	if w.closed {
		return nil
	}
	w.closed = true
	if w.stopped {
		return w.storeErr
	}
	tail := w.sp.flush()
	if w.storeErr != nil {
		// The kept stream has a gap or was never created: tell its readers.
		w.store.End(w.ctx, w.meta.ID, End{Reason: Cut, Detail: "the store failed while the stream was written"})
		return w.storeErr
	}
	if err := w.store.End(w.ctx, w.meta.ID, e, tail...); err != nil && !errors.Is(err, ErrEnded) {
		w.storeErr = fmt.Errorf("resumable: end stream %s: %w", w.meta.ID, err)
	}
	return w.storeErr
}
