package conformance

import (
	"fmt"
	"strconv"

	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/linestream"
)

// noCreditsAuthProbe sends the no-credits key with a body that is not JSON:
// free, and whatever but 401 it gets shows the key authenticates, so a 401
// to its create is the service's mapping, not a wrong key.
const noCreditsAuthProbe = "credits/no-credits-bad-body"

// judgeCredits judges chat/8.1/credits-402: 402 passes, 200 fails. A 401 or
// 403 is a wrong mapping when the same key's invalid body showed the key
// authenticates (any answer but 401, for a 401) or is permitted (400 or
// 422, for a 403): then it fails with both exchanges as evidence; else the
// key itself may be wrong, and the check is inconclusive.
func judgeCredits(obs []observed) verdict {
	var create, bad *transcript.Exchange
	for _, o := range lastPerProbe(obs) {
		switch o.probe.ID {
		case "credits/no-credits":
			create = o.x
		case noCreditsAuthProbe:
			bad = o.x
		}
	}
	if create == nil {
		return verdict{outcome: Skip, reason: "not judged: the no-credits create was not answered"}
	}
	s := create.Response.Status
	switch s {
	case 402:
		return verdict{outcome: Pass, actual: "402"}
	case 401, 403:
	default:
		return verdict{outcome: Fail, reason: fmt.Sprintf("got %d, want 402", s), actual: describeResponse(create)}
	}
	key := "the no-credits key (" + EnvKeyNoCredits + ")"
	if bad == nil || bad.Response == nil {
		return verdict{outcome: Inconclusive, reason: fmt.Sprintf("credential precondition failed: %s got %d, and its invalid body was not answered", key, s),
			actual: describeResponse(create)}
	}
	b := bad.Response.Status
	both := "create: " + describeResponse(create) + " | invalid body: " + describeResponse(bad)
	authenticates := b != 401 && b != 429 && b < 500
	permitted := b == 400 || b == 422
	switch {
	case s == 401 && authenticates:
		return verdict{outcome: Fail, reason: fmt.Sprintf("%s authenticates (its invalid body got %d), so the 401 on a create is a wrong mapping: want 402", key, b),
			actual: both}
	case s == 403 && permitted:
		return verdict{outcome: Fail, reason: fmt.Sprintf("%s is authenticated and permitted (its invalid body got %d), so the 403 on a create is a wrong mapping: want 402", key, b),
			actual: both}
	}
	return verdict{outcome: Inconclusive, reason: fmt.Sprintf("credential precondition failed: %s got %d, and %d to an invalid body: the key may be wrong", key, s, b),
		actual: both}
}

// judgeRateLimit judges the opt-in burst: -rate-limit-burst N says the
// limit is below N, so N requests without a 429 fail, and so does a server
// error where the 429 belongs. The actual counts what came back.
func judgeRateLimit(obs []observed) verdict {
	counts := map[int]int{}
	var order []int
	for _, o := range obs {
		s := o.x.Response.Status
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
	last := obs[len(obs)-1].x
	params := map[string]string{"requests": strconv.Itoa(len(obs))}
	switch s := last.Response.Status; {
	case s == 429:
		ra := last.Response.Header.Get("Retry-After")
		params["retry_after"] = ra
		if ra == "" {
			ra = "(none)"
		}
		return verdict{outcome: Pass, reason: fmt.Sprintf("429 on request %d of the burst", len(obs)),
			actual: tally + "; Retry-After: " + ra, params: params}
	case s >= 500:
		return verdict{outcome: Fail, reason: fmt.Sprintf("got %d on request %d where the rate limit's 429 belongs", s, len(obs)),
			actual: tally + "; last: " + describeResponse(last), params: params}
	}
	return verdict{outcome: Fail, reason: fmt.Sprintf("no 429 in %d requests: -rate-limit-burst %d says the limit is below that", len(obs), len(obs)),
		actual: tally, params: params}
}

// createdChatID returns the chat id of a 200 create: the JSON answer's
// chatId, or the one the stream's first line carries; "" when neither
// reads.
func createdChatID(x *transcript.Exchange) string {
	if obj, err := jsonObject(x); err == nil {
		if id, err := stringMember(obj, "chatId"); err == nil {
			return id
		}
		return ""
	}
	if line, ok := firstLine(x); ok && len(line) > 2 && line[0] == '2' && line[1] == ':' {
		if id, err := linestream.AppendChatID(nil, line[2:]); err == nil {
			return string(id)
		}
	}
	return ""
}
