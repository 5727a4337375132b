package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/chatwire/chatwire/client"
	"github.com/chatwire/chatwire/conformance"
	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/internal/corpus"
	"github.com/chatwire/chatwire/internal/protocol"
)

// shells are the shells `chatwire completion` writes a script for.
var shells = []string{"bash", "zsh", "fish"}

const completionUsage = `usage: chatwire completion bash|zsh|fish

Print the shell completion script of chatwire for bash, zsh or fish: the
commands, each command's flags, the values of the flags that take one of a
fixed set (-protocol, -to, serve's -fault and -variant, replay's -corpus,
bench's -format, chat's -resume), file names where a flag or argument takes
a file. The script is generated from the commands' own flags, so it is as
current as the binary that printed it.

Install it once (a new shell then completes chatwire):

	bash  chatwire completion bash > ~/.local/share/bash-completion/completions/chatwire
	      (the bash-completion package loads it; without that package, add
	      'source <(chatwire completion bash)' to ~/.bashrc)
	zsh   chatwire completion zsh > "${fpath[1]}/_chatwire"
	      (any directory of $fpath; or add 'source <(chatwire completion zsh)'
	      to ~/.zshrc after compinit)
	fish  chatwire completion fish > ~/.config/fish/completions/chatwire.fish
`

func runCompletion(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("completion", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), completionUsage) }
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 || !slices.Contains(shells, fs.Arg(0)) {
		fmt.Fprintf(stderr, "chatwire completion: name one shell: bash, zsh or fish (got %q)\n", fs.Args())
		return exitUsage
	}
	cmds := completionCommands(ctx)
	switch fs.Arg(0) {
	case "bash":
		writeBash(stdout, cmds)
	case "zsh":
		writeZsh(stdout, cmds)
	case "fish":
		writeFish(stdout, cmds)
	}
	return exitOK
}

// completionCommand is a command as a completion script offers it.
type completionCommand struct {
	name    string
	summary string
	flags   []completionFlag
	args    argKind // what its arguments are
}

// argKind is what a command's arguments, or a flag's value, are.
type argKind uint8

const (
	argNone    argKind = iota // nothing a shell can offer
	argFile                   // a file
	argDir                    // a directory
	argValues                 // one of completionFlag.values
	argCommand                // a command's name (help)
	argShell                  // a shell's name (completion)
)

// completionFlag is a flag as a completion script offers it.
type completionFlag struct {
	name    string   // without its dash
	usage   string   // the first line of its usage, for the shells that show one
	boolean bool     // takes no value
	value   argKind  // what its value is
	values  []string // the values, for argValues
}

// completionCommands reads every command's flags from its FlagSet.
func completionCommands(ctx context.Context) []completionCommand {
	var out []completionCommand
	for _, c := range commands() {
		cc := completionCommand{name: c.name, summary: c.summary, args: c.args}
		flagSet(ctx, c).VisitAll(func(f *flag.Flag) {
			cc.flags = append(cc.flags, newCompletionFlag(c.name, f))
		})
		out = append(out, cc)
	}
	return out
}

// newCompletionFlag describes flag f of command cmd: a fixed set of
// values where flagValues knows one, else a file or directory where the
// name of its value (the usage's `FILE`, `DIR`, `OLD.json`) says so.
func newCompletionFlag(cmd string, f *flag.Flag) completionFlag {
	name, usage := flag.UnquoteUsage(f)
	usage, _, _ = strings.Cut(usage, "\n")
	cf := completionFlag{name: f.Name, usage: usage}
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		cf.boolean = true
		return cf
	}
	switch vs := flagValues(cmd, f.Name); {
	case vs != nil:
		cf.value, cf.values = argValues, vs
	case name == "DIR":
		cf.value = argDir
	case name == "FILE" || strings.Contains(name, "."):
		cf.value = argFile
	}
	return cf
}

