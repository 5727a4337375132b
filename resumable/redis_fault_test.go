package resumable_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/redistest"
	"github.com/chatwire/chatwire/resumable"
	"github.com/chatwire/chatwire/uistream"
)

// countingStore counts the errors a Writer's store calls return.
type countingStore struct {
	resumable.Store
	errs int
}

func (c *countingStore) Append(ctx context.Context, id string, at int64, items ...[]byte) error {
	err := c.Store.Append(ctx, id, at, items...)
	if err != nil {
		c.errs++
	}
	return err
}

// writeUI writes chunks [from, to) of items through sw as a service's
// uistream.Writer does, and says whether every Write was taken.
func writeUI(t *testing.T, sw *resumable.Writer, items [][]byte, from, to int) {
	t.Helper()
	for _, it := range items[from:to] {
		_, err := sw.Write(uistream.AppendChunk(nil, it))
		require.NoError(t, err, "the live response goes on")
	}
}

// resumeAnswers sends the resume of every contract that reads stream m of
// the UI protocol and returns the status and error code of each.
func resumeAnswers(t *testing.T, svc *service, m resumable.Meta) map[string]string {
	t.Helper()
	got := map[string]string{}
	for name, path := range map[string]string{
		"ai-sdk":    "/api/chat/" + m.ChatID + "/stream",
		"workflow":  "/api/chat/" + m.RunID + "/stream?startIndex=3",
		"subscribe": "/api/chat/" + m.ChatID + "/subscribe",
	} {
		resp, body, err := svc.get(t, path, "team")
		require.NoError(t, err, "%s: the answer is whole", name)
		if resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusNoContent {
			got[name] = resp.Status + " " + body
			continue
		}
		code, _ := errorOf(t, body)
		got[name] = http.StatusText(resp.StatusCode) + " " + code
	}
	return got
}

// reconnected waits until store's client has a connection to the
// restarted Redis again (go-redis's pool dials again once a second after
// its dials failed).
func reconnected(t *testing.T, store *resumable.Redis) {
	t.Helper()
	require.Eventually(t, func() bool { return store.Ping(t.Context()) == nil }, 10*time.Second, 50*time.Millisecond,
		"the store's client reconnects to the restarted Redis")
}

// TestRedisStoppedMidStream stops Redis while a stream is written: the
// live response gets the whole stream, the writer sees the store's error
// once (Close), and every resume is answered with a named error while
// Redis is down and after it came back empty, never a stream that looks
// whole; a reader following the stream live sees its response broken.
func TestRedisStoppedMidStream(t *testing.T) {
	srv := redistest.Start(t)
	store := newRedis(t, srv, resumable.Bounds{})
	svc := newService(t, store, &resumable.Handlers{})
	m := uiMeta("chat_fault", 1)
	items := uiStream("msg_fault", "Hel", "lo", ", ", "wor", "ld", "!")
	var live bytes.Buffer
	cs := &countingStore{Store: store}
	sw := resumable.NewWriter(t.Context(), cs, &live, m)
	writeUI(t, sw, items, 0, 5)

	// A reader following the stream live.
	follow := svc.open(t, http.MethodGet, "/api/chat/"+m.ChatID+"/stream", "team")
	defer follow.Body.Close()
	require.Equal(t, http.StatusOK, follow.StatusCode)
	head := make([]byte, len(frames(items[:5], false)))
	_, err := io.ReadFull(follow.Body, head)
	require.NoError(t, err)
	require.Equal(t, frames(items[:5], false), string(head), "the follower has what was kept")

	srv.Stop()
	writeUI(t, sw, items, 5, len(items))
	sw.Write(uistream.AppendDone(nil))
	err = sw.Close()
	require.Error(t, err, "Close returns the store's error")
	assert.ErrorContains(t, err, "redis")
	assert.Equal(t, frames(items, true), live.String(), "the live response got the whole stream")
	assert.LessOrEqual(t, cs.errs, 1, "the writer saw the error at most once before Close")
	require.NoError(t, sw.Close(), "the error is reported once")

	rest, err := io.ReadAll(follow.Body)
	require.Error(t, err, "the follower's response is broken, not ended (it read %q)", rest)
	assert.NotContains(t, string(rest), `"finish"`, "the follower never gets an end")

	for name, got := range resumeAnswers(t, svc, m) {
		assert.Equal(t, "Internal Server Error store_error", got, "%s while Redis is down", name)
	}

	srv.Restart() // empty: it keeps nothing on disk
	reconnected(t, store)
	for name, got := range resumeAnswers(t, svc, m) {
		assert.Equal(t, "Internal Server Error store_error", got, "%s after Redis lost the stream", name)
	}
	_, err = store.Chat(t.Context(), m.ChatID)
	assert.ErrorIs(t, err, resumable.ErrLost, "the store names the loss")
	assert.NotErrorIs(t, err, resumable.ErrNotFound, "never a chat that never was (ai-sdk's 204)")
}

