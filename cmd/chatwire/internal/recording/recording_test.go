package recording_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/cmd/chatwire/internal/recording"
	"github.com/chatwire/chatwire/conformance"
	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/conformance/transcript"
)

// TestRecordThenReplayAgrees records live runs against the mock and replays
// their transcripts: every check reaches the same outcome, reason, actual
// value, attempts and parameters, and the replay names the transcripts.
func TestRecordThenReplayAgrees(t *testing.T) {
	tests := []struct {
		name      string
		fault     string
		keys      conformance.Keys
		burst     int
		strict    bool
		forbidden http.Header
	}{
		{"conformant with a burst", "", conformance.Keys{Valid: mock.KeyValid, NoCredits: mock.KeyNoCredits}, 2, false, nil},
		{"malformed line, strict", "malformed-line", conformance.Keys{Valid: mock.KeyValid}, 0, true, nil},
		{"rate limited", "", conformance.Keys{Valid: mock.KeyRateLimited}, 0, false, nil},
		{"error with stream", "error-with-stream", conformance.Keys{Valid: mock.KeyValid, OtherTeam: mock.KeyOtherTeam}, 0, false, nil},
		{"forbidden header", "", conformance.Keys{Valid: mock.KeyTeamA}, 0, false, http.Header{"X-Team": {"b"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, err := mock.New(mock.Options{Fault: tt.fault, Seed: 7})
			require.NoError(t, err)
			ts := httptest.NewServer(srv)
			defer ts.Close()
			dir := t.TempDir()
			rec, err := transcript.NewRecorder(dir, transcript.Header{Tool: "chatwire test", Target: ts.URL},
				transcript.Options{Keys: recording.Keys(tt.keys)})
			require.NoError(t, err)
			live, err := conformance.NewLive(conformance.LiveOptions{BaseURL: ts.URL, Keys: tt.keys,
				FirstLineTimeout: 5 * time.Second, Timeout: 10 * time.Second,
				Observer: recording.Observer(rec, func(id string, err error) { t.Errorf("record %s: %v", id, err) })})
			require.NoError(t, err)
			noWait := func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
			liveRep, err := conformance.Run(context.Background(), conformance.Config{Target: ts.URL, BaseURL: ts.URL,
				Strict: tt.strict, Roles: tt.keys.Roles(), MaxChats: conformance.NoChatLimit, RateLimitBurst: tt.burst, ForbiddenHeader: tt.forbidden,
				Transcripts: recording.Transcripts(rec), Sleep: noWait}, live)
			require.NoError(t, err)
			require.NoError(t, rec.Close())

			trs, err := recording.ReadPaths([]string{dir})
			require.NoError(t, err)
			replayed, ex, err := recording.Replay(context.Background(), conformance.Config{Strict: tt.strict}, trs, dir)
			require.NoError(t, err)
			assert.Empty(t, ex.Unused(), "every recorded exchange judged")
			assert.Empty(t, recording.CompareReports(liveRep, replayed), "outcomes")
			require.Len(t, replayed.Results, len(liveRep.Results))
			for i, want := range liveRep.Results {
				got := replayed.Results[i]
				assert.Equal(t, want.ID, got.ID)
				assert.Equal(t, want.Outcome, got.Outcome, "%s outcome", want.ID)
				assert.Equal(t, want.Reason, got.Reason, "%s reason", want.ID)
				assert.Equal(t, want.Actual, got.Actual, "%s actual", want.ID)
				assert.Equal(t, want.Attempts, got.Attempts, "%s attempts", want.ID)
				assert.Equal(t, want.Params, got.Params, "%s params", want.ID)
				assert.Equal(t, want.Transcripts, got.Transcripts, "%s transcripts: the replay names the files it read", want.ID)
				assert.Equal(t, want.Curl, got.Curl, "%s curl", want.ID)
			}
			assert.Equal(t, liveRep.Summary, replayed.Summary, "summary")
			if tt.forbidden != nil {
				for _, r := range replayed.Results {
					if r.ID == recording.OtherTeamCheck {
						assert.Equal(t, conformance.Pass, r.Outcome, "the other-team probe sent with -forbidden-header is judged: %s", r.Reason)
					}
				}
			}
			assert.Equal(t, ts.URL+", replayed from "+dir, replayed.Target, "target")
		})
	}
}

func TestReplayWithoutTranscriptSkips(t *testing.T) {
	rep, _, err := recording.Replay(context.Background(), conformance.Config{}, nil, "nowhere")
	require.NoError(t, err)
	for _, r := range rep.Results {
		assert.Equal(t, conformance.Skip, r.Outcome, "%s with no transcripts", r.ID)
	}
	assert.Equal(t, "transcripts in nowhere", rep.Target)
}

func TestReadPathsErrors(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	require.NoError(t, os.Mkdir(empty, 0o755))
	bad := filepath.Join(dir, "bad"+transcript.Ext)
	require.NoError(t, os.WriteFile(bad, []byte(`{"format":"chatwire-transcript/1"}`+"\n"+`{"ev":"request","ex":0}`+"\n"), 0o644))
	tests := []struct {
		name  string
		paths []string
		want  string
	}{
		{"missing", []string{filepath.Join(dir, "nope")}, "no such file"},
		{"empty directory", []string{empty}, "holds no transcript"},
		{"bad file", []string{bad}, bad + `:2:1: missing field "t"`},
		{"bad file in a directory", []string{dir}, bad + `:2:1: missing field "t"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := recording.ReadPaths(tt.paths)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestExpected(t *testing.T) {
	rep := &conformance.Report{Results: []conformance.Result{
		{ID: "chat/a", Outcome: conformance.Pass},
		{ID: "chat/b", Outcome: conformance.Fail, Reason: "status 500"},
		{ID: "chat/new", Outcome: conformance.Info, Reason: "x"},
	}}
	e := &recording.Expected{Mode: "m", Outcomes: map[string]conformance.Outcome{
		"chat/a": conformance.Pass, "chat/b": conformance.Pass, "chat/gone": conformance.Warn}}
	assert.Equal(t, []string{
		"chat/b: want pass, got fail (status 500)",
		"chat/gone: want warn, not in the report",
		"chat/new: got info, not expected at all (x)",
	}, e.Diff(rep))

	var b strings.Builder
	require.NoError(t, recording.ExpectedOf(rep, "fault-x").Write(&b))
	assert.Equal(t, "{\n  \"mode\": \"fault-x\",\n  \"strict\": false,\n  \"outcomes\": {\n    \"chat/a\": \"pass\",\n    \"chat/b\": \"fail\",\n    \"chat/new\": \"info\"\n  }\n}\n", b.String())
	back, err := recording.ReadExpected(strings.NewReader(b.String()))
	require.NoError(t, err)
	assert.Empty(t, back.Diff(rep), "what was written reads back")

	for _, bad := range []string{`{"mode":"m","outcome":{}}`, `{"outcomes":{"chat/a":"passed"}}`, `{`} {
		_, err := recording.ReadExpected(strings.NewReader(bad))
		assert.Error(t, err, "reading %s", bad)
	}
}

func TestCompareReports(t *testing.T) {
	recorded := &conformance.Report{Results: []conformance.Result{{ID: "a", Outcome: conformance.Pass}, {ID: "b", Outcome: conformance.Warn}}}
	replayed := &conformance.Report{Results: []conformance.Result{{ID: "a", Outcome: conformance.Fail, Reason: "strict"}, {ID: "c", Outcome: conformance.Pass}}}
	assert.Equal(t, []string{"a: recorded pass, replayed fail (strict)"}, recording.CompareReports(recorded, replayed))
}
