package httpfail_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"

	"github.com/chatwire/chatwire/internal/httpfail"
)

func ExampleClassify() {
	// A port nothing listens on: the server is started and closed again.
	ts := httptest.NewServer(http.NotFoundHandler())
	ts.Close()
	_, err := http.Post(ts.URL+"/api/chat", "application/json", nil)
	k := httpfail.Classify(err, false)
	fmt.Println(k, "|", k.Text(), "|", k.Unreachable(), k.ServiceFault())
	// Output:
	// refused | connection refused | true false
}

func ExampleKind_Hint() {
	fmt.Println(httpfail.DNS.Hint())
	// Output:
	// check the host name of the URL (and the resolver, or a proxy in HTTPS_PROXY)
}

func ExampleDetail() {
	// The error of an http.Client's Do, less its "Post URL:" and the
	// transport's prefix.
	err := &url.Error{Op: "Post", URL: "http://127.0.0.1:8080/api/chat", Err: errors.New("net/http: HTTP/1.x transport connection broken: malformed HTTP response \"SSH-2.0\"")}
	fmt.Println(httpfail.Detail(err))
	fmt.Println(httpfail.Classify(err, false))
	// Output:
	// malformed HTTP response "SSH-2.0"
	// not_http
}
