package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// A conn is the one response a [ChatStream] reads at a time: the create's,
// then each resume's. It is the decoders' reader: it hands out first the
// bytes read to tell the protocol, then the body, and keeps the idle timer
// ([WithIdleTimeout]): armed from the request to the connection's first
// part, then for each read of the body.
type conn struct {
	resp    *http.Response
	body    io.ReadCloser // resp.Body, nil before the first response
	ctx     context.Context
	cancel  context.CancelCauseFunc
	pending []byte // read by tell, not yet handed out

	timer    *time.Timer // nil without an idle timeout
	idle     time.Duration
	watching bool // the first part is read: the timer runs per read

	eof  bool // the body ended (io.EOF)
	last byte // the body's last byte read so far
}

// open makes the connection's context, a child of ctx, and arms the idle
// timer, before the request is sent.
func (c *conn) open(ctx context.Context, idle time.Duration) {
	*c = conn{idle: idle}
	c.ctx, c.cancel = context.WithCancelCause(ctx)
	if idle > 0 {
		cancel := c.cancel
		c.timer = time.AfterFunc(idle, func() { cancel(ErrIdleTimeout) })
	}
}

// attach makes resp the connection's response.
func (c *conn) attach(resp *http.Response) {
	c.resp, c.body = resp, resp.Body
}

// release stops the timer and the context and closes the body, if any.
func (c *conn) release() {
	if c.timer != nil {
		c.timer.Stop()
	}
	if c.body != nil {
		c.body.Close()
	}
	if c.cancel != nil {
		c.cancel(context.Canceled)
	}
}

// watch makes the idle timer count the gaps between reads, once the
// connection's first part has arrived.
func (c *conn) watch() {
	if c.timer != nil {
		c.timer.Stop()
	}
	c.watching = true
}

// Read hands out the pending bytes, then reads the body with the idle
// timer running. A read the timer cut returns [ErrIdleTimeout]. It does no
// allocation, but on that error.
func (c *conn) Read(p []byte) (int, error) {
	if len(c.pending) > 0 {
		n := copy(p, c.pending)
		c.pending = c.pending[n:]
		if n > 0 {
			c.last = p[n-1]
		}
		return n, nil
	}
	return c.read(p)
}

// read reads the body, past the pending bytes.
func (c *conn) read(p []byte) (int, error) {
	on := c.watching && c.timer != nil
	if on {
		c.timer.Reset(c.idle)
	}
	n, err := c.body.Read(p)
	if on {
		c.timer.Stop()
	}
	if n > 0 {
		c.last = p[n-1]
	}
	switch {
	case err == io.EOF:
		c.eof = true
	case err != nil && errors.Is(context.Cause(c.ctx), ErrIdleTimeout):
		err = fmt.Errorf("%w: nothing arrived for %v", ErrIdleTimeout, c.idle)
	}
	return n, err
}

// idleErr returns err, or the idle timeout when the timer cut the request
// err is the error of.
func (c *conn) idleErr(err error) error {
	if err != nil && c.ctx != nil && errors.Is(context.Cause(c.ctx), ErrIdleTimeout) {
		return fmt.Errorf("chatwire: %w: no response within %v", ErrIdleTimeout, c.idle)
	}
	return err
}
