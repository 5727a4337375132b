package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client"
	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/internal/corpus"
	"github.com/chatwire/chatwire/internal/protocol"
)

// completionScript writes `chatwire completion shell` to a file and
// returns its path and text.
func completionScript(t *testing.T, shell string) (string, string) {
	t.Helper()
	code, stdout, stderr := runCLI(t, "", "completion", shell)
	require.Equal(t, exitOK, code, "chatwire completion %s; stderr: %s", shell, stderr)
	path := filepath.Join(t.TempDir(), "chatwire."+shell)
	require.NoError(t, os.WriteFile(path, []byte(stdout), 0o600))
	return path, stdout
}

// flagNames returns "-name" for every flag of command c.
func flagNames(t *testing.T, c command) []string {
	var names []string
	flagSet(t.Context(), c).VisitAll(func(f *flag.Flag) { names = append(names, "-"+f.Name) })
	return names
}

// completionDir returns a directory holding two files and a directory,
// for the completions of file and directory names.
func completionDir(t *testing.T) string {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "report.json"), nil, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "stream.txt"), nil, 0o600))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "out"), 0o700))
	return dir
}

// completionCases are the command lines each shell's test completes (the
// last word the one under the cursor) and what must be offered, from the
// commands' own flags and tables.
func completionCases(t *testing.T) []struct {
	name  string
	words []string
	want  []string
} {
	var faults, variants []string
	for _, f := range append(mock.Faults(), mock.UIFaults()...) {
		if !slices.Contains(faults, f.Name) {
			faults = append(faults, f.Name)
		}
	}
	for _, v := range append(mock.Variants(), mock.UIVariants()...) {
		if !slices.Contains(variants, v.Name) {
			variants = append(variants, v.Name)
		}
	}
	scenarios, err := corpus.Scenarios()
	require.NoError(t, err)
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	cases := []struct {
		name  string
		words []string
		want  []string
	}{
		{"commands", []string{""}, append([]string{"help"}, names...)},
		{"help", []string{"help", ""}, names},
		{"serve -fault", []string{"serve", "-fault", ""}, append(faults, "list")},
		{"serve -variant", []string{"serve", "-variant", ""}, append(variants, "list")},
		{"serve -protocol", []string{"serve", "-protocol", ""}, []string{"v4", "ui"}},
		{"check -protocol", []string{"check", "-protocol", ""}, []string{"v4", "ui", "auto"}},
		{"bridge -to", []string{"bridge", "-to", ""}, []string{"v4", "ui", "auto"}},
		{"replay -corpus", []string{"replay", "-corpus", ""}, append(scenarios, "list")},
		{"bench -format", []string{"bench", "-format", ""}, benchFormats},
		{"a file flag", []string{"check", "-json", ""}, []string{"out", "report.json", "stream.txt"}},
		{"a directory flag", []string{"record", "-out", ""}, []string{"out"}},
		{"file arguments", []string{"decode", ""}, []string{"out", "report.json", "stream.txt"}},
		{"a value with no set", []string{"check", "-rate", ""}, nil},
		{"shells", []string{"completion", ""}, []string{"bash", "zsh", "fish"}},
	}
	for _, c := range commands() {
		cases = append(cases, struct {
			name  string
			words []string
			want  []string
		}{c.name + " flags", []string{c.name, "-"}, flagNames(t, c)})
	}
	return cases
}

// TestCompletionBash: the bash script parses (bash -n), and completing
// each command line in bash offers what the commands take.
func TestCompletionBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	path, _ := completionScript(t, "bash")
	out, err := exec.Command(bash, "-n", path).CombinedOutput()
	require.NoError(t, err, "bash -n: %s", out)
	dir := completionDir(t)
	for _, tt := range completionCases(t) {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(bash, "-c", `source "$1"; shift
COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_chatwire
printf '%s\n' "${COMPREPLY[@]}"`, "bash", path, "chatwire")
			cmd.Args = append(cmd.Args, tt.words...)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
			assert.ElementsMatch(t, tt.want, lines(string(out)), "bash completes chatwire %s", strings.Join(tt.words, " "))
		})
	}
}

