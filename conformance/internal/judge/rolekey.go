package judge

import (
	"fmt"
	"strconv"

	"github.com/chatwire/chatwire/conformance/internal/check"
	"github.com/chatwire/chatwire/conformance/transcript"
)

// RoleKey judges a check whose probe sends a role key and wants
// status want. A 401 (or, with want 402, a 403) could mean the key itself
// is wrong, or that the service maps the condition to the wrong status;
// the companion probe, the same key with an invalid body, tells them
// apart. A 401 is a wrong mapping when the companion got anything but 401
// (the key authenticates); a 403 when it got 400 or 422 (the key is
// permitted: its request reached validation). A wrong mapping fails with
// both exchanges as evidence; a key that may be wrong is inconclusive.
// Any other status than want fails.
func RoleKey(want int, probe, companion, key string) func(obs []check.Observed) check.Verdict {
	return func(obs []check.Observed) check.Verdict {
		var main, bad *transcript.Exchange
		for _, o := range lastPerProbe(obs) {
			switch o.Probe.ID {
			case probe:
				main = o.Exchange
			case companion:
				bad = o.Exchange
			}
		}
		if main == nil {
			return check.Verdict{Outcome: check.Skip, Reason: "not judged: probe " + probe + " was not answered"}
		}
		s := main.Response.Status
		switch {
		case s == want:
			return check.Verdict{Outcome: check.Pass, Actual: strconv.Itoa(want)}
		case s != 401 && !(s == 403 && want != 403):
			return check.Verdict{Outcome: check.Fail, Reason: fmt.Sprintf("got %d, want %d", s, want), Actual: DescribeResponse(main)}
		}
		if bad == nil || bad.Response == nil {
			return check.Verdict{Outcome: check.Inconclusive, Reason: fmt.Sprintf("credential precondition failed: %s got %d, and its invalid body was not answered", key, s),
				Actual: DescribeResponse(main)}
		}
		b := bad.Response.Status
		both := "valid body: " + DescribeResponse(main) + " | invalid body: " + DescribeResponse(bad)
		switch {
		case s == 401 && b != 401 && b != 429 && b < 500:
			return check.Verdict{Outcome: check.Fail, Reason: fmt.Sprintf("%s authenticates (its invalid body got %d), so the 401 is a wrong mapping: want %d", key, b, want),
				Actual: both}
		case s == 403 && (b == 400 || b == 422):
			return check.Verdict{Outcome: check.Fail, Reason: fmt.Sprintf("%s is authenticated and permitted (its invalid body got %d), so the 403 is a wrong mapping: want %d", key, b, want),
				Actual: both}
		}
		return check.Verdict{Outcome: check.Inconclusive, Reason: fmt.Sprintf("credential precondition failed: %s got %d, and %d to an invalid body: the key may be wrong", key, s, b),
			Actual: both}
	}
}

// RateLimit judges chat/8.2/rate-limit-429, the opt-in burst:
// -rate-limit-burst N says the limit is below N, so N requests without a
// 429 fail, and so does a server error where the 429 belongs. The actual
// counts what came back.
func RateLimit(obs []check.Observed) check.Verdict {
	counts := map[int]int{}
	var order []int
	for _, o := range obs {
		s := o.Exchange.Response.Status
		if counts[s] == 0 {
			order = append(order, s)
		}
		counts[s]++
	}
	tally := fmt.Sprintf("%d requests:", len(obs))
	for i, s := range order {
		if i > 0 {
			tally += ","
		}
		tally += fmt.Sprintf(" %d×%d", counts[s], s)
	}
	last := obs[len(obs)-1].Exchange
	params := map[string]string{"requests": strconv.Itoa(len(obs))}
	switch s := last.Response.Status; {
	case s == 429:
		ra := last.Response.Header.Get("Retry-After")
		params["retry_after"] = ra
		if ra == "" {
			ra = "(none)"
		}
		return check.Verdict{Outcome: check.Pass, Reason: fmt.Sprintf("429 on request %d of the burst", len(obs)),
			Actual: tally + "; Retry-After: " + ra, Params: params}
	case s >= 500:
		return check.Verdict{Outcome: check.Fail, Reason: fmt.Sprintf("got %d on request %d where the rate limit's 429 belongs", s, len(obs)),
			Actual: tally + "; last: " + DescribeResponse(last), Params: params}
	}
	return check.Verdict{Outcome: check.Fail, Reason: fmt.Sprintf("no 429 in %d requests: -rate-limit-burst %d says the limit is below that", len(obs), len(obs)),
		Actual: tally, Params: params}
}

// CreatedChatID returns the chat id of a 200 create: the JSON answer's
// chatId, the one the stream's first line carries, or the first a UI
// stream carries; "" when none reads.
func CreatedChatID(x *transcript.Exchange) string {
	rd := x.Reading
	switch {
	case rd == nil:
		return ""
	case rd.Kind == "json":
		id, _ := stringMember(rd.JSON, "chatId")
		return id
	case rd.V4 != nil && rd.V4.FirstErr == "":
		return rd.V4.FirstChatID
	case rd.UI != nil && len(rd.IDs) > 0:
		return rd.IDs[0].ID
	}
	return ""
}
