package conformance

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/chatwire/chatwire/conformance/internal/catalogue"
	"github.com/chatwire/chatwire/conformance/internal/judge"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/httpfail"
)

// This file stops a run early when what came back shows it cannot
// establish anything more: no connection (unreachable), connections
// without an answer, a key the service rejects, a base URL with no API
// behind it. A stop judges nothing: the checks it leaves are inconclusive
// (or not judged), never failed, so a stop costs coverage, never a false
// verdict, and its one block says what came back and what to check.

// stopAfter is how many requests made with the valid key must all be
// answered 401 or 403 (a rejected key), or 404 or 405 (no API at the base
// URL), before the run stops. The first valid-key probes of a full run are
// four different wrong bodies (bytes that are not JSON, JSON that is not an
// object, a required field missing, then null), which a service that takes
// the key answers 400 or 422 each; a service that wrongly answers 401 to one
// or two kinds of request is not stopped, one that answers all four alike
// is. The auth probes go first and are not counted (they expect a 401): up
// to six with every role key, so with these four a wrong key or base URL
// stops within ten requests.
const stopAfter = 4

// answerWatch is what the answers so far say about the key and the base
// URL.
type answerWatch struct {
	keyWorks bool   // a valid-key request got an answer other than 401, 403 or 429
	rejected int    // valid-key requests answered 401 or 403
	found    bool   // an answer other than 404 or 405 came back (429s and an auth probe's 401 or 403 aside)
	notFound int    // answers 404 or 405
	keyed404 int    // of them, to valid-key requests
	authOnly int    // auth probes answered 401 or 403, which say nothing about the path
	statuses []int  // the distinct statuses that counted, in order
	last     *Probe // the probe of the last answer that counted
	lastX    *transcript.Exchange
}

// watchAnswer notes what the answer x to pr says about the key and the
// base URL, and stops the run when every valid-key request so far was
// rejected, or every answer was 404 or 405, stopAfter valid-key requests
// in a row. A 429 says nothing of either, and an auth probe's 401 or 403
// says nothing of the path (a gateway may check keys before it routes).
func (r *runner) watchAnswer(pr *probeRun, x *transcript.Exchange) {
	w := &r.watch
	s := x.Response.Status
	if s == http.StatusTooManyRequests {
		return
	}
	keyed := pr.probe.Auth.Role == RoleValid && !pr.probe.AuthProbe
	rejected := s == http.StatusUnauthorized || s == http.StatusForbidden
	if keyed {
		if rejected {
			w.rejected++
			pr.rejected = true
		} else {
			w.keyWorks = true
		}
	}
	switch {
	case s == http.StatusNotFound || s == http.StatusMethodNotAllowed:
		w.notFound++
		if keyed {
			w.keyed404++
		}
	case rejected && pr.probe.AuthProbe:
		w.authOnly++
		return
	default:
		w.found = true
	}
	if !slices.Contains(w.statuses, s) {
		w.statuses = append(w.statuses, s)
	}
	w.last, w.lastX = pr.probe, x
	if r.stop != nil {
		return
	}
	switch {
	case keyed && rejected && !w.keyWorks && w.rejected >= stopAfter:
		r.stop = r.keyRejected()
	case !w.found && w.keyed404 >= stopAfter:
		r.stop = r.notFound()
	}
	if r.stop != nil {
		r.logf("%s: %s", pr.probe.ID, r.stop.Reason)
	}
}

// keyRejected is the stop of a run whose valid key every request got 401
// or 403 to.
func (r *runner) keyRejected() *Stop {
	w := &r.watch
	return &Stop{
		Kind: StopKeyRejected,
		Reason: fmt.Sprintf("stopped sending: the key in %s was rejected: the first %d requests made with it all got %s",
			EnvKey, w.rejected, statusList(w.statuses)),
		Actual: fmt.Sprintf("%s (probe %s)", judge.DescribeResponse(w.lastX), w.last.ID),
		Advice: []string{
			EnvKey + ": is it this service's key (not another environment's, revoked or expired), exported to chatwire,\n" +
				`without quotes, spaces or a "Bearer " prefix (chatwire sends "Authorization: Bearer <key>")?`,
			r.baseText() + ": is it the service the key belongs to? A staging key is rejected by production alike",
			"by hand, a request that creates nothing (a working key gets 400, not 401):\n" + r.handCurl(),
		},
	}
}

