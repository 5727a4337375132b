package resumable_test

import (
	"bytes"
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/resumable"
	"github.com/chatwire/chatwire/uistream"
)

// flakyStore is a Memory store whose writes fail while down is set, as a
// store on a server that went away.
type flakyStore struct {
	*resumable.Memory
	down   atomic.Bool
	writes atomic.Int64 // the writes tried while down
}

var errDown = errors.New("connection refused")

func (f *flakyStore) Create(ctx context.Context, m resumable.Meta) error {
	if f.down.Load() {
		f.writes.Add(1)
		return errDown
	}
	return f.Memory.Create(ctx, m)
}

func (f *flakyStore) Append(ctx context.Context, id string, at int64, items ...[]byte) error {
	if f.down.Load() {
		f.writes.Add(1)
		return errDown
	}
	return f.Memory.Append(ctx, id, at, items...)
}

func (f *flakyStore) End(ctx context.Context, id string, e resumable.End, tail ...[]byte) error {
	if f.down.Load() {
		f.writes.Add(1)
		return errDown
	}
	return f.Memory.End(ctx, id, e, tail...)
}

func newMemory() *resumable.Memory { return resumable.NewMemory(resumable.MemoryOptions{}) }

// kept returns the items kept for stream id and its end.
func kept(t *testing.T, s resumable.Store, id string) ([]string, *resumable.End) {
	t.Helper()
	var got []string
	var from int64
	for {
		b, err := s.Read(t.Context(), id, from, false)
		require.NoError(t, err, "read %s", id)
		for _, it := range b.Items {
			got = append(got, string(it))
		}
		from += int64(len(b.Items))
		if len(b.Items) == 0 || b.End != nil {
			return got, b.End
		}
	}
}

// v4Parts writes a short v4 stream through lw.
func v4Parts(lw *linestream.Writer) {
	lw.ChatID("chat_1")
	lw.StartStep("msg_1")
	lw.Text("Hello")
	lw.Text(", world")
	lw.FinishMessage("stop", nil)
}

func TestWriterV4(t *testing.T) {
	store := newMemory()
	var live, plain bytes.Buffer
	m := resumable.Meta{ID: "strm_1", ChatID: "chat_1", Owner: "team", Protocol: resumable.V4}
	sw := resumable.NewWriter(t.Context(), store, &live, m)
	v4Parts(linestream.NewWriter(sw))
	assert.Equal(t, int64(5), sw.Index(), "five lines written")
	require.NoError(t, sw.Close())
	v4Parts(linestream.NewWriter(&plain))
	assert.Equal(t, plain.String(), live.String(), "the live response gets the bytes as written")

	got, end := kept(t, store, m.ID)
	assert.Equal(t, strings.Split(strings.TrimSuffix(plain.String(), "\n"), "\n"), got, "each line kept, without its line end, at its index")
	require.NotNil(t, end)
	assert.Equal(t, resumable.Finished, end.Reason)
	assert.NoError(t, sw.Close(), "a second Close")
	_, err := sw.Write([]byte("0:\"x\"\n"))
	assert.Error(t, err, "a write after Close")
}

// uiChunks writes a short UI stream through uw, with a keep-alive comment.
func uiChunks(uw *uistream.Writer) {
	uw.WriteFrame(uistream.AppendStartChunk(nil, "msg_1", nil))
	uw.WriteFrame(uistream.AppendTextStartChunk(nil, "t1"))
	uw.Comment("keep-alive")
	uw.WriteFrame(uistream.AppendTextDeltaChunk(nil, "t1", "Hello"))
	uw.WriteFrame(uistream.AppendTextEndChunk(nil, "t1"))
	uw.WriteFrame(uistream.AppendFinishChunk(nil, "", nil))
	uw.Done()
}

