package conformance

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/chatwire/chatwire/conformance/internal/check"
	"github.com/chatwire/chatwire/conformance/internal/judge"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/chatapi"
)

// This file runs a resume probe group: one probe whose exchanges are the
// several connections of a resume check, each a step (check.ResumeSteps),
// each request derived from what the steps before it got. A replay
// derives the same requests from the recorded exchanges, and its
// replayer hands the exchanges out in the same order.

// HeaderRunID is the header of a create's answer that names the workflow
// run the workflow transport resumes (@ai-sdk/workflow's
// x-workflow-run-id).
const HeaderRunID = "X-Workflow-Run-Id"

// resumeState is what the steps of a group learnt: the created chat, the
// workflow run, and where the first connection was cut.
type resumeState struct {
	chat, run string
	cut       int
}

// runResume sends the steps of resume group p, the index-th probe of the
// run, and keeps each exchange as one of the probe's observations.
func (r *runner) runResume(ctx context.Context, p *Probe, index int) *probeRun {
	pr := &probeRun{probe: p}
	defer func() {
		r.progress(Progress{Event: ProgressDone, Probe: p.ID, Index: index, Attempt: len(pr.obs), Outcome: pr.outcome, Reason: pr.reason})
	}()
	if !slices.Contains(r.cfg.Resume, p.Resume) {
		pr.outcome, pr.reason = Skip, "opt-in: -resume "+p.Resume+" checks how a cut stream resumes by the "+p.Resume+" contract"
		return pr
	}
	if r.notSent(ctx, pr) {
		return pr
	}
	var st resumeState
	for _, step := range check.ResumeSteps() {
		sp, ok := r.resumeStep(p, step, &st)
		if !ok {
			continue
		}
		r.progress(Progress{Event: ProgressSend, Probe: p.ID, Index: index, Attempt: len(pr.obs) + 1})
		x, err := r.ex.Do(ctx, sp)
		switch {
		case err == nil:
		case errors.Is(err, ErrNoExchange) && len(pr.obs) > 0:
			return pr // a recording that ended earlier: the steps it holds are judged
		case errors.Is(err, ErrNoExchange):
			pr.outcome, pr.reason = Skip, "no exchange for probe "+p.ID
			return pr
		case ctx.Err() != nil:
			r.interrupt(pr, InterruptedReason)
			return pr
		default:
			pr.outcome, pr.reason = Error, "chatwire: "+err.Error()
			return pr
		}
		readBack(x, sp, r.cfg.UI)
		pr.obs = append(pr.obs, check.Observed{Probe: sp, Exchange: x, Attempt: len(pr.obs) + 1})
		r.note(sp, x)
		if x.End.Reason == transcript.EndCancel || x.Response == nil && ctx.Err() != nil {
			r.interrupt(pr, cutReason)
			return pr
		}
		if step != check.StepCreate {
			continue
		}
		if x.Response == nil {
			r.noAnswer(pr, x)
			return pr
		}
		r.watchAnswer(pr, x)
		r.interference(pr, x.Response.Status)
		if pr.outcome != "" {
			return pr
		}
		st.chat = judge.CreatedChatID(x)
		st.run = x.Response.Header.Get(HeaderRunID)
		if rd := x.Reading; rd != nil && rd.Items != nil {
			st.cut = rd.Items.Cut
		}
		if x.Response.Status != http.StatusOK || st.chat == "" {
			return pr // the judges say why no resume was sent
		}
		if err := r.cfg.Sleep(ctx, reconnectPause(x, st.cut)); err != nil {
			r.interrupt(pr, InterruptedReason)
			return pr
		}
	}
	return pr
}

// reconnectPause is how long the run waits between the cut and the resume,
// as a client does that notices the drop and reconnects: twice the mean
// gap between the items read before the cut, from 10 ms to 1 s. The
// service has then written on, and seen its connection go, while its
// stream still runs. A replay does not wait (its Sleep returns at once).
func reconnectPause(x *transcript.Exchange, items int) time.Duration {
	gap := time.Duration(0)
	if x.Response != nil && items > 1 {
		gap = (x.End.At - x.Response.At) / time.Duration(items)
	}
	return min(max(2*gap, 10*time.Millisecond), time.Second)
}

// resumeStep returns the request of step of group p, and false when the
// step is not sent (the other team's step without its key).
func (r *runner) resumeStep(p *Probe, step string, st *resumeState) (*Probe, bool) {
	sp := *p
	sp.Step, sp.Method, sp.Body, sp.Header, sp.Read = step, http.MethodGet, nil, http.Header{}, ReadToCap
	if step == check.StepCreate {
		sp.Method, sp.Body, sp.Header, sp.Read = p.Method, p.Body, p.Header.Clone(), ReadCut
		return &sp, true
	}
	id, from := st.chat, st.cut
	switch step {
	case check.StepReference:
		from = 0
	case check.StepUnknown:
		id, from = check.UnknownChat, 0
	case check.StepNoKey:
		sp.Auth, from = check.Auth{Role: RoleNone}, 0
	case check.StepUnknownKey:
		sp.Auth, from = check.Auth{Scheme: "Bearer", Role: RoleUnknown}, 0
	case check.StepOtherTeam:
		from = 0
		switch {
		case r.cfg.ForbiddenHeader != nil:
			sp.Header = r.cfg.ForbiddenHeader.Clone()
		case r.roles[RoleOtherTeam]:
			sp.Auth = check.Auth{Scheme: "Bearer", Role: RoleOtherTeam}
		default:
			return nil, false
		}
	}
	sp.AuthProbe = step == check.StepNoKey || step == check.StepUnknownKey || step == check.StepOtherTeam
	sp.Path = ResumePath(p.Resume, id, st.run, from)
	return &sp, true
}

// ResumePath returns the path of the request with which the client of
// contract c resumes chat id (run: the workflow run a create named, if
// any) from item from (the contracts that replay from the start ignore
// it).
func ResumePath(c, id, run string, from int) string {
	api := chatapi.ChatPath
	start := "?startIndex=" + strconv.Itoa(from)
	switch c {
	case check.ResumeAISDK:
		return api + "/" + url.PathEscape(id) + "/stream"
	case check.ResumeWorkflow:
		if run != "" && id != check.UnknownChat {
			id = run
		}
		return api + "/" + url.PathEscape(id) + "/stream" + start
	case check.ResumeAISDK4:
		return api + "?chatId=" + url.QueryEscape(id)
	}
	return api + "/" + url.PathEscape(id) + "/subscribe" + start
}

// ResumeSelected returns checks without the resume checks of the contracts
// not in resume: what a run sends when -resume names those contracts (the
// resume checks are opt-in; a run given them anyway skips them, opt-in).
func ResumeSelected(checks []Check, resume []string) []Check {
	return slices.DeleteFunc(slices.Clone(checks), func(c Check) bool {
		ct := c.Params["contract"]
		return ct != "" && !slices.Contains(resume, ct)
	})
}
