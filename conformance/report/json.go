package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/chatwire/chatwire/conformance"
)

// Format is the format of the JSON report [WriteJSON] writes, its first
// key. Version 1 had no format key; version 2 added it and "stopped".
const Format = "chatwire-report/2"

// formatPrefix starts the format of every version of the JSON report.
const formatPrefix = "chatwire-report/"

// reportJSON is the canonical JSON report; field order is key order.
type reportJSON struct {
	Format      string      `json:"format"`
	Tool        string      `json:"tool"`
	Version     string      `json:"version"`
	Spec        string      `json:"spec"`
	Target      string      `json:"target"`
	Strict      bool        `json:"strict"`
	StartedAt   string      `json:"started_at"`
	DurationMS  int64       `json:"duration_ms"`
	Interrupted bool        `json:"interrupted"`
	Unreachable string      `json:"unreachable"`
	Stopped     *stopJSON   `json:"stopped,omitempty"`
	Summary     summaryJSON `json:"summary"`
	Spend       spendJSON   `json:"spend"`
	Checks      []checkJSON `json:"checks"`
}

type summaryJSON struct {
	Pass         int `json:"pass"`
	Warn         int `json:"warn"`
	Info         int `json:"info"`
	Fail         int `json:"fail"`
	Skip         int `json:"skip"`
	Inconclusive int `json:"inconclusive"`
	Error        int `json:"error"`
}

type stopJSON struct {
	Kind   string   `json:"kind"`
	Reason string   `json:"reason"`
	Actual string   `json:"actual"`
	Advice []string `json:"advice"`
}

type spendJSON struct {
	ChatsCreated int `json:"chats_created"`
}

type checkJSON struct {
	ID          string            `json:"id"`
	Title       string            `json:"title"`
	Section     string            `json:"section"`
	Level       string            `json:"level"`
	Kind        string            `json:"kind"`
	Cost        string            `json:"cost"`
	Requirement string            `json:"requirement"`
	Outcome     string            `json:"outcome"`
	Reason      string            `json:"reason"`
	Expected    []string          `json:"expected"`
	Actual      string            `json:"actual"`
	Attempts    int               `json:"attempts"`
	DurationMS  int64             `json:"duration_ms"`
	Params      map[string]string `json:"params"`
	Curl        string            `json:"curl"`
	Transcripts []string          `json:"transcripts"`
	Failure     string            `json:"failure,omitempty"`
}

// WriteJSON writes r as the canonical JSON report, indented by two spaces:
//
//	{"format", "tool", "version", "spec", "target", "strict", "started_at",
//	 "duration_ms", "interrupted", "unreachable",
//	 "stopped": {"kind", "reason", "actual", "advice"},
//	 "summary": {"pass", "warn", "info", "fail", "skip", "inconclusive", "error"},
//	 "spend": {"chats_created"},
//	 "checks": [{"id", "title", "section", "level", "kind", "cost",
//	             "requirement", "outcome", "reason", "expected", "actual",
//	             "attempts", "duration_ms", "params", "curl", "transcripts",
//	             "failure"}]}
//
// Keys are snake_case and always present, in this order (params sorted by
// key), but for stopped and failure, there only when the run stopped
// sending early and when a failure decided the check. format is [Format].
// interrupted is true when the run was interrupted (it is then never a
// pass). stopped says why the run stopped: its kind ("unreachable", "no_response",
// "key_rejected", "not_found"), the reason every check it left carries,
// the answer that decided it and what to check; unreachable repeats its
// reason when its kind is "unreachable", as version 1 had it. failure is
// the kind of the failure that decided the check ("refused", "not_http",
// "body_cap", "reset", …). started_at
// is RFC 3339 with the offset r.StartedAt carries; durations are whole
// milliseconds, rounded; empty lists are [] and empty params {}, never
// null. The summary is counted from the checks.
func WriteJSON(w io.Writer, r *conformance.Report) error {
	if err := validate(r); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(toJSON(r)); err != nil {
		return fmt.Errorf("report: write JSON: %w", err)
	}
	return bw.Flush()
}

func toJSON(r *conformance.Report) reportJSON {
	s := tally(r.Results)
	out := reportJSON{
		Format:      Format,
		Tool:        r.Tool,
		Version:     r.Version,
		Spec:        r.Spec,
		Target:      r.Target,
		Strict:      r.Strict,
		StartedAt:   r.StartedAt.Format(time.RFC3339Nano),
		DurationMS:  millis(r.Duration),
		Interrupted: r.Interrupted,
		Unreachable: r.Unreachable,
		Summary: summaryJSON{
			Pass: s.Pass, Warn: s.Warn, Info: s.Info, Fail: s.Fail,
			Skip: s.Skip, Inconclusive: s.Inconclusive, Error: s.Error,
		},
		Spend:  spendJSON{ChatsCreated: r.ChatsCreated},
		Checks: make([]checkJSON, 0, len(r.Results)),
	}
	if st := r.Stopped; st != nil {
		out.Stopped = &stopJSON{Kind: string(st.Kind), Reason: st.Reason, Actual: st.Actual, Advice: st.Advice}
		if out.Stopped.Advice == nil {
			out.Stopped.Advice = []string{}
		}
	}
	for i := range r.Results {
		res := &r.Results[i]
		c := checkJSON{
			ID:          res.ID,
			Title:       res.Title,
			Section:     res.Section,
			Level:       string(res.Level),
			Kind:        res.Kind,
			Cost:        res.Cost,
			Requirement: res.Requirement,
			Outcome:     string(res.Outcome),
			Reason:      res.Reason,
			Expected:    res.Expected,
			Actual:      res.Actual,
			Attempts:    res.Attempts,
			DurationMS:  millis(res.Duration),
			Params:      res.Params,
			Curl:        res.Curl,
			Transcripts: res.Transcripts,
			Failure:     res.Failure,
		}
		if c.Expected == nil {
			c.Expected = []string{}
		}
		if c.Params == nil {
			c.Params = map[string]string{}
		}
		if c.Transcripts == nil {
			c.Transcripts = []string{}
		}
		out.Checks = append(out.Checks, c)
	}
	return out
}

