package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance"
)

func TestWriteConsoleGolden(t *testing.T) {
	tests := []struct {
		name   string
		report *conformance.Report
		opts   ConsoleOptions
	}{
		{"report.console", fixtureReport(), ConsoleOptions{}},
		{"report-verbose.console", fixtureReport(), ConsoleOptions{Verbose: true}},
		{"report-color.console", fixtureReport(), ConsoleOptions{Color: true}},
		{"empty.console", emptyReport(), ConsoleOptions{}},
		{"interrupted.console", interruptedReport(), ConsoleOptions{}},
		{"unreachable.console", unreachableReport(), ConsoleOptions{}},
		{"unreachable-verbose.console", unreachableReport(), ConsoleOptions{Verbose: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, WriteConsole(&b, tt.report, tt.opts), "write %s", tt.name)
			golden(t, tt.name+".golden", b.Bytes())
		})
	}
}

func TestWriteConsoleLayout(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteConsole(&b, fixtureReport(), ConsoleOptions{}))
	out := b.String()

	t.Run("sections in order with titles", func(t *testing.T) {
		headings := regexp.MustCompile(`(?m)^\d+\.\d+ .*$`).FindAllString(out, -1)
		assert.Equal(t, []string{
			"4.2 Request body", "4.3 Model values", "4.4 JSON response", "4.5 Stream response",
			"4.6 Status codes", "5.3 Authentication: missing or invalid key", "5.4 Authentication: team permission",
			"7.3 Errors: 400/422 split", "8.1 Credits", "9.2 Model sets",
		}, headings, "section headings must come in section order, each with its title")
	})
	t.Run("one line per check with its mark", func(t *testing.T) {
		for _, want := range []string{
			"  ✔ chat/5.3/missing-key-401  missing Authorization header → 401\n",
			"  ✗ chat/4.3/model-current-accepted[gamma-k3]  current model gamma-k3 accepted — gamma-k3 was rejected with 422\n",
			"  ~ chat/5.3/wrong-scheme-401  Basic scheme with a valid key → 401 — a Basic credential got 403, not 401\n",
			"  i chat/7.3/validation-status-split  which validation failures get 400 and which 422 — 400: body-not-json; 422: content-missing\n",
			"  - chat/5.4/other-team-403  key without permission for the team → 403 — needs CHATWIRE_API_KEY_OTHER_TEAM or -forbidden-header\n",
			"  ? chat/4.4/json-status-200  stream:false → 200 — 429 after 3 attempts (Retry-After: 30)\n",
			"  ! chat/8.1/credits-402  a key without credits gets 402 — write transcript: no space left on device\n",
			"  ✔ chat/4.6/documented-status  every status is a documented one\n",
		} {
			assert.Contains(t, out, want, "console output must hold the check line")
		}
	})
	t.Run("recap", func(t *testing.T) {
		_, recap, ok := strings.Cut(out, "Failures:\n")
		require.True(t, ok, "a report with failures must have a Failures: recap")
		for _, want := range []string{
			"  ✗ chat/4.5/first-line-code-2  first line is a 2: part with a chatId  [MUST]\n",
			"    -> \"The first line is 2:[{\"chatId\":\"…\"}].\"\n       (§4, stream item 3)\n",
			"       Expected: 2:[{\"chatId\":\"<string>\"}]\n                 before any other line\n",
			"         Actual: 0:\"Hello\"\n                 2:[{\"chatId\":\"c1\"}]\n",
			"    Transcripts: transcripts/chat-4.5-stream-default.jsonl\n                 transcripts/chat-4.3-model-current-accepted-alpha-6.1-sol.jsonl\n",
			"    Transcript: transcripts/chat-4.3-model-current-accepted-gamma-k3.jsonl\n",
			"    Reproduce with: " + curlGammaK3 + "\n",
			"  ! chat/8.1/credits-402  a key without credits gets 402  [MUST]\n",
		} {
			assert.Contains(t, recap, want, "the recap must hold the failure evidence")
		}
		assert.NotContains(t, recap, "chat/5.3/wrong-scheme-401", "warnings are recapped only in verbose mode")
		assert.NotContains(t, recap, "chat/4.4/json-status-200", "inconclusive results are recapped only in verbose mode")
	})
	t.Run("closing lines", func(t *testing.T) {
		assert.True(t, strings.HasSuffix(out,
			"\n4 passed, 2 failed, 2 warned, 2 info, 2 skipped, 1 inconclusive, 1 errors\n3 chats created, finished in 4.213s\n"),
			"console output must end with the count line, then the spend and duration; got tail %q", out[max(0, len(out)-200):])
	})
	t.Run("no color unless asked", func(t *testing.T) {
		assert.NotContains(t, out, "\x1b", "without Color no escape byte may reach the terminal, not even one from the wire")
		assert.Contains(t, out, `"x:1\x1b[2J"`, "control characters from the wire must show as escapes")
	})
}

