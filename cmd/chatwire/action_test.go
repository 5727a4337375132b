package main

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance/mock"
)

// actionRun is one run of the GitHub Action's script outside GitHub, with
// the environment GitHub would give it.
type actionRun struct {
	code                    int
	stdout, summary, output string
	dir                     string // the working directory, where the reports go
}

// runAction runs .github/action/chatwire-check.sh as action.yml does: the
// inputs as INPUT_* variables, GITHUB_ACTION_PATH at the repository root,
// GITHUB_STEP_SUMMARY and GITHUB_OUTPUT at files of a temporary directory.
func runAction(t *testing.T, env map[string]string) actionRun {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to run the action's script")
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	dir, tmp := t.TempDir(), t.TempDir()
	r := actionRun{dir: dir}
	summary, output := filepath.Join(tmp, "summary.md"), filepath.Join(tmp, "output")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, filepath.Join(root, ".github/action/chatwire-check.sh"))
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "GITHUB_ACTION_PATH=" + root,
		"RUNNER_TEMP=" + tmp, "GITHUB_STEP_SUMMARY=" + summary, "GITHUB_OUTPUT=" + output, "CHATWIRE_ACTION_REF=v0.0.0-test"}
	for _, v := range []string{"GOPATH", "GOCACHE", "GOMODCACHE", "GOFLAGS", "GOPROXY", "GOTOOLCHAIN"} {
		if val, ok := os.LookupEnv(v); ok {
			cmd.Env = append(cmd.Env, v+"="+val)
		}
	}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	r.stdout = out.String()
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else {
		require.NoError(t, err, "run the action's script: %s", r.stdout)
	}
	if b, err := os.ReadFile(summary); err == nil {
		r.summary = string(b)
	}
	if b, err := os.ReadFile(output); err == nil {
		r.output = string(b)
	}
	return r
}

// TestGitHubAction runs the action's script against the mock, a faulty
// mock and a closed port, and checks the step's exit code, the job
// summary, the report files and the outputs.
func TestGitHubAction(t *testing.T) {
	if testing.Short() {
		t.Skip("installs chatwire with go install")
	}
	faulty := mockServer(t, "first-line-not-2")
	closed := httptest.NewServer(nil)
	closedURL := closed.URL
	closed.Close()

	cases := []struct {
		name     string
		env      map[string]string
		code     int
		summary  string // in the job summary
		stdout   string // in the log (annotations)
		exitCode string // the exit-code output
	}{
		{"built-in mock", map[string]string{"INPUT_RUN": "chat/5.3\nchat/4.5"}, 0,
			"✅ **Conformant:** no check failed.", "chatwire check -json", "0"},
		{"a failing check", map[string]string{"INPUT_BASE_URL": faulty, "INPUT_RUN": "chat/4.5", "INPUT_RATE": "0",
			"CHATWIRE_API_KEY": mock.KeyValid}, 1,
			"❌ **Not conformant:** 1 check failed.", "::error title=chatwire check::❌ Not conformant: 1 check failed.", "1"},
		{"unreachable fails the step", map[string]string{"INPUT_BASE_URL": closedURL, "CHATWIRE_API_KEY": mock.KeyValid}, 3,
			"**Target unreachable:**", "::error title=chatwire check::❔ Not established: the target is unreachable; ", "3"},
		{"unreachable as a warning", map[string]string{"INPUT_BASE_URL": closedURL, "CHATWIRE_API_KEY": mock.KeyValid,
			"INPUT_FAIL_ON_INCONCLUSIVE": "false"}, 0,
			"**Target unreachable:**", "::warning title=chatwire check::❔ Not established: the target is unreachable", "3"},
		{"a usage error", map[string]string{"INPUT_RUN": "chat/9.9"}, 2, "", "::error title=chatwire check::chatwire check exited with 2", "2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runAction(t, c.env)
			assert.Equal(t, c.code, r.code, "exit code of the step; log:\n%s", r.stdout)
			assert.Contains(t, r.stdout, c.stdout, "the step's log")
			assert.Contains(t, r.output, "exit-code="+c.exitCode+"\n", "the exit-code output")
			assert.Contains(t, r.stdout, "chatwire v0.0.0-test", "chatwire is installed at the action's ref")
			if c.summary == "" {
				assert.Empty(t, r.summary, "no summary without a report")
				return
			}
			assert.Contains(t, r.summary, "## chatwire conformance report", "the job summary holds the Markdown report")
			assert.Contains(t, r.summary, c.summary, "the job summary's verdict")
			assert.Contains(t, r.summary, "chatwire v0.0.0-test", "the summary names the build")
			for _, name := range []string{"json", "junit", "markdown"} {
				m := regexp.MustCompile("(?m)^" + name + "-report=(.+)$").FindStringSubmatch(r.output)
				require.NotNil(t, m, "the %s-report output; outputs:\n%s", name, r.output)
				assert.Equal(t, r.dir, filepath.Dir(m[1]), "the %s report is in the working directory", name)
				data, err := os.ReadFile(m[1])
				require.NoError(t, err, "the %s report", name)
				assert.NotEmpty(t, data, "the %s report", name)
			}
			junit, err := os.ReadFile(filepath.Join(r.dir, "chatwire-report.xml"))
			require.NoError(t, err)
			assert.True(t, strings.HasPrefix(string(junit), "<?xml"), "the JUnit report is XML")
		})
	}
}

// TestActionInputsReachTheScript holds action.yml and its script together:
// every input is passed as INPUT_<NAME> and the script reads each one
// (setup-go and go-version are for the Go set-up step).
func TestActionInputsReachTheScript(t *testing.T) {
	yml, err := os.ReadFile("../../action.yml")
	require.NoError(t, err)
	script, err := os.ReadFile("../../.github/action/chatwire-check.sh")
	require.NoError(t, err)
	section := string(yml)
	section = section[strings.Index(section, "\ninputs:\n"):strings.Index(section, "\noutputs:\n")]
	inputs := regexp.MustCompile(`(?m)^  ([a-z-]+):\n    description:`).FindAllStringSubmatch(section, -1)
	require.NotEmpty(t, inputs, "inputs of action.yml")
	for _, m := range inputs {
		name := m[1]
		if name == "setup-go" || name == "go-version" {
			assert.True(t, strings.Contains(string(yml), "inputs."+name), "action.yml uses input %s", name)
			continue
		}
		env := "INPUT_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
		assert.True(t, strings.Contains(string(yml), env+": ${{ inputs."+name+" }}"), "action.yml passes input %s as %s", name, env)
		assert.True(t, strings.Contains(string(script), env), "the script reads %s", env)
	}
	assert.NotRegexp(t, `(?im)^  [a-z-]*(key|token|secret)[a-z-]*:`, section, "no key is an input: keys come from the step's env")
}