// ReadError is a problem in the JSON report given to [ReadJSON], with where
// it is when that is known.
type ReadError struct {
	Line   int   // 1-based line, 0 when the place is not known
	Col    int   // 1-based column in bytes
	Offset int64 // 0-based byte offset, -1 when the place is not known
	Msg    string
	Err    error // the encoding/json error behind Msg, if any
}

// Error returns "report: line 3:7: msg", or "report: msg" without a place.
func (e *ReadError) Error() string {
	if e.Offset < 0 {
		return "report: " + e.Msg
	}
	return fmt.Sprintf("report: line %d:%d: %s", e.Line, e.Col, e.Msg)
}

// Unwrap returns the encoding/json error, if any.
func (e *ReadError) Unwrap() error { return e.Err }

// ReadJSON reads a report written by [WriteJSON], to compare runs or write it
// again in another format. It checks what it reads: the JSON syntax and
// types, that checks is present, that every check has an id, a known
// outcome and level (or none), and non-negative counts and durations, that
// started_at is RFC 3339, and that the summary matches the checks. A problem
// is a [*ReadError] with its line and column. It reads every version of
// the format: a report without format is version 1, whose "unreachable"
// reads as a stop of kind unreachable; a format that is not
// chatwire-report/N is an error. Keys it does not know are ignored, so
// reports of later versions still read; empty lists and params read as
// nil.
func ReadJSON(r io.Reader) (*conformance.Report, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("report: read JSON: %w", err)
	}
	var in struct {
		reportJSON
		Checks *[]checkJSON `json:"checks"`
	}
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, jsonError(data, err)
	}
	if in.Format != "" && !strings.HasPrefix(in.Format, formatPrefix) {
		return nil, newReadError(data, locate(data, "format", -1), fmt.Sprintf("format %q is not a chatwire report's (%s…)", in.Format, formatPrefix))
	}
	if in.Checks == nil {
		return nil, newReadError(data, locate(data, "checks", -1), "no checks: want a list, [] when empty")
	}
	out := &conformance.Report{
		Tool:         in.Tool,
		Version:      in.Version,
		Spec:         in.Spec,
		Target:       in.Target,
		Strict:       in.Strict,
		Interrupted:  in.Interrupted,
		Unreachable:  in.Unreachable,
		ChatsCreated: in.Spend.ChatsCreated,
		Results:      make([]conformance.Result, 0, len(*in.Checks)),
	}
	switch st := in.Stopped; {
	case st != nil:
		out.Stopped = &conformance.Stop{Kind: conformance.StopKind(st.Kind), Reason: st.Reason, Actual: st.Actual, Advice: st.Advice}
		if len(st.Advice) == 0 {
			out.Stopped.Advice = nil
		}
	case in.Unreachable != "":
		out.Stopped = &conformance.Stop{Kind: conformance.StopUnreachable, Reason: in.Unreachable}
	}
	if out.StartedAt, err = time.Parse(time.RFC3339Nano, in.StartedAt); err != nil {
		return nil, newReadError(data, locate(data, "started_at", -1), fmt.Sprintf("started_at %q is not an RFC 3339 time", in.StartedAt))
	}
	if in.DurationMS < 0 {
		return nil, newReadError(data, locate(data, "duration_ms", -1), fmt.Sprintf("negative duration_ms %d", in.DurationMS))
	}
	out.Duration = time.Duration(in.DurationMS) * time.Millisecond
	if in.Spend.ChatsCreated < 0 {
		return nil, newReadError(data, locate(data, "spend", -1), fmt.Sprintf("negative chats_created %d", in.Spend.ChatsCreated))
	}
	for i, c := range *in.Checks {
		res, msg := fromCheckJSON(c)
		if msg != "" {
			return nil, newReadError(data, locate(data, "checks", i), fmt.Sprintf("checks[%d] %q: %s", i, c.ID, msg))
		}
		out.Results = append(out.Results, res)
	}
	out.Summary = tally(out.Results)
	got := in.Summary
	want := summaryJSON{
		Pass: out.Summary.Pass, Warn: out.Summary.Warn, Info: out.Summary.Info, Fail: out.Summary.Fail,
		Skip: out.Summary.Skip, Inconclusive: out.Summary.Inconclusive, Error: out.Summary.Error,
	}
	if got != want {
		return nil, newReadError(data, locate(data, "summary", -1), fmt.Sprintf("summary %+v does not match the checks, which count %+v", got, want))
	}
	return out, nil
}

