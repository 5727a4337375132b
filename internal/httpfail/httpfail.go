package httpfail

import (
	"compress/flate"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
)

// Kind names a failure of an exchange.
type Kind string

// The kinds. No connection was made for the first four.
const (
	Refused        Kind = "refused"         // the target refused the connection (nothing listens on the port)
	DNS            Kind = "dns"             // the host name did not resolve
	ConnectTimeout Kind = "connect_timeout" // no connection within the connect timeout
	Connect        Kind = "connect"         // another failure to connect (no route to host, network down)

	TLS             Kind = "tls"               // the TLS handshake failed: certificate, protocol, or TLS on one side only
	Closed          Kind = "closed"            // the connection closed before a response head arrived
	HeadTimeout     Kind = "head_timeout"      // connected, but no response head in time
	HeadersTooLarge Kind = "headers_too_large" // the response head is larger than the limit
	NotHTTP         Kind = "not_http"          // what came back is not an HTTP response
	BadEncoding     Kind = "bad_encoding"      // the body does not decode as its Content-Encoding says
	BodyCap         Kind = "body_cap"          // the body went on past the cap on what is read of it
	LineCap         Kind = "line_cap"          // a line went on past the longest line accepted
	Reset           Kind = "reset"             // the connection broke after the response head
	Timeout         Kind = "timeout"           // the body stalled or ran past the exchange's time limit
	Other           Kind = "transport"         // a failure none of the above describes
)

// MaxHeaderBytes is the largest response head chatwire reads: 1 MiB, ten
// times curl's limit and a tenth of Go's default, so that a flood of
// headers costs little memory and is named for what it is.
const MaxHeaderBytes = 1 << 20

// Unreachable reports whether k means no connection was made.
func (k Kind) Unreachable() bool {
	switch k {
	case Refused, DNS, ConnectTimeout, Connect:
		return true
	}
	return false
}

// ServiceFault reports whether k is the service's failure: something
// answered, and what it sent breaks HTTP or the body's encoding. The other
// kinds leave what they decide inconclusive: the network, a proxy, the
// client's trust store or a timeout may be to blame.
func (k Kind) ServiceFault() bool {
	switch k {
	case HeadersTooLarge, NotHTTP, BadEncoding:
		return true
	}
	return false
}

// Text says what k means, in a few words, for outcome texts.
func (k Kind) Text() string {
	switch k {
	case Refused:
		return "connection refused"
	case DNS:
		return "DNS lookup failed"
	case ConnectTimeout:
		return "connect timed out"
	case Connect:
		return "could not connect"
	case TLS:
		return "TLS handshake failed"
	case Closed:
		return "connection closed before a response"
	case HeadTimeout:
		return "no response head in time"
	case HeadersTooLarge:
		return "response headers too large"
	case NotHTTP:
		return "response is not HTTP"
	case BadEncoding:
		return "body does not decode as its Content-Encoding says"
	case BodyCap:
		return "body past the cap"
	case LineCap:
		return "line past the longest line accepted"
	case Reset:
		return "connection reset mid-body"
	case Timeout:
		return "timed out"
	}
	return "transport failure"
}

// Hint says what to try about k, or "" when nothing helps.
func (k Kind) Hint() string {
	switch k {
	case Refused:
		return "is the service running and listening on that host and port?"
	case DNS:
		return "check the host name of the URL (and the resolver, or a proxy in HTTPS_PROXY)"
	case ConnectTimeout, Connect:
		return "check the host and port, a firewall, or a proxy in HTTPS_PROXY / NO_PROXY"
	case TLS:
		return "https to a plain-HTTP port, or a certificate the system does not trust (SSL_CERT_FILE adds one)"
	case NotHTTP:
		return "is the URL's port the service's HTTP port? something else answers there"
	case HeadersTooLarge:
		return "the service (or a proxy before it) sends a header block past 1 MiB"
	case BadEncoding:
		return "the service (or a proxy) labels the body with a Content-Encoding it is not in"
	}
	return ""
}

// Classify names the failure err of an HTTP exchange: the error of an
// http.Client's Do (head is false) or of reading the body (head is true).
// Timeouts the caller enforces with its own timers are the caller's to
// name ([HeadTimeout], [Timeout]); Classify names a timeout inside the
// transport (such as a dial timeout) from err alone.
func Classify(err error, head bool) Kind {
	if err == nil {
		return ""
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return DNS
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		switch {
		case errors.Is(err, syscall.ECONNREFUSED):
			return Refused
		case op.Timeout():
			return ConnectTimeout
		}
		return Connect
	}
	if isTLS(err) || errors.Is(err, http.ErrSchemeMismatch) {
		return TLS
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "server response headers exceeded"):
		return HeadersTooLarge
	case strings.Contains(msg, "malformed HTTP response"):
		if looksTLS(msg) {
			return TLS
		}
		return NotHTTP
	case strings.Contains(msg, "malformed HTTP") || strings.Contains(msg, "malformed MIME header") ||
		strings.Contains(msg, "bad Content-Length") || strings.Contains(msg, "invalid Trailer") ||
		strings.Contains(msg, "invalid byte in chunk length") || strings.Contains(msg, "chunked encoding"):
		return NotHTTP
	}
	var corrupt flate.CorruptInputError
	if errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) || errors.As(err, &corrupt) ||
		strings.Contains(msg, "flate: ") || strings.Contains(msg, "gzip: ") {
		return BadEncoding
	}
	if !head {
		switch {
		case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET):
			return Closed
		case errors.Is(err, context.DeadlineExceeded):
			return HeadTimeout
		}
		return Other
	}
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		strings.Contains(msg, "connection reset") || strings.Contains(msg, "unexpected EOF"):
		return Reset
	case errors.Is(err, context.DeadlineExceeded):
		return Timeout
	}
	return Other
}

// Detail returns the message of err without what adds nothing to a kind's
// text: the "Post URL:" of the client and the transport's "connection
// broken" prefixes.
func Detail(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	msg := err.Error()
	for _, p := range []string{"net/http: HTTP/1.x transport connection broken: ", "net/http: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	return msg
}

// isTLS reports whether err comes from a TLS handshake.
func isTLS(err error) bool {
	var rh tls.RecordHeaderError
	var alert tls.AlertError
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	return errors.As(err, &rh) || errors.As(err, &alert) || errors.As(err, &unknown) || errors.As(err, &host) ||
		errors.As(err, &invalid) || errors.As(err, &verify) || strings.Contains(err.Error(), "tls: ")
}

// looksTLS reports whether a "malformed HTTP response" message quotes a
// TLS record: an http:// URL aimed at a port that speaks TLS.
func looksTLS(msg string) bool {
	i := strings.Index(msg, `malformed HTTP response "`)
	if i < 0 {
		return false
	}
	rest := msg[i+len(`malformed HTTP response "`):]
	return strings.HasPrefix(rest, `\x15\x03`) || strings.HasPrefix(rest, `\x16\x03`)
}