func TestWriteConsoleOptions(t *testing.T) {
	t.Run("verbose recaps warnings and inconclusive results", func(t *testing.T) {
		var b bytes.Buffer
		require.NoError(t, WriteConsole(&b, fixtureReport(), ConsoleOptions{Verbose: true}))
		_, recap, ok := strings.Cut(b.String(), "Failures:\n")
		require.True(t, ok, "verbose output must have a recap")
		assert.Contains(t, recap, "  ~ chat/5.3/wrong-scheme-401  Basic scheme with a valid key → 401  [SHOULD]\n", "verbose recap must hold warnings")
		assert.Contains(t, recap, "  ? chat/4.4/json-status-200  stream:false → 200  [MUST]\n", "verbose recap must hold inconclusive results")
		assert.Contains(t, b.String(), "      MUST · probe · chat · 3 attempts · 1.5s\n", "verbose mode must show each check's particulars")
		assert.Contains(t, recap, "         Actual: x:1\\x1b[31m\\x00|`pipe`|\\u202e\n", "control characters in an actual value must show as escapes")
		assert.NotContains(t, b.String(), "\x1b", "without Color no escape byte may reach the terminal")
	})
	t.Run("color marks", func(t *testing.T) {
		var b bytes.Buffer
		require.NoError(t, WriteConsole(&b, fixtureReport(), ConsoleOptions{Color: true}))
		out := b.String()
		for _, want := range []string{"\x1b[32m✔\x1b[0m", "\x1b[31m✗\x1b[0m", "\x1b[33m~\x1b[0m", "\x1b[34mi\x1b[0m",
			"\x1b[36m-\x1b[0m", "\x1b[35m?\x1b[0m", "\x1b[1;31m!\x1b[0m"} {
			assert.Contains(t, out, want, "colored output must paint each mark")
		}
		assert.Contains(t, out, "\n4 passed, 2 failed, 2 warned, 2 info, 2 skipped, 1 inconclusive, 1 errors\n",
			"the count line stays plain for scripts even with color")
	})
	t.Run("no recap without failures", func(t *testing.T) {
		r := fixtureReport()
		r.Results = []conformance.Result{r.Results[0], r.Results[1]}
		var b bytes.Buffer
		require.NoError(t, WriteConsole(&b, r, ConsoleOptions{}))
		assert.NotContains(t, b.String(), "Failures:", "a run without failures or errors has no recap")
	})
}

// TestWriteConsoleStopped checks the block of a run that stopped because
// its key was rejected: said once, with what came back and what to try,
// and the checks it decided counted there, not listed (but with -v).
func TestWriteConsoleStopped(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteConsole(&b, keyRejectedReport(), ConsoleOptions{}))
	out := b.String()
	assert.True(t, strings.HasPrefix(out, "chatwire 0.1.0 · target https://api.example.com · spec chat-api.md\n\n"+
		"? Key rejected: the key in CHATWIRE_API_KEY was rejected: the first 4 requests made with it all got 401\n"+
		"  Last answer: 401 Unauthorized; body {\"error\":\"invalid API key\"} (probe body/invalid[content-null])\n"+
		"  chatwire stopped sending; 2 checks not established (inconclusive or not judged), left out below (-v lists them). Try:\n"+
		"  - CHATWIRE_API_KEY: is it this service's key?\n"+
		"  - by hand: curl -sS -i -N -X POST 'https://api.example.com/api/chat' -H \"Authorization: Bearer $CHATWIRE_API_KEY\"\n\n"+
		"5.3 Authentication: missing or invalid key\n  ✔ chat/5.3/missing-key-401"), "the block, then the checks it did not decide:\n%s", out)
	assert.Equal(t, 1, strings.Count(out, "was rejected"), "the reason is said once:\n%s", out)

	b.Reset()
	require.NoError(t, WriteConsole(&b, keyRejectedReport(), ConsoleOptions{Verbose: true}))
	assert.Contains(t, b.String(), "  ? chat/7.2/body-not-json-400", "-v lists the checks the stop decided")
}
