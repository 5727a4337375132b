package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/cpu"
)

func TestBuildShort(t *testing.T) {
	const rev = "4eb36803da3c1962162c4ff51523854393c99d1e"
	settings := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	cases := []struct {
		name string
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{"no build info", nil, false, "devel"},
		{"go install at a tag", &debug.BuildInfo{Main: debug.Module{Path: "github.com/chatwire/chatwire", Version: "v0.2.0"}}, true, "v0.2.0"},
		{"clone with VCS stamping", &debug.BuildInfo{
			Main:     debug.Module{Version: "v0.0.0-20261122063601-4eb36803da3c+dirty"},
			Settings: settings("vcs.revision", rev, "vcs.modified", "true")}, true, "v0.0.0-20261122063601-4eb36803da3c+dirty"},
		{"devel with a commit", &debug.BuildInfo{
			Main:     debug.Module{Version: "(devel)"},
			Settings: settings("vcs.revision", rev, "vcs.modified", "false")}, true, "devel-4eb36803da3c"},
		{"devel with a modified tree", &debug.BuildInfo{
			Main:     debug.Module{Version: "(devel)"},
			Settings: settings("vcs.revision", rev, "vcs.modified", "true")}, true, "devel-4eb36803da3c+dirty"},
		{"go run: no VCS", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "devel"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, buildOf(c.info, c.ok).short(), "short version of %+v", c.info)
		})
	}
	t.Run("linked version without VCS", func(t *testing.T) {
		b := buildOf(&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true)
		b.Linked = "v0.3.0"
		assert.Equal(t, "v0.3.0", b.short(), "a version set at link time names a build without VCS info")
		b.Version = "v0.4.0"
		assert.Equal(t, "v0.4.0", b.short(), "the module version wins over the linked one")
	})
}

func TestBuildWrite(t *testing.T) {
	b := buildOf(&debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/chatwire/chatwire", Version: "v0.0.0-20261122063601-4eb36803da3c+dirty"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "4eb36803da3c1962162c4ff51523854393c99d1e"},
			{Key: "vcs.time", Value: "2026-11-22T06:36:01Z"}, {Key: "vcs.modified", Value: "true"}},
	}, true)
	var out bytes.Buffer
	b.write(&out)
	assert.Equal(t, "chatwire v0.0.0-20261122063601-4eb36803da3c+dirty\n"+
		"  module    github.com/chatwire/chatwire v0.0.0-20261122063601-4eb36803da3c+dirty\n"+
		"  commit    4eb36803da3c1962162c4ff51523854393c99d1e\n"+
		"  time      2026-11-22T06:36:01Z\n"+
		"  modified  true\n"+
		"  go        go1.26.8 "+runtime.GOOS+"/"+runtime.GOARCH+"\n", out.String())
}

func TestVersionCommand(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"-version"}, {"--version"}} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
		assert.Equal(t, exitOK, code, "chatwire %v: stderr %s", args, stderr.String())
		assert.True(t, strings.HasPrefix(stdout.String(), "chatwire "+version+"\n"), "chatwire %v prints the version first, got:\n%s", args, stdout.String())
		assert.Contains(t, stdout.String(), "  go        "+runtime.Version(), "chatwire %v names the Go toolchain", args)
	}
	var stdout, stderr bytes.Buffer
	assert.Equal(t, exitUsage, run(context.Background(), []string{"version", "extra"}, strings.NewReader(""), &stdout, &stderr))
	assert.Contains(t, stderr.String(), `unexpected argument "extra"`)
}

// TestReportsNameTheBuild runs a check against the built-in mock and wants
// the build's version in the JSON, JUnit and Markdown reports.
func TestReportsNameTheBuild(t *testing.T) {
	clearKeys(t)
	dir := t.TempDir()
	js, junit, md := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.xml"), filepath.Join(dir, "r.md")
	code, _, stderr := runCheckTest(t, context.Background(), "-run", "chat/5.3/missing-key-401", "-json", js, "-junit", junit, "-md", md)
	require.Equal(t, exitOK, code, "check against the mock; stderr:\n%s", stderr)

	var rep struct {
		Tool, Version string
	}
	data, err := os.ReadFile(js)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &rep), "JSON report")
	assert.Equal(t, version, rep.Version, "JSON report version")

	data, err = os.ReadFile(junit)
	require.NoError(t, err)
	assert.Contains(t, string(data), `<property name="tool" value="chatwire `+version+`"/>`, "JUnit property")

	data, err = os.ReadFile(md)
	require.NoError(t, err)
	assert.Contains(t, string(data), "chatwire "+version, "Markdown report")
}