func TestWriterUI(t *testing.T) {
	store := newMemory()
	rec := httptest.NewRecorder()
	m := resumable.Meta{ID: "strm_1", ChatID: "chat_1", RunID: "run_1", Owner: "team", Protocol: resumable.UI}
	sw := resumable.NewWriter(t.Context(), store, rec, m)
	assert.Equal(t, "run_1", rec.Header().Get(resumable.HeaderRunID), "the workflow transport's header on the live response")
	uiChunks(uistream.NewWriter(sw))
	assert.True(t, rec.Flushed, "the flushes reach the response")
	require.NoError(t, sw.Close())
	var plain bytes.Buffer
	uiChunks(uistream.NewWriter(&plain))
	assert.Equal(t, plain.String(), rec.Body.String(), "the live response gets the bytes as written")

	got, end := kept(t, store, m.ID)
	assert.Equal(t, []string{`{"type":"start","messageId":"msg_1"}`, `{"type":"text-start","id":"t1"}`,
		`{"type":"text-delta","id":"t1","delta":"Hello"}`, `{"type":"text-end","id":"t1"}`, `{"type":"finish"}`},
		got, "each chunk kept at its index; the comment and [DONE] are not chunks")
	require.NotNil(t, end)
	assert.Equal(t, resumable.Finished, end.Reason)
	assert.Equal(t, int64(5), sw.Index())
}

// failWriter fails every write, as a response whose client went away.
type failWriter struct{ n int }

func (f *failWriter) Write([]byte) (int, error) { f.n++; return 0, errors.New("broken pipe") }

func TestWriterLiveGone(t *testing.T) {
	store := newMemory()
	dead := &failWriter{}
	m := resumable.Meta{ID: "strm_1", ChatID: "chat_1", Protocol: resumable.V4}
	sw := resumable.NewWriter(t.Context(), store, dead, m)
	lw := linestream.NewWriter(sw)
	for _, text := range []string{"a", "b", "c"} {
		require.NoError(t, lw.Text(text), "a write after the client went away: the stream is still kept")
	}
	assert.Error(t, sw.LiveErr(), "the live response's error")
	assert.Equal(t, 1, dead.n, "the dead response is written to once")
	require.NoError(t, sw.Close())
	got, _ := kept(t, store, m.ID)
	assert.Equal(t, []string{`0:"a"`, `0:"b"`, `0:"c"`}, got, "every line kept")
}

func TestWriterStoreDown(t *testing.T) {
	tests := []struct {
		name     string
		downAt   int // the write before which the store goes down; 0: before NewWriter
		wantKept int
	}{
		{"down at create", 0, 0},
		{"down mid-stream", 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := &flakyStore{Memory: newMemory()}
			var live bytes.Buffer
			m := resumable.Meta{ID: "strm_1", ChatID: "chat_1", Protocol: resumable.V4}
			if tt.downAt == 0 {
				store.down.Store(true)
			}
			sw := resumable.NewWriter(t.Context(), store, &live, m)
			lw := linestream.NewWriter(sw)
			for i, text := range []string{"a", "b", "c", "d"} {
				if i == tt.downAt && i > 0 {
					store.down.Store(true)
				}
				require.NoError(t, lw.Text(text), "write %d: the live response goes on", i)
			}
			assert.Equal(t, "0:\"a\"\n0:\"b\"\n0:\"c\"\n0:\"d\"\n", live.String(), "the whole stream, live")
			err := sw.StoreErr()
			require.ErrorIs(t, err, errDown, "the store's error")
			assert.Contains(t, err.Error(), "strm_1", "it names the stream")
			writes := store.writes.Load()
			assert.Equal(t, int64(1), writes, "the writer stops writing to a failed store")
			assert.ErrorIs(t, sw.Close(), errDown, "Close reports it")
			assert.NoError(t, sw.Close(), "once")

			store.down.Store(false)
			info, err := store.Stat(t.Context(), m.ID)
			if tt.wantKept == 0 {
				assert.ErrorIs(t, err, resumable.ErrNotFound, "the stream was never created")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, int64(tt.wantKept), info.Len, "the items kept before the store went down")
			assert.Nil(t, info.End, "the end marker could not be written while the store was down")
		})
	}
}