// TestCompletionFish: the fish script parses (fish -n), and fish's own
// completion of each command line offers what the commands take. Without
// fish, the script's text holds a line for every flag.
func TestCompletionFish(t *testing.T) {
	path, text := completionScript(t, "fish")
	for _, c := range commands() {
		for _, f := range flagNames(t, c) {
			assert.Contains(t, text, "'__fish_seen_subcommand_from "+c.name+"' -o "+f[1:]+" ", "the fish script completes chatwire %s %s", c.name, f)
		}
	}
	fish, err := exec.LookPath("fish")
	if err != nil {
		t.Skip("no fish: the script's text alone is tested")
	}
	out, err := exec.Command(fish, "-n", path).CombinedOutput()
	require.NoError(t, err, "fish -n: %s", out)
	dir := completionDir(t)
	for _, tt := range completionCases(t) {
		t.Run(tt.name, func(t *testing.T) {
			line := "chatwire " + strings.Join(tt.words, " ")
			cmd := exec.Command(fish, "--no-config", "-c", `source $argv[1]; complete -C $argv[2]`, path, line)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
			var got []string
			for _, l := range lines(string(out)) {
				got = append(got, strings.TrimSuffix(strings.SplitN(l, "\t", 2)[0], "/"))
			}
			assert.ElementsMatch(t, tt.want, got, "fish completes %q", line)
		})
	}
}

// TestCompletionZsh: the zsh script names every flag of every command in
// its command's _arguments; where zsh is installed, the script parses
// (zsh -n) and loads under compinit, defining _chatwire.
func TestCompletionZsh(t *testing.T) {
	path, text := completionScript(t, "zsh")
	assert.True(t, strings.HasPrefix(text, "#compdef chatwire\n"), "zsh finds the script in $fpath by its first line")
	for _, c := range commands() {
		start := strings.Index(text, "\n\t"+c.name+")\n\t\t_arguments")
		require.GreaterOrEqual(t, start, 0, "the zsh script has a case for chatwire %s", c.name)
		end := strings.Index(text[start:], "\n\t\t;;")
		block := text[start : start+end]
		for _, f := range flagNames(t, c) {
			assert.Contains(t, block, "'"+f+"[", "the zsh script completes chatwire %s %s", c.name, f)
		}
	}
	assert.Contains(t, text, "'-fault[", "serve's faults")
	assert.Contains(t, text, ":_files -/'", "a directory flag")
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		t.Skip("no zsh: the script's text alone is tested")
	}
	out, err := exec.Command(zsh, "-n", path).CombinedOutput()
	require.NoError(t, err, "zsh -n: %s", out)
	out, err = exec.Command(zsh, "-f", "-c", `autoload -Uz compinit && compinit -u -D && source "$1" && (( $+functions[_chatwire] )) && [[ $_comps[chatwire] == _chatwire ]]`, "zsh", path).CombinedOutput()
	require.NoError(t, err, "zsh loads the script under compinit: %s", out)
}

// TestCompletionValues: every value the scripts offer is one the command
// accepts.
func TestCompletionValues(t *testing.T) {
	for _, c := range completionCommands(t.Context()) {
		for _, f := range c.flags {
			for _, v := range f.values {
				switch {
				case f.name == "protocol" || f.name == "to":
					_, err := protocol.Parse(v)
					assert.NoError(t, err, "chatwire %s -%s %s", c.name, f.name, v)
				case v == "list":
				case f.name == "fault":
					_, err := mock.LookupFault(v)
					assert.NoError(t, err, "chatwire serve -fault %s", v)
				case f.name == "variant":
					_, err := mock.LookupVariant(v)
					assert.NoError(t, err, "chatwire serve -variant %s", v)
				case f.name == "corpus":
					scenarios, err := corpus.Scenarios()
					require.NoError(t, err)
					assert.Contains(t, scenarios, v)
				case f.name == "format":
					assert.True(t, slices.Contains(benchFormats, v))
				case f.name == "resume":
					_, err := client.ParseResumeContract(v)
					assert.NoError(t, err, "chatwire chat -resume %s", v)
				default:
					t.Errorf("chatwire %s -%s: no test of its value %s", c.name, f.name, v)
				}
			}
		}
	}
	code, _, stderr := runCLI(t, "", "serve", "-protocol", "auto")
	assert.Equal(t, exitUsage, code, "serve refuses auto, which its completion does not offer: %s", stderr)
}

// TestCompletionUsage: completion takes one shell's name.
func TestCompletionUsage(t *testing.T) {
	for _, args := range [][]string{{"completion"}, {"completion", "tcsh"}, {"completion", "bash", "zsh"}} {
		code, stdout, stderr := runCLI(t, "", args...)
		assert.Equal(t, exitUsage, code, "chatwire %v", args)
		assert.Contains(t, stderr, "name one shell: bash, zsh or fish", "chatwire %v", args)
		assert.Empty(t, stdout)
	}
	code, _, stderr := runCLI(t, "", "completion", "-h")
	assert.Equal(t, exitOK, code)
	for _, s := range shells {
		assert.Regexp(t, `\t`+s+` +chatwire completion `+s+` > `, stderr, "the help says how to install the %s script", s)
	}
}

// lines returns the non-empty lines of s.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}
