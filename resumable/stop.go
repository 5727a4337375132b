package resumable

import (
	"context"
	"errors"
)

// abortChunk is the AI SDK's chunk of a stopped stream.
const abortChunk = `{"type":"abort"}`

// Stop ends stream id (a stream id or a run id) for every reader, as a
// user's stop does: a UI stream gets the SDK's abort chunk,
// {"type":"abort"}, as its last chunk; then the end marker, reason
// [Stopped]. Readers that follow the stream live get the rest and a clean
// end; its producer's [Writer] fails its next Write with [ErrStopped], and
// its live response gets the same end. A stream that has already ended is
// left as it is.
func Stop(ctx context.Context, s Store, id string) error {
	info, err := s.Stat(ctx, id)
	if err != nil {
		return err
	}
	if info.End != nil {
		return nil
	}
	var tail [][]byte
	if info.Protocol == UI {
		tail = append(tail, []byte(abortChunk))
	}
	if err := s.End(ctx, info.ID, End{Reason: Stopped}, tail...); err != nil && !errors.Is(err, ErrEnded) {
		return err
	}
	return nil
}
