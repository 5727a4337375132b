package httpfail

import (
	"compress/gzip"
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
)

// post wraps err as an http.Client wraps the errors of Do.
func post(err error) error {
	return &url.Error{Op: "Post", URL: "http://127.0.0.1:1/api/chat", Err: err}
}

func TestClassify(t *testing.T) {
	cases := []struct {
		name string
		err  error
		head bool // the error came while reading the body
		want Kind
	}{
		{"refused", post(&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}), false, Refused},
		{"dns", post(&net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "x.invalid", IsNotFound: true}}), false, DNS},
		{"connect timeout", post(&net.OpError{Op: "dial", Net: "tcp", Err: timeoutErr{}}), false, ConnectTimeout},
		{"no route", post(&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.EHOSTUNREACH)}), false, Connect},
		{"untrusted certificate", post(fmt.Errorf("tls: failed to verify certificate: %w", x509.UnknownAuthorityError{})), false, TLS},
		{"https to http", post(http.ErrSchemeMismatch), false, TLS},
		{"http to https", post(errors.New(`net/http: HTTP/1.x transport connection broken: malformed HTTP response "\x15\x03\x01\x00\x02\x02"`)), false, TLS},
		{"header flood", post(errors.New("net/http: HTTP/1.x transport connection broken: net/http: server response headers exceeded 1048576 bytes; aborted")), false, HeadersTooLarge},
		{"not http", post(errors.New(`net/http: HTTP/1.x transport connection broken: malformed HTTP response "SSH-2.0-OpenSSH_9.6"`)), false, NotHTTP},
		{"closed before head", post(io.EOF), false, Closed},
		{"head deadline", post(context.DeadlineExceeded), false, HeadTimeout},
		{"bad gzip", gzip.ErrHeader, true, BadEncoding},
		{"reset mid-body", fmt.Errorf("read: %w", os.NewSyscallError("read", syscall.ECONNRESET)), true, Reset},
		{"cut short", io.ErrUnexpectedEOF, true, Reset},
		{"body deadline", context.DeadlineExceeded, true, Timeout},
		{"something else", errors.New("proxyconnect: odd"), false, Other},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Classify(tc.err, tc.head), "Classify(%q)", tc.err)
		})
	}
	assert.Equal(t, Kind(""), Classify(nil, false), "no error, no kind")
}

func TestKindClasses(t *testing.T) {
	all := []Kind{Refused, DNS, ConnectTimeout, Connect, TLS, Closed, HeadTimeout, HeadersTooLarge, NotHTTP, BadEncoding,
		BodyCap, LineCap, Reset, Timeout, Other}
	var unreachable, fault []Kind
	for _, k := range all {
		if k != Other {
			assert.NotEqual(t, Other.Text(), k.Text(), "%s has its own text", k)
		}
		if k.Unreachable() {
			unreachable = append(unreachable, k)
		}
		if k.ServiceFault() {
			fault = append(fault, k)
		}
	}
	assert.Equal(t, []Kind{Refused, DNS, ConnectTimeout, Connect}, unreachable, "unreachable only when no connection was made")
	assert.Equal(t, []Kind{HeadersTooLarge, NotHTTP, BadEncoding}, fault, "the service's failures")
}

type timeoutErr struct{}

func (timeoutErr) Error() string { return "i/o timeout" }
func (timeoutErr) Timeout() bool { return true }
