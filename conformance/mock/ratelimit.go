package mock

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// RateWindow is the window of [Options.RateLimit]: a key may make RateLimit
// chat requests in the RateWindow that starts with its first one.
const RateWindow = time.Minute

// window counts one key's requests in its current rate-limit window.
type window struct {
	start time.Time
	n     int
}

// underLimit counts a chat request of an authenticated key against
// [Options.RateLimit] and reports whether it may go on. Over the limit it
// writes a 429 with Retry-After (the seconds until the key's window ends),
// or the 500 the rate-limit-500 fault writes instead; the
// rate-limit-ignored fault counts but never refuses.
func (s *Server) underLimit(w *response, r *http.Request) bool {
	if s.opts.RateLimit <= 0 {
		return true
	}
	now := s.opts.Now()
	key := bearerKey(r.Header)
	s.mu.Lock()
	win := s.windows[key]
	if win == nil || now.Sub(win.start) >= RateWindow {
		win = &window{start: now}
		s.windows[key] = win
	}
	win.n++
	over := win.n > s.opts.RateLimit
	left := RateWindow - now.Sub(win.start)
	s.mu.Unlock()
	switch {
	case !over || s.fault == faultRateLimitIgnored:
		return true
	case s.fault == faultRateLimit500:
		s.writeError(w, http.StatusInternalServerError, codeServerError, "", "internal server error")
		return false
	}
	secs := int((left + time.Second - 1) / time.Second)
	w.Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
	s.writeError(w, http.StatusTooManyRequests, codeRateLimited, "",
		fmt.Sprintf("rate limit exceeded: %d requests a minute per key; retry after %d seconds", s.opts.RateLimit, max(secs, 1)))
	return false
}
