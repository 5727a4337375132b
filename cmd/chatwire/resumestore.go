package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

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
	store, closeStore, err = resumable.Open(ctx, f.url, f.bounds)
	switch {
	case errors.Is(err, resumable.ErrStoreURL):
		fmt.Fprintf(stderr, "chatwire %s: -resume-store: %v\n", cmd, err)
		return nil, false, closeStore, exitUsage
	case err != nil:
		fmt.Fprintf(stderr, "chatwire %s: -resume-store: %v\n", cmd, err)
		return nil, false, closeStore, exitFail
	}
	return store, true, closeStore, exitOK
}