// flagValues returns the values flag name of command cmd takes where they
// are a fixed set, from where the command reads them; nil otherwise.
func flagValues(cmd, name string) []string {
	switch {
	case name == "protocol" && cmd == "serve":
		return []string{protocol.V4.String(), protocol.UI.String()}
	case name == "protocol", cmd == "bridge" && name == "to":
		return []string{protocol.V4.String(), protocol.UI.String(), "auto"}
	case cmd == "serve" && name == "fault":
		var vs []string
		for _, f := range append(mock.Faults(), mock.UIFaults()...) {
			vs = appendNew(vs, f.Name)
		}
		return append(vs, "list")
	case cmd == "serve" && name == "variant":
		var vs []string
		for _, v := range append(mock.Variants(), mock.UIVariants()...) {
			vs = appendNew(vs, v.Name)
		}
		return append(vs, "list")
	case cmd == "replay" && name == "corpus":
		vs, err := corpus.Scenarios()
		if err != nil {
			return nil
		}
		return append(vs, "list")
	case cmd == "bench" && name == "format":
		return benchFormats
	case (cmd == "check" || cmd == "record") && name == "resume":
		return conformance.ResumeContracts()
	case (cmd == "chat" || cmd == "bench") && name == "resume":
		var vs []string
		for _, c := range client.ResumeContracts() {
			vs = append(vs, string(c))
		}
		return vs
	}
	return nil
}

// appendNew appends v to vs unless vs holds it: a fault or variant of
// both protocols is named once.
func appendNew(vs []string, v string) []string {
	if slices.Contains(vs, v) {
		return vs
	}
	return append(vs, v)
}

// commandNames returns the names of the commands, help and completion
// included.
func commandNames(cmds []completionCommand) []string {
	names := []string{"help"}
	for _, c := range cmds {
		names = append(names, c.name)
	}
	return names
}

// writeBash writes the bash script: a function that completes the word
// under the cursor from the command, the flag before it, or the flags.
func writeBash(w io.Writer, cmds []completionCommand) {
	fmt.Fprint(w, `# bash completion for chatwire, written by 'chatwire completion bash'.
# Install: chatwire completion bash > ~/.local/share/bash-completion/completions/chatwire
# or add 'source <(chatwire completion bash)' to ~/.bashrc.

_chatwire() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	COMPREPLY=()
	if ((COMP_CWORD == 1)); then
		COMPREPLY=($(compgen -W '`+strings.Join(commandNames(cmds), " ")+`' -- "$cur"))
		return
	fi
	local cmd=${COMP_WORDS[1]}
	case $cmd in
	help)
		((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W '`+strings.Join(commandNames(cmds)[1:], " ")+`' -- "$cur"))
		return
		;;
	esac
	case "$cmd $prev" in
`)
	// One case a reply, its patterns the flags (-name and --name, as Go
	// reads both) that take such a value.
	var replies []string
	patterns := map[string][]string{}
	for _, c := range cmds {
		for _, f := range c.flags {
			if f.boolean {
				continue
			}
			r := bashReply(f.value, f.values)
			if patterns[r] == nil {
				replies = append(replies, r)
			}
			patterns[r] = append(patterns[r], fmt.Sprintf(`"%s -%s" | "%s --%s"`, c.name, f.name, c.name, f.name))
		}
	}
	for _, r := range replies {
		fmt.Fprintf(w, "\t%s)\n\t\t%s\n\t\treturn\n\t\t;;\n", strings.Join(patterns[r], " | \\\n\t\t"), r)
	}
	fmt.Fprint(w, "\tesac\n\tif [[ $cur == -* ]]; then\n\t\tcase $cmd in\n")
	for _, c := range cmds {
		var names []string
		for _, f := range c.flags {
			names = append(names, "-"+f.name)
		}
		fmt.Fprintf(w, "\t\t%s) COMPREPLY=($(compgen -W '%s' -- \"$cur\")) ;;\n", c.name, strings.Join(names, " "))
	}
	fmt.Fprint(w, "\t\tesac\n\t\treturn\n\tfi\n\tcase $cmd in\n")
	for _, c := range cmds {
		if c.args != argNone {
			fmt.Fprintf(w, "\t%s) %s ;;\n", c.name, bashReply(c.args, nil))
		}
	}
	fmt.Fprint(w, "\tesac\n}\n\ncomplete -F _chatwire chatwire\n")
}

// bashReply returns the bash statement that completes a value of kind k.
func bashReply(k argKind, values []string) string {
	switch k {
	case argFile:
		return `compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur"))`
	case argDir:
		return `compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur"))`
	case argValues:
		return `COMPREPLY=($(compgen -W '` + strings.Join(values, " ") + `' -- "$cur"))`
	case argShell:
		return `COMPREPLY=($(compgen -W '` + strings.Join(shells, " ") + `' -- "$cur"))`
	}
	return ":"
}