// TestVersionNamesTheCPUPaths: chatwire version says which fast paths run.
func TestVersionNamesTheCPUPaths(t *testing.T) {
	var out bytes.Buffer
	writeCPU(&out)
	assert.Contains(t, out.String(), "  cpu       "+cpu.Active().String()+" paths", "the cpu line of chatwire version")
}

// TestBuildJSON: `chatwire version -json` writes every fact of the build
// under stable snake_case fields, each always present ("" or null where
// the build does not know it).
func TestBuildJSON(t *testing.T) {
	const rev = "4eb36803da3c1962162c4ff51523854393c99d1e"
	stamped := buildOf(&debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/chatwire/chatwire", Version: "v0.0.0-20261122063601-4eb36803da3c+dirty"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev},
			{Key: "vcs.time", Value: "2026-11-22T06:36:01Z"}, {Key: "vcs.modified", Value: "true"}},
	}, true)
	unstamped := buildOf(&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/chatwire/chatwire", Version: "(devel)"}}, true)
	unstamped.Linked = "v0.3.0"
	for _, tt := range []struct {
		name string
		b    build
		want map[string]any
	}{
		{"a clone with VCS stamping", stamped, map[string]any{
			"version": "v0.0.0-20261122063601-4eb36803da3c+dirty", "module": "github.com/chatwire/chatwire",
			"module_version": "v0.0.0-20261122063601-4eb36803da3c+dirty", "linked_version": "",
			"commit": rev, "commit_time": "2026-11-22T06:36:01Z", "dirty": true, "go_version": "go1.26.8",
		}},
		{"a build without VCS, its version linked", unstamped, map[string]any{
			"version": "v0.3.0", "module": "github.com/chatwire/chatwire", "module_version": "(devel)", "linked_version": "v0.3.0",
			"commit": "", "commit_time": "", "dirty": nil, "go_version": "go1.26.8",
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			require.NoError(t, tt.b.writeJSON(&out))
			var got map[string]any
			require.NoError(t, json.Unmarshal(out.Bytes(), &got), "JSON: %s", out.String())
			for k, v := range tt.want {
				assert.Equal(t, v, got[k], "field %s of %s", k, out.String())
			}
			assert.Equal(t, runtime.GOOS, got["os"])
			assert.Equal(t, runtime.GOARCH, got["arch"])
			assert.Equal(t, cpu.Active().String(), got["cpu_paths"])
			assert.Equal(t, cpu.Detected().String(), got["cpu_detected"])
			keys := make([]string, 0, len(got))
			for k := range got {
				keys = append(keys, k)
			}
			assert.ElementsMatch(t, []string{"version", "module", "module_version", "linked_version", "commit", "commit_time",
				"dirty", "go_version", "os", "arch", "cpu_paths", "cpu_detected", "cpu_env", "purego"}, keys,
				"the fields, each always present")
		})
	}
}

// TestVersionJSONCommand: chatwire version -json prints the running
// build as one JSON object on standard output.
func TestVersionJSONCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"version", "-json"}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, exitOK, code, "stderr: %s", stderr.String())
	var got struct {
		Version   string `json:"version"`
		GoVersion string `json:"go_version"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &got), "one JSON object: %s", stdout.String())
	assert.Equal(t, version, got.Version)
	assert.Equal(t, runtime.Version(), got.GoVersion)
}

// TestInstallFromClone: the README's install, go install ./cmd/chatwire
// from a clone, builds a chatwire that runs.
func TestInstallFromClone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := t.TempDir()
	install := exec.Command("go", "install", "./cmd/chatwire")
	install.Dir = "../.."
	install.Env = append(os.Environ(), "GOBIN="+bin)
	out, err := install.CombinedOutput()
	require.NoError(t, err, "go install ./cmd/chatwire: %s", out)
	out, err = exec.Command(filepath.Join(bin, "chatwire"), "version", "-json").Output()
	require.NoError(t, err, "the installed chatwire version -json")
	var got struct{ Module string }
	require.NoError(t, json.Unmarshal(out, &got), "%s", out)
	assert.Equal(t, "github.com/chatwire/chatwire", got.Module, "the installed binary knows its module")
}
