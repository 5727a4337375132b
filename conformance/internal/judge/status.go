package judge

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chatwire/chatwire/conformance/internal/check"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/chatapi"
)

// This file holds the judges of a probe check that read the status an
// exchange got.

// violated returns the outcome of a requirement of level l that is not met:
// fail for MUST, warn for SHOULD (fail with -strict), info for INFO.
func violated(l check.Level) check.Outcome {
	switch l {
	case check.Must:
		return check.Fail
	case check.Should:
		return check.Warn
	}
	return check.Info
}

// documentedStatuses are the statuses of POST /api/chat's status table.
var documentedStatuses = chatapi.Statuses()

// StatusIs judges that the status is want.
func StatusIs(l check.Level, want int) func(*transcript.Exchange) check.Verdict {
	return func(x *transcript.Exchange) check.Verdict {
		if s := x.Response.Status; s != want {
			return check.Verdict{Outcome: violated(l), Reason: fmt.Sprintf("got %d, want %d", s, want), Actual: DescribeResponse(x)}
		}
		return check.Verdict{Outcome: check.Pass, Actual: strconv.Itoa(want)}
	}
}

// RejectedWith judges that the status is one of want.
func RejectedWith(l check.Level, want ...int) func(*transcript.Exchange) check.Verdict {
	return func(x *transcript.Exchange) check.Verdict {
		s := x.Response.Status
		for _, w := range want {
			if s == w {
				return check.Verdict{Outcome: check.Pass, Reason: fmt.Sprintf("rejected with %d", s), Actual: strconv.Itoa(s)}
			}
		}
		reason := fmt.Sprintf("got %d, want 400 or 422", s)
		switch {
		case s == 200:
			reason = "accepted (200): the invalid request created a chat"
		case s >= 500:
			reason = fmt.Sprintf("got %d: the server failed where it must reject the request with 400 or 422", s)
		}
		return check.Verdict{Outcome: violated(l), Reason: reason, Actual: DescribeResponse(x)}
	}
}

// NotObject judges chat/7.2/body-not-object: a JSON body that is not an
// object gets 400 (422: info, the spec does not show the split).
func NotObject(x *transcript.Exchange) check.Verdict {
	switch s := x.Response.Status; s {
	case 400:
		return check.Verdict{Outcome: check.Pass, Actual: "400"}
	case 422:
		return check.Verdict{Outcome: check.Info, Reason: "422: the spec does not show the split between 400 and 422 (section 7.3)", Actual: "422"}
	default:
		return check.Verdict{Outcome: check.Fail, Reason: fmt.Sprintf("got %d, want 400", s), Actual: DescribeResponse(x)}
	}
}

// EitherAnswer judges a request the spec allows to be accepted (200, what
// accepted means) or refused (400 or 422): both are info, a server error
// (after the run's one retry) or another status fails.
func EitherAnswer(accepted string) func(*transcript.Exchange) check.Verdict {
	return func(x *transcript.Exchange) check.Verdict {
		switch s := x.Response.Status; {
		case s == 200:
			return check.Verdict{Outcome: check.Info, Reason: "accepted (200): " + accepted, Actual: "200"}
		case s == 400 || s == 422:
			return check.Verdict{Outcome: check.Info, Reason: fmt.Sprintf("rejected (%d)", s), Actual: strconv.Itoa(s)}
		case s >= 500:
			return check.Verdict{Outcome: check.Fail, Reason: fmt.Sprintf("got %d twice: a server error is neither accepting (200) nor refusing (400/422) the request", s),
				Actual: DescribeResponse(x)}
		default:
			return check.Verdict{Outcome: check.Fail, Reason: fmt.Sprintf("got %d, want 200 (accepted) or 400/422 (refused)", s), Actual: DescribeResponse(x)}
		}
	}
}

// Refused judges a request the service should refuse: any 4xx
// passes, a 200 misses the SHOULD, a server error fails.
func Refused(x *transcript.Exchange) check.Verdict {
	switch s := x.Response.Status; {
	case s >= 400 && s < 500:
		return check.Verdict{Outcome: check.Pass, Reason: fmt.Sprintf("refused with %d", s), Actual: strconv.Itoa(s)}
	case s == 200:
		return check.Verdict{Outcome: violated(check.Should), Reason: "accepted (200): the request without an application/json Content-Type created a chat",
			Actual: DescribeResponse(x)}
	case s >= 500:
		return check.Verdict{Outcome: check.Fail, Reason: fmt.Sprintf("got %d twice: the server failed where it should refuse the request", s), Actual: DescribeResponse(x)}
	default:
		return check.Verdict{Outcome: violated(check.Should), Reason: fmt.Sprintf("got %d, want a 4xx refusal", s), Actual: DescribeResponse(x)}
	}
}

// FollowUp401 judges a follow-up without a valid key: it wants 401. A 404
// for the placeholder chat id is inconclusive: the run created no chat,
// and a service may look the chat up before the key.
func FollowUp401(x *transcript.Exchange) check.Verdict {
	s := x.Response.Status
	switch {
	case s == 401:
		return check.Verdict{Outcome: check.Pass, Actual: "401"}
	case s == 404 && strings.Contains(x.Request.URL, "/"+check.UnknownChat+"/"):
		return check.Verdict{Outcome: check.Inconclusive, Reason: "404 for a chat id the service never issued: the run created no chat to address",
			Actual: DescribeResponse(x)}
	}
	return check.Verdict{Outcome: check.Fail, Reason: fmt.Sprintf("got %d, want 401: every request carries the key", s), Actual: DescribeResponse(x)}
}
