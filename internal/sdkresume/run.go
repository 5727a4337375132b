package sdkresume

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The real clients that resume, as resume.mjs names them.
const (
	AI5      = "ai@5.0.277"
	AI6      = "ai@6.0.326"
	AI7      = "ai@7.0.173"
	Workflow = "workflow@2.0.43"
	AI4      = "ai@4.3.19"
)

// Clients are the clients in the order the runs go.
var Clients = []string{AI5, AI6, AI7, Workflow, AI4}

// Probe is the package whose presence in the program's node_modules
// tells that `npm ci` ran there.
const Probe = "@ai-sdk/workflow"

// Scenarios are resume.mjs's scenarios of each client (its doc says what
// each does).
var Scenarios = map[string][]string{
	AI5:      {"same-page", "same-page-node", "reload", "after-end", "unknown", "no-key", "other-team"},
	AI6:      {"same-page", "same-page-node", "reload", "after-end", "unknown", "no-key", "other-team"},
	AI7:      {"same-page", "same-page-node", "reload", "after-end", "unknown", "no-key", "other-team"},
	Workflow: {"post-cut", "reload", "tail", "after-end", "unknown", "no-key", "other-team"},
	AI4:      {"same-page", "reload", "after-end", "unknown", "no-key", "other-team"},
}

// Running reports whether a scenario resumes a stream that is still being
// written (the server holds its rest back until the resume is answered),
// not one that has ended.
func Running(scenario string) bool {
	switch scenario {
	case "same-page", "same-page-node", "reload", "post-cut":
		return true
	}
	return false
}

// Spec is one run of resume.mjs: a client, a scenario (resume.mjs's doc
// says what each does), the cutting server's base URL and an uncut twin's
// (Ref), the keys, the user's message, the chat id the AI SDK clients
// choose, and the tail scenario's negative start index.
type Spec struct {
	Name     string `json:"name"`
	Client   string `json:"client"`
	Scenario string `json:"scenario"`
	URL      string `json:"url"`
	Ref      string `json:"ref"`
	Key      string `json:"key"`
	OtherKey string `json:"otherKey"`
	Text     string `json:"text"`
	ChatID   string `json:"chatId"`
	Tail     int    `json:"tail,omitempty"`
}

// Error is an error as resume.mjs reports it.
type Error struct {
	Name    string `json:"name"`
	Message string `json:"message"`
}

// Request is a request a client sent, as resume.mjs logs it: its page (2
// the new page's), what fetch threw, its method, path and query, status,
// x-workflow-run-id and x-workflow-stream-tail-index, and whether its
// body broke.
type Request struct {
	Page      int    `json:"page"`
	Error     *Error `json:"error"`
	Method    string `json:"method"`
	Path      string `json:"path"`
	Status    int    `json:"status"`
	RunID     string `json:"runId"`
	TailIndex string `json:"tailIndex"`
	Broken    bool   `json:"broken"`
}

// StartIndex returns a workflow request's startIndex.
func (q Request) StartIndex(t *testing.T) int {
	t.Helper()
	u, err := url.Parse(q.Path)
	require.NoError(t, err)
	n, err := strconv.Atoi(u.Query().Get("startIndex"))
	require.NoError(t, err, "%s", q.Path)
	return n
}

// Result is resume.mjs's result of one run.
type Result struct {
	Name            string          `json:"name"`
	Reference       json.RawMessage `json:"reference"`
	Cut             json.RawMessage `json:"cut"`
	Messages        json.RawMessage `json:"messages"`
	Status          string          `json:"status"`
	Error           *Error          `json:"error"`
	CutError        *Error          `json:"cutError"`
	Requests        []Request       `json:"requests"`
	ChunkIndex      *int            `json:"chunkIndex"`
	ReferenceChunks *int            `json:"referenceChunks"`
	Logs            []string        `json:"logs"`
	HarnessError    string          `json:"harnessError"`
}

// MessagesBody is the body the workflow transport posts for Spec.Text:
// {messages} with the user's message alone.
func MessagesBody(t *testing.T, text string) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"messages": []any{map[string]any{"id": "user-1", "role": "user", "parts": []any{map[string]any{"type": "text", "text": text}}}},
	})
	require.NoError(t, err)
	return string(b)
}

// LastStepTail returns the negative startIndex that reads the last step
// of a UI stream (from its last start-step chunk on), for the tail
// scenario.
func LastStepTail(t *testing.T, stream string) int {
	t.Helper()
	var types []string
	for _, line := range strings.Split(stream, "\n") {
		data, ok := strings.CutPrefix(strings.TrimSuffix(line, "\r"), "data:")
		data = strings.TrimPrefix(data, " ")
		if !ok || data == "[DONE]" {
			continue
		}
		var chunk struct{ Type string }
		require.NoError(t, json.Unmarshal([]byte(data), &chunk), "%s", line)
		types = append(types, chunk.Type)
	}
	last := -1
	for i, ty := range types {
		if ty == "start-step" {
			last = i
		}
	}
	require.Positive(t, last, "the stream has a second step: %q", types)
	return -(len(types) - last)
}

// Run runs resume.mjs (in dir, its packages installed there) on specs
// and returns node's version and the results, in the specs' order; it
// fails the test where the program fails or a run's harness does.
func Run(t *testing.T, node, dir string, specs []*Spec) (string, []Result) {
	t.Helper()
	in, err := json.Marshal(specs)
	require.NoError(t, err)
	out := RunNode(t, node, dir, "resume.mjs", in, 10*time.Minute)
	var got struct {
		Node    string   `json:"node"`
		Results []Result `json:"results"`
	}
	require.NoError(t, json.Unmarshal(out, &got), "resume.mjs's output: %s", out)
	require.Len(t, got.Results, len(specs))
	for i, r := range got.Results {
		require.Equal(t, specs[i].Name, r.Name)
		require.Empty(t, r.HarnessError, "%s: resume.mjs failed", r.Name)
	}
	return got.Node, got.Results
}

// NeedNodePackages returns the path of node where it and the package
// probe are installed (`npm ci` in dir), and skips the test where they
// are not, except under CI=true, where .ci/run installs them and the test
// fails instead. what names the packages.
func NeedNodePackages(t *testing.T, what, dir, probe string) string {
	t.Helper()
	node, err := exec.LookPath("node")
	_, statErr := os.Stat(filepath.Join(dir, "node_modules", probe, "package.json"))
	if err == nil && statErr == nil {
		return node
	}
	abs, _ := filepath.Abs(dir)
	msg := fmt.Sprintf("%s need node and `npm ci` in %s", what, filepath.ToSlash(abs))
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true: .ci/run installs them)", msg)
	}
	t.Skip(msg)
	return ""
}

// RunNode runs `node script` in dir with in on its standard input, for at
// most limit, and returns its standard output; it fails the test with the
// program's standard error where it fails.
func RunNode(t *testing.T, node, dir, script string, in []byte, limit time.Duration) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "node %s: %s", script, stderr.String())
	return out
}