// fromCheckJSON converts one check, or returns what is wrong with it.
func fromCheckJSON(c checkJSON) (conformance.Result, string) {
	switch {
	case c.ID == "":
		return conformance.Result{}, "no id"
	case !slices.Contains(conformance.Outcomes(), conformance.Outcome(c.Outcome)):
		return conformance.Result{}, fmt.Sprintf("unknown outcome %q", c.Outcome)
	case !slices.Contains([]conformance.Level{"", conformance.Must, conformance.Should, conformance.Infos}, conformance.Level(c.Level)):
		return conformance.Result{}, fmt.Sprintf("unknown level %q", c.Level)
	case c.Attempts < 0:
		return conformance.Result{}, fmt.Sprintf("negative attempts %d", c.Attempts)
	case c.DurationMS < 0:
		return conformance.Result{}, fmt.Sprintf("negative duration_ms %d", c.DurationMS)
	}
	res := conformance.Result{
		ID:          c.ID,
		Title:       c.Title,
		Section:     c.Section,
		Level:       conformance.Level(c.Level),
		Kind:        c.Kind,
		Cost:        c.Cost,
		Requirement: c.Requirement,
		Outcome:     conformance.Outcome(c.Outcome),
		Reason:      c.Reason,
		Expected:    c.Expected,
		Actual:      c.Actual,
		Attempts:    c.Attempts,
		Duration:    time.Duration(c.DurationMS) * time.Millisecond,
		Params:      c.Params,
		Curl:        c.Curl,
		Transcripts: c.Transcripts,
		Failure:     c.Failure,
	}
	if len(res.Expected) == 0 {
		res.Expected = nil
	}
	if len(res.Params) == 0 {
		res.Params = nil
	}
	if len(res.Transcripts) == 0 {
		res.Transcripts = nil
	}
	return res, ""
}

// jsonError places an encoding/json error.
func jsonError(data []byte, err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		// Offset counts the bytes read, the offending one included.
		e := newReadError(data, max(syntax.Offset-1, 0), syntax.Error())
		e.Err = err
		return e
	case errors.As(err, &typ):
		field := strings.TrimPrefix(typ.Field, "reportJSON.")
		if field == "" {
			field = "the report"
		}
		msg := fmt.Sprintf("%s: want %s, have %s", field, jsonKind(typ.Type), typ.Value)
		e := newReadError(data, valueEndingAt(data, typ.Offset), msg)
		e.Err = err
		return e
	}
	return &ReadError{Offset: -1, Msg: err.Error(), Err: err}
}

// newReadError returns a ReadError at offset in data, or without a place
// when offset is negative.
func newReadError(data []byte, offset int64, msg string) *ReadError {
	e := &ReadError{Offset: offset, Msg: msg}
	if offset < 0 {
		e.Offset = -1
		return e
	}
	offset = min(offset, int64(len(data)))
	before := data[:offset]
	e.Line = bytes.Count(before, []byte("\n")) + 1
	e.Col = int(offset) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return e
}

// locate returns the offset of the value of the top-level key in data, or
// with index ≥ 0 of that element of the array it holds, or -1.
func locate(data []byte, key string, index int) int64 {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return -1
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return -1
		}
		if tok != key {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return -1
			}
			continue
		}
		if index < 0 {
			return valueStart(data, dec.InputOffset())
		}
		if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
			return -1
		}
		for i := 0; dec.More(); i++ {
			if i == index {
				return valueStart(data, dec.InputOffset())
			}
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return -1
			}
		}
		return -1
	}
	return -1
}

// valueStart skips the whitespace, colon or comma at offset to where the
// next value starts.
func valueStart(data []byte, offset int64) int64 {
	for offset < int64(len(data)) {
		switch data[offset] {
		case ' ', '\t', '\n', '\r', ':', ',':
			offset++
		default:
			return offset
		}
	}
	return offset
}

// valueEndingAt returns the offset where the JSON value whose type error
// encoding/json placed at end starts (it places one after a scalar, or just
// inside an array or object), or end when no value fits.
func valueEndingAt(data []byte, end int64) int64 {
	dec := json.NewDecoder(bytes.NewReader(data))
	var open []int64 // starts of the arrays and objects being read
	for {
		start := valueStart(data, dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return end
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			// A composite of the wrong type is placed just after its opening.
			if dec.InputOffset() == end {
				return start
			}
			open = append(open, start)
			continue
		case json.Delim('}'), json.Delim(']'):
			start = open[len(open)-1]
			open = open[:len(open)-1]
		}
		if dec.InputOffset() == end {
			return start
		}
		if dec.InputOffset() > end {
			return end
		}
	}
}

// jsonKind names what a Go type reads from JSON: "an object", "a list".
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return t.String()
}