// notFound is the stop of a run every answer of which was 404 or 405: the
// base URL has no API behind it.
func (r *runner) notFound() *Stop {
	w := &r.watch
	sent := w.lastX.Request.Method + " " + w.lastX.Request.URL
	reason := fmt.Sprintf("stopped sending: no API at %s: every answer was %s (%d requests, such as %s)",
		r.baseText(), statusList(w.statuses), w.notFound, sent)
	if w.authOnly > 0 {
		reason += fmt.Sprintf("; %d without a valid key got 401 or 403", w.authOnly)
	}
	advice := []string{"-base-url is what comes before /api/chat: an origin (https://api.example.com) or a path prefix\n" +
		"(https://example.com/builder); chatwire appends /api/chat itself, and sent " + sent}
	if u, err := url.Parse(r.cfg.BaseURL); err == nil && u.Host != "" {
		path := strings.TrimSuffix(u.Path, "/")
		origin := u.Scheme + "://" + u.Host
		switch {
		case strings.HasSuffix(path, ChatPath):
			advice = append(advice, "drop /api/chat from it: -base-url "+origin+strings.TrimSuffix(path, ChatPath))
		case path != "":
			advice = append(advice, "if the service answers at "+origin+ChatPath+", drop the path "+path+": -base-url "+origin)
		}
	}
	advice = append(advice, "by hand, a request that creates nothing (at the right URL it gets 400, not 404):\n"+r.handCurl())
	return &Stop{Kind: StopNotFound, Reason: reason, Actual: fmt.Sprintf("%s (probe %s)", judge.DescribeResponse(w.lastX), w.last.ID), Advice: advice}
}

// handProbe is the probe whose curl line a stop's advice gives to try by
// hand: a body that is not JSON, which creates nothing and which a
// service that takes the key at the right URL answers 400.
const handProbe = "body/not-json"

// handCurl returns the curl line of handProbe.
func (r *runner) handCurl() string {
	for _, p := range catalogue.Probes(catalogue.Options{}) {
		if p.ID == handProbe {
			return Curl(r.cfg.BaseURL, &p)
		}
	}
	return ""
}

// baseText names the base URL the run sent to.
func (r *runner) baseText() string {
	if r.cfg.BaseURL == "" {
		return "the base URL"
	}
	return "-base-url " + r.cfg.BaseURL
}

// statusList writes statuses as "401" or "401 or 403".
func statusList(statuses []int) string {
	s := make([]string, len(statuses))
	for i, st := range statuses {
		s[i] = strconv.Itoa(st)
	}
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// noAnswerStop is the stop of a run after x, the last of r.noResponse
// exchanges in a row without a response head; unreachable says whether no
// connection was made.
func (r *runner) noAnswerStop(x *transcript.Exchange, unreachable bool) *Stop {
	if unreachable {
		reason := "target unreachable: " + judge.EndText(x)
		if r.answered {
			reason = fmt.Sprintf("target unreachable: %d exchanges in a row without a response, the last %s", r.noResponse, judge.EndText(x))
		}
		return &Stop{Kind: StopUnreachable, Reason: reason, Advice: []string{
			"the URL: scheme, host and port of -base-url; is the service running and listening there?",
			"a proxy: HTTPS_PROXY, HTTP_PROXY and NO_PROXY in the environment route the requests",
			"no service at hand: 'chatwire check' without -base-url checks the built-in mock;\n" +
				"'chatwire serve' runs the mock on a port for a client's tests",
		}}
	}
	advice := []string{
		"the service: it accepts connections but answered none of the last " + strconv.Itoa(r.noResponse) +
			" requests; is it overloaded, stuck, or still starting?",
		"a slow service: raise -first-line-timeout (the time allowed for the response head and the first line)",
		"a proxy or load balancer in between: HTTPS_PROXY, HTTP_PROXY and NO_PROXY in the environment route the requests",
	}
	if httpfail.Kind(x.End.Kind) == httpfail.TLS {
		advice = append(advice, "TLS: a private CA's certificate goes in SSL_CERT_FILE or SSL_CERT_DIR; https:// to a plain-HTTP port fails alike")
	}
	return &Stop{Kind: StopNoResponse, Reason: fmt.Sprintf("stopped sending: %d exchanges in a row connected but got no response, the last %s",
		r.noResponse, judge.EndText(x)), Advice: advice}
}

// settle applies the run's stop to the probes answered before it. After a
// not_found stop no answer came from the API, so none is judged: each is
// inconclusive with the stop's reason, and no invariant reads it. After a
// stop for a rejected key, or for no answer, the requests that led to it
// carry the stop's reason, so a report says it once.
func (r *runner) settle(runs []*probeRun) {
	if r.stop == nil {
		return
	}
	for _, pr := range runs {
		switch {
		case r.stop.Kind == StopNotFound && len(pr.obs) > 0:
			pr.discounted = true
			if pr.outcome == "" {
				pr.outcome, pr.reason, pr.failure = Inconclusive, r.stop.Reason, ""
			}
		case r.stop.Kind == StopKeyRejected && pr.rejected:
			pr.reason = r.stop.Reason
		case (r.stop.Kind == StopNoResponse || r.stop.Kind == StopUnreachable) && pr.inStreak:
			pr.reason = r.stop.Reason
		}
	}
}
