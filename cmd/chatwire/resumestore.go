package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/chatwire/chatwire/resumable"
)

// resumeStoreFlags are the flags of the store that keeps streams for the
// resume routes, the same on serve and bridge: -resume-store and the
// bounds (-resume-ttl, -resume-max-*).
type resumeStoreFlags struct {
	url    string
	bounds resumable.Bounds
}

// register defines the flags on fs; who names what the store is shared by
// ("serve", "bridge").
func (f *resumeStoreFlags) register(fs *flag.FlagSet, who string) {
	fs.DurationVar(&f.bounds.TTL, "resume-ttl", resumable.DefaultTTL, "keep each stream for the resume routes this long after its last write (its end, for a finished one)")
	fs.IntVar(&f.bounds.MaxChunks, "resume-max-chunks", resumable.DefaultMaxChunks, "keep at most `N` lines or chunks of each stream; past it the oldest are dropped (a resume from them: 410)")
	fs.Int64Var(&f.bounds.MaxBytes, "resume-max-bytes", resumable.DefaultMaxBytes, "keep at most `N` bytes of each stream (its items plus 32 each); past it the oldest are dropped")
	fs.IntVar(&f.bounds.MaxStreams, "resume-max-streams", resumable.DefaultMaxStreams, "keep at most `N` streams; past it the first ended (else the least recently written) is evicted")
	fs.StringVar(&f.url, "resume-store", "memory", fmt.Sprintf("keep the streams for the resume routes in `URL`: memory (this process), or redis://HOST:PORT/DB, shared by\nevery %[1]s on that Redis, so that each resumes the others' chats (the -resume-* bounds hold for\nall of them; the URL's ttl, max_* and prefix parameters override them)", who))
}

// check reports a bound out of range.
func (f *resumeStoreFlags) check() error {
	switch {
	case f.bounds.TTL <= 0:
		return fmt.Errorf("-resume-ttl must be positive, got %v", f.bounds.TTL)
	case f.bounds.MaxChunks < 1:
		return fmt.Errorf("-resume-max-chunks must be at least 1, got %d", f.bounds.MaxChunks)
	case f.bounds.MaxBytes < 1:
		return fmt.Errorf("-resume-max-bytes must be at least 1, got %d", f.bounds.MaxBytes)
	case f.bounds.MaxStreams < 1:
		return fmt.Errorf("-resume-max-streams must be at least 1, got %d", f.bounds.MaxStreams)
	}
	return nil
}

// open opens the store: a Memory, or a Redis store shared with every
// instance on it (shared). A URL that cannot be read is a usage error; a
// store that cannot be reached is reported on stderr as cmd's and exits 1.
func (f *resumeStoreFlags) open(ctx context.Context, cmd string, stderr io.Writer) (store resumable.Store, shared bool, closeStore func() error, code int) {
	closeStore = func() error { return nil }
	p, err := resumable.ParseStoreURL(f.url, f.bounds)
	if err != nil {
		fmt.Fprintf(stderr, "chatwire %s: -resume-store: %v\n", cmd, err)
		return nil, false, closeStore, exitUsage
	}
	if !p.Redis {
		return p.Memory(), false, closeStore, exitOK
	}
	log := &redisLog{cmd: cmd}
	redis.SetLogger(log)
	store, closeStore, err = resumable.Open(ctx, f.url, f.bounds)
	switch {
	case errors.Is(err, resumable.ErrStoreURL):
		fmt.Fprintf(stderr, "chatwire %s: -resume-store: %v\n", cmd, err)
		return nil, false, closeStore, exitUsage
	case err != nil:
		fmt.Fprintf(stderr, "chatwire %s: -resume-store: %v\n(the store is reached when %[1]s starts: is Redis running and reachable at that address?)\n", cmd, err)
		return nil, false, closeStore, exitFail
	}
	log.to(stderr)
	return store, true, closeStore, exitOK
}

// redisLog is go-redis's logger in serve and bridge. go-redis writes what
// it does not return as an error (a pool that cannot dial, a connection
// it could not close) to one logger of the process, each message with a
// timestamp and go-redis's file. While the store opens, its messages are
// dropped: the open's error says what failed. After, each goes to the
// command's log under its name; a message the same as the last one is
// left out for a minute (go-redis repeats a failed dial on every command
// while Redis is down), so that the log says each thing once.
type redisLog struct {
	mu     sync.Mutex
	w      io.Writer // nil: drop
	cmd    string
	last   string
	lastAt time.Time
}

func (l *redisLog) to(w io.Writer) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w = w
}

func (l *redisLog) Printf(_ context.Context, format string, v ...any) {
	msg := strings.TrimPrefix(fmt.Sprintf(format, v...), "redis: ")
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w == nil || msg == l.last && time.Since(l.lastAt) < time.Minute {
		return
	}
	l.last, l.lastAt = msg, time.Now()
	fmt.Fprintf(l.w, "chatwire %s: resume-store: redis: %s\n", l.cmd, strings.TrimSuffix(msg, "\n"))
}