// TestRedisRestartedEmptyMidStream restarts Redis empty while a stream is
// written: the producer's next write fails, named as the loss, the live
// response goes on, and a resume is a named error.
func TestRedisRestartedEmptyMidStream(t *testing.T) {
	srv := redistest.Start(t)
	store := newRedis(t, srv, resumable.Bounds{})
	svc := newService(t, store, &resumable.Handlers{})
	m := uiMeta("chat_lost", 1)
	items := uiStream("msg_lost", "a", "b", "c", "d")
	var live bytes.Buffer
	sw := resumable.NewWriter(t.Context(), store, &live, m)
	writeUI(t, sw, items, 0, 4)
	_, err := store.Stat(t.Context(), m.ID) // the items are in Redis
	require.NoError(t, err)

	srv.Restart()
	reconnected(t, store)
	writeUI(t, sw, items, 4, len(items))
	sw.Write(uistream.AppendDone(nil))
	err = sw.Close()
	require.ErrorIs(t, err, resumable.ErrLost, "the writer is told Redis lost its stream")
	assert.Equal(t, frames(items, true), live.String(), "the live response got the whole stream")
	for name, got := range resumeAnswers(t, svc, m) {
		assert.Equal(t, "Internal Server Error store_error", got, "%s after Redis lost the stream", name)
	}

	// A stream begun after the restart is kept and resumed as before.
	m2 := uiMeta("chat_after", 1)
	p := newProducer(t, store, m2, uiStream("msg_after", "x", "y"))
	p.finish(t)
	resp, body, err := svc.get(t, "/api/chat/"+m2.ChatID+"/stream", "team")
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, frames(uiStream("msg_after", "x", "y"), true), body)
}

// TestRedisDownAtCreate has Redis down before the stream begins: the live
// response is whole, Close names the failure, a resume is a named error.
func TestRedisDownAtCreate(t *testing.T) {
	srv := redistest.Start(t)
	store := newRedis(t, srv, resumable.Bounds{})
	svc := newService(t, store, &resumable.Handlers{})
	srv.Stop()
	m := uiMeta("chat_down", 1)
	items := uiStream("msg_down", "a")
	var live bytes.Buffer
	sw := resumable.NewWriter(t.Context(), store, &live, m)
	writeUI(t, sw, items, 0, len(items))
	err := sw.Close()
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "keep stream "+m.ID), "Close names the stream: %v", err)
	assert.Equal(t, frames(items, false), live.String())
	for name, got := range resumeAnswers(t, svc, m) {
		assert.Equal(t, "Internal Server Error store_error", got, "%s while Redis is down", name)
	}
}

// TestRedisTwoInstances has two stores on one Redis, as two instances of
// a service: a stream written through one is resumed through the other,
// live to its end, and a stop on the second ends it for the first's
// producer.
func TestRedisTwoInstances(t *testing.T) {
	srv := redistest.Start(t)
	prefix := "two:"
	open := func() *resumable.Redis {
		r, err := resumable.NewRedis(t.Context(), srv.Client(), resumable.RedisOptions{Prefix: prefix, Block: 100 * time.Millisecond})
		require.NoError(t, err)
		t.Cleanup(func() { r.Close() })
		return r
	}
	a, b := open(), open()
	svcB := newService(t, b, &resumable.Handlers{})
	m := uiMeta("chat_two", 1)
	items := uiStream("msg_two", "one", "two", "three")
	p := newProducer(t, a, m, items)
	p.write(t, 4)

	follow := svcB.open(t, http.MethodGet, "/api/chat/"+m.ChatID+"/stream", "team")
	defer follow.Body.Close()
	require.Equal(t, http.StatusOK, follow.StatusCode)
	p.finish(t)
	body, err := io.ReadAll(follow.Body)
	require.NoError(t, err)
	assert.Equal(t, frames(items, true), string(body), "instance b serves a's stream, live to its end")

	resp, body2, err := svcB.get(t, "/api/chat/"+m.RunID+"/stream?startIndex=2", "team")
	require.NoError(t, err)
	assert.Equal(t, "8", resp.Header.Get(resumable.HeaderTailIndex))
	assert.Equal(t, frames(items[2:], true), body2, "the workflow contract from index 2, on b")

	m2 := uiMeta("chat_two", 2)
	p2 := newProducer(t, a, m2, items)
	p2.write(t, 3)
	// The 3 in Redis before the stop: a round trip of them still under
	// way when the stop lands would be refused, and a's first write after
	// the stop fail already.
	_, err = a.Stat(t.Context(), m2.ID)
	require.NoError(t, err)
	stop := svcB.open(t, http.MethodPost, "/api/chat/"+m2.ChatID+"/stop", "team")
	stop.Body.Close()
	require.Equal(t, http.StatusOK, stop.StatusCode)
	// a's next write is queued, and refused by Redis: the one after it
	// says the stream was stopped (a batched store learns of a stop on
	// another instance from its next round trip).
	_, err = p2.sw.Write(uistream.AppendChunk(nil, items[3]))
	require.NoError(t, err)
	_, err = a.Stat(t.Context(), m2.ID) // waits for the write
	require.NoError(t, err)
	_, err = p2.sw.Write(uistream.AppendChunk(nil, items[4]))
	require.ErrorIs(t, err, resumable.ErrStopped, "a's producer is stopped by b's stop")
	info, err := b.Stat(t.Context(), m2.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(4), info.Len, "the stream ends with the abort chunk after the 3 kept")
}
