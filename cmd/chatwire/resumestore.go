package main

import (
	"context"

	"github.com/chatwire/chatwire/resumable"
)

// openResumeStore opens the store of -resume-store: a Memory, or a Redis
// store shared with every serve on it (shared). A URL that cannot be read
// is a resumable.ErrStoreURL.
func openResumeStore(ctx context.Context, raw string, b resumable.Bounds) (store resumable.Store, shared bool, closeStore func() error, err error) {
	closeStore = func() error { return nil }
	p, err := resumable.ParseStoreURL(raw, b)
	if err != nil {
		return nil, false, closeStore, err
	}
	if !p.Redis {
		return p.Memory(), false, closeStore, nil
	}
	store, closeStore, err = resumable.Open(ctx, raw, b)
	return store, true, closeStore, err
}