// writeZsh writes the zsh script: _arguments with every flag of the
// command named by the first word, described by its usage.
func writeZsh(w io.Writer, cmds []completionCommand) {
	fmt.Fprint(w, `#compdef chatwire
# zsh completion for chatwire, written by 'chatwire completion zsh'.
# Install: chatwire completion zsh > "${fpath[1]}/_chatwire"
# or add 'source <(chatwire completion zsh)' to ~/.zshrc after compinit.

_chatwire() {
	local -a commands
	commands=(
`)
	fmt.Fprintf(w, "\t\t%s\n", zshQuote("help:print the help of chatwire, or of a command"))
	for _, c := range cmds {
		fmt.Fprintf(w, "\t\t%s\n", zshQuote(c.name+":"+c.summary))
	}
	fmt.Fprint(w, `	)
	if ((CURRENT == 2)); then
		_describe -t commands 'chatwire command' commands
		return
	fi
	local cmd=$words[2]
	shift words
	((CURRENT--))
	case $cmd in
	help)
		_describe -t commands 'chatwire command' commands
		;;
`)
	for _, c := range cmds {
		fmt.Fprintf(w, "\t%s)\n\t\t_arguments", c.name)
		for _, f := range c.flags {
			spec := "-" + f.name + "[" + zshBracket(f.usage) + "]"
			if !f.boolean {
				spec += ":" + zshAction(f.name, f.value, f.values)
			}
			fmt.Fprintf(w, " \\\n\t\t\t%s", zshQuote(spec))
		}
		if c.args != argNone {
			fmt.Fprintf(w, " \\\n\t\t\t%s", zshQuote("*:"+zshAction("file", c.args, nil)))
		}
		fmt.Fprint(w, "\n\t\t;;\n")
	}
	fmt.Fprint(w, `	esac
}

if [[ $funcstack[1] == _chatwire ]]; then
	_chatwire "$@"
else
	compdef _chatwire chatwire
fi
`)
}

// zshAction returns the message and action of an _arguments spec.
func zshAction(name string, k argKind, values []string) string {
	switch k {
	case argFile:
		return name + ":_files"
	case argDir:
		return name + ":_files -/"
	case argValues:
		return name + ":(" + strings.Join(values, " ") + ")"
	case argShell:
		return "shell:(" + strings.Join(shells, " ") + ")"
	}
	return name + ": "
}

// zshBracket escapes a description for the brackets of an _arguments
// spec.
func zshBracket(s string) string {
	return strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`).Replace(s)
}

// zshQuote quotes s as one zsh word.
func zshQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// writeFish writes the fish script: one complete line per command, flag
// and set of values; Go's single-dash flags are fish's old-style options.
func writeFish(w io.Writer, cmds []completionCommand) {
	fmt.Fprint(w, `# fish completion for chatwire, written by 'chatwire completion fish'.
# Install: chatwire completion fish > ~/.config/fish/completions/chatwire.fish

complete -c chatwire -f
`)
	names := commandNames(cmds)
	fmt.Fprintf(w, "complete -c chatwire -n __fish_use_subcommand -a help -d %s\n", fishQuote("print the help of chatwire, or of a command"))
	for _, c := range cmds {
		fmt.Fprintf(w, "complete -c chatwire -n __fish_use_subcommand -a %s -d %s\n", c.name, fishQuote(c.summary))
	}
	fmt.Fprintf(w, "complete -c chatwire -n '__fish_seen_subcommand_from help' -x -a %s\n", fishQuote(strings.Join(names[1:], " ")))
	for _, c := range cmds {
		when := fishQuote("__fish_seen_subcommand_from " + c.name)
		for _, f := range c.flags {
			fmt.Fprintf(w, "complete -c chatwire -n %s -o %s%s -d %s\n", when, f.name, fishValue(f.boolean, f.value, f.values), fishQuote(f.usage))
		}
		switch c.args {
		case argFile:
			fmt.Fprintf(w, "complete -c chatwire -n %s -F\n", when)
		case argShell:
			fmt.Fprintf(w, "complete -c chatwire -n %s -x -a %s\n", when, fishQuote(strings.Join(shells, " ")))
		}
	}
}

// fishValue returns the options of a complete line that say what the
// flag's value is.
func fishValue(boolean bool, k argKind, values []string) string {
	switch {
	case boolean:
		return ""
	case k == argFile:
		return " -r -F"
	case k == argDir:
		return " -x -a '(__fish_complete_directories)'"
	case k == argValues:
		return " -x -a " + fishQuote(strings.Join(values, " "))
	}
	return " -x"
}

// fishQuote quotes s as one fish word.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}
