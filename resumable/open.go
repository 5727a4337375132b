package resumable

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// ErrStoreURL is what Open's errors for a URL it cannot read are (a
// usage error), as opposed to a store it could not reach.
var ErrStoreURL = errors.New("resumable: bad store URL")

// Open returns the store a URL names, for a flag such as chatwire serve's
// -resume-store, and the function that closes it:
//
//	memory                          a Memory store (also the empty URL)
//	redis://HOST:PORT/DB            a Redis store (rediss:// for TLS; a
//	                                password as redis://:PASSWORD@HOST…)
//
// The store's bounds are b (zero fields: the defaults), each overridden by
// the URL's query parameter of that name (ttl as a Go duration,
// max_chunks, max_bytes, max_streams, max_total_bytes); a Redis URL also
// takes its key prefix (prefix) and go-redis's own options
// (redis.ParseURL's: dial_timeout, pool_size, …):
//
//	memory?ttl=10m&max_streams=1000
//	redis://127.0.0.1:6379/0?prefix=myapp:resume:&ttl=30m
//
// No error shows the URL's password.
func Open(ctx context.Context, rawURL string, b Bounds) (Store, func() error, error) {
	nop := func() error { return nil }
	p, err := ParseStoreURL(rawURL, b)
	if err != nil {
		return nil, nop, err
	}
	if !p.Redis {
		return p.Memory(), nop, nil
	}
	o, err := redis.ParseURL(p.u.String())
	if err != nil {
		return nil, nop, fmt.Errorf("%w %q: %w", ErrStoreURL, p.name, err)
	}
	c := redis.NewClient(o)
	r, err := newRedis(ctx, c, RedisOptions{Prefix: p.prefix, Bounds: p.Bounds})
	if err != nil {
		c.Close()
		return nil, nop, fmt.Errorf("resumable: redis store %s: %w", p.name, err)
	}
	r.own = true
	return r, r.Close, nil
}

// A StoreURL is a store URL as [ParseStoreURL] reads it, without
// connecting to anything: a command that links no Redis client can read
// its flag, make a Memory, and name a Redis URL it cannot serve.
type StoreURL struct {
	Redis  bool   // redis:// or rediss://; else memory
	Bounds Bounds // the bounds given, the URL's parameters applied
	u      *url.URL
	prefix string
	name   string
}

// ParseStoreURL reads a store URL as [Open] does; its errors are
// [ErrStoreURL]. go-redis's own options are read by Open.
func ParseStoreURL(rawURL string, b Bounds) (*StoreURL, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL, which may hold a password
		}
		return nil, fmt.Errorf("%w: it cannot be read: %w", ErrStoreURL, err)
	}
	p := &StoreURL{u: u, name: redactURL(u)}
	q := u.Query()
	if p.Bounds, err = boundsOf(q, b); err != nil {
		return nil, fmt.Errorf("%w %q: %w", ErrStoreURL, p.name, err)
	}
	switch {
	case rawURL == "" || u.Scheme == "" && u.Path == "memory" || u.Scheme == "memory":
		if len(q) > 0 {
			return nil, fmt.Errorf("%w %q: unknown parameter %q", ErrStoreURL, p.name, firstKey(q))
		}
		return p, nil
	case u.Scheme == "redis" || u.Scheme == "rediss":
		p.Redis, p.prefix = true, q.Get("prefix")
		q.Del("prefix")
		u.RawQuery = q.Encode()
		return p, nil
	}
	return nil, fmt.Errorf("%w %q: want memory or redis://HOST:PORT/DB", ErrStoreURL, p.name)
}

// String returns the URL without its password.
func (p *StoreURL) String() string { return p.name }

// Memory returns a new Memory store with the URL's bounds.
func (p *StoreURL) Memory() *Memory { return NewMemory(MemoryOptions{Bounds: p.Bounds}) }

// boundsOf returns b with the bounds q gives, removing their parameters
// from q.
func boundsOf(q url.Values, b Bounds) (Bounds, error) {
	if v := q.Get("ttl"); q.Has("ttl") {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return b, fmt.Errorf("ttl=%q: want a positive duration such as 30m", v)
		}
		b.TTL = d
		q.Del("ttl")
	}
	for _, p := range []struct {
		name string
		set  func(int64)
	}{
		{"max_chunks", func(n int64) { b.MaxChunks = int(n) }},
		{"max_bytes", func(n int64) { b.MaxBytes = n }},
		{"max_streams", func(n int64) { b.MaxStreams = int(n) }},
		{"max_total_bytes", func(n int64) { b.MaxTotalBytes = n }},
	} {
		if !q.Has(p.name) {
			continue
		}
		v := q.Get(p.name)
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return b, fmt.Errorf("%s=%q: want a positive integer", p.name, v)
		}
		p.set(n)
		q.Del(p.name)
	}
	return b, nil
}

// firstKey returns a key of q.
func firstKey(q url.Values) string {
	for k := range q {
		return k
	}
	return ""
}

// redactURL returns u as text without its password.
func redactURL(u *url.URL) string {
	s := u.Redacted()
	return strings.TrimSuffix(s, "?")
}