func TestWriterStoreBackMarksCut(t *testing.T) {
	// The store fails one write, then works: the kept stream has a gap,
	// and Close marks it cut so that no reader takes it for whole.
	store := &flakyStore{Memory: newMemory()}
	m := resumable.Meta{ID: "strm_1", ChatID: "chat_1", Protocol: resumable.V4}
	sw := resumable.NewWriter(t.Context(), store, &bytes.Buffer{}, m)
	lw := linestream.NewWriter(sw)
	lw.Text("a")
	store.down.Store(true)
	lw.Text("b")
	store.down.Store(false)
	lw.Text("c")
	assert.ErrorIs(t, sw.Close(), errDown)
	got, end := kept(t, store, m.ID)
	assert.Equal(t, []string{`0:"a"`}, got, "nothing after the gap")
	require.NotNil(t, end)
	assert.Equal(t, resumable.Cut, end.Reason, "the stream is marked cut")
}

func TestWriterNothingLeft(t *testing.T) {
	store := &flakyStore{Memory: newMemory()}
	store.down.Store(true)
	m := resumable.Meta{ID: "strm_1", ChatID: "chat_1", Protocol: resumable.V4}
	sw := resumable.NewWriter(t.Context(), store, &failWriter{}, m)
	_, err := sw.Write([]byte("0:\"a\"\n"))
	assert.ErrorIs(t, err, errDown, "neither the store nor the live response is left")
	sw = resumable.NewWriter(t.Context(), store, nil, resumable.Meta{ID: "strm_2", ChatID: "chat_2", Protocol: resumable.V4})
	_, err = sw.Write([]byte("0:\"a\"\n"))
	assert.ErrorIs(t, err, errDown, "no live response, and the store failed")
}

func TestWriterDetachAndCut(t *testing.T) {
	store := newMemory()
	var live bytes.Buffer
	m := resumable.Meta{ID: "strm_1", ChatID: "chat_1", Protocol: resumable.V4}
	sw := resumable.NewWriter(t.Context(), store, &live, m)
	lw := linestream.NewWriter(sw)
	lw.Text("a")
	sw.Detach()
	lw.Text("b")
	assert.Equal(t, "0:\"a\"\n", live.String(), "nothing goes live after Detach")
	require.NoError(t, sw.Cut("the model call failed"))
	got, end := kept(t, store, m.ID)
	assert.Equal(t, []string{`0:"a"`, `0:"b"`}, got, "the stream is kept after Detach")
	require.NotNil(t, end)
	assert.Equal(t, resumable.End{Reason: resumable.Cut, At: end.At, Detail: "the model call failed"}, *end)
}

func TestWriterStopped(t *testing.T) {
	store := newMemory()
	rec := httptest.NewRecorder()
	m := resumable.Meta{ID: "strm_1", ChatID: "chat_1", Protocol: resumable.UI}
	sw := resumable.NewWriter(t.Context(), store, rec, m)
	uw := uistream.NewWriter(sw)
	require.NoError(t, uw.WriteFrame(uistream.AppendStartChunk(nil, "msg_1", nil)))
	require.NoError(t, resumable.Stop(t.Context(), store, m.ID))
	err := uw.WriteFrame(uistream.AppendTextStartChunk(nil, "t1"))
	assert.ErrorIs(t, err, resumable.ErrStopped, "the producer's next write after a stop")
	assert.Equal(t, "data: {\"type\":\"start\",\"messageId\":\"msg_1\"}\n\ndata: {\"type\":\"abort\"}\n\ndata: [DONE]\n\n",
		rec.Body.String(), "the live response gets the stop's abort chunk and a clean end")
	assert.NoError(t, sw.Close())
	got, end := kept(t, store, m.ID)
	assert.Equal(t, []string{`{"type":"start","messageId":"msg_1"}`, `{"type":"abort"}`}, got)
	assert.Equal(t, resumable.Stopped, end.Reason, "Close leaves the stop's end")
	assert.NoError(t, resumable.Stop(t.Context(), store, m.ID), "a stop of an ended stream does nothing")
}
