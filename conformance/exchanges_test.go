package conformance

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance/transcript"
)

// browserExchange is a stream as a browser's HAR export holds it.
func browserExchange(lines ...string) *transcript.Exchange {
	x := &transcript.Exchange{
		Request: transcript.Request{Method: "POST", URL: "https://app.example.com/api/chat",
			Header: http.Header{"Authorization": {"Bearer secret-key-1"}, "Content-Type": {"application/json"}, "Cookie": {"sid=1"}},
			Body:   []byte(`{"content":"hi"}`)},
		Response: &transcript.Response{Status: 200, Proto: "HTTP/2.0", Header: http.Header{"Content-Type": {"text/plain; charset=utf-8"}}},
		End:      transcript.End{Reason: transcript.EndEOF, At: time.Second},
	}
	for _, l := range lines {
		x.Lines = append(x.Lines, transcript.Line{Text: []byte(l), NL: true})
	}
	return x
}

func TestJudgeExchanges(t *testing.T) {
	good := browserExchange(`2:[{"chatId":"c1"}]`, `0:"hi"`)
	bad := browserExchange(`0:"hi"`, `2:[{"chatId":"c2"}]`)
	rep := JudgeExchanges(Config{Target: "app.har", BaseURL: "https://app.example.com"}, []string{"har/1", "har/2"}, []*transcript.Exchange{good, bad})
	byID := map[string]Result{}
	for _, r := range rep.Results {
		byID[r.ID] = r
	}
	require.Len(t, rep.Results, len(Catalogue()), "a result per check")
	first := byID["chat/4.5/first-line-code-2"]
	assert.Equal(t, Fail, first.Outcome, "the second exchange's first line is not code 2: %s", first.Reason)
	assert.Contains(t, first.Actual, "probe har/2", "the offending exchange is named")
	assert.Equal(t, `curl -sS -i -N -X POST 'https://app.example.com/api/chat' -H "Authorization: Bearer $CHATWIRE_API_KEY" -H 'Content-Type: application/json' --data-raw '{"content":"hi"}'`,
		first.Curl, "the curl line holds no credential and no cookie")
	assert.Equal(t, Pass, byID["chat/4.6/documented-status"].Outcome)
	assert.Equal(t, Pass, byID["chat/4.5/line-grammar"].Outcome)
	probeCheck := byID["chat/5.3/missing-key-401"]
	assert.Equal(t, Skip, probeCheck.Outcome, "a probe check is not judged on exchanges no probe sent")
	assert.True(t, strings.HasPrefix(probeCheck.Reason, "judges the answer to its own probe"), probeCheck.Reason)
	assert.Equal(t, 2, rep.ChatsCreated)
	assert.Equal(t, 1, rep.Summary.Fail)
}
