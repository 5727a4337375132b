package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/chatwire/chatwire/internal/cpu"
)

// version names the build in reports, transcripts and the User-Agent: the
// module version when the binary was built from a version (go install
// …@v1.2.3) or from a clone with VCS stamping (a pseudo-version such as
// v0.0.0-20261123175850-2b92b267125a, +dirty when the tree had changes);
// otherwise devel, with the commit when it is known. It is set once, from
// the binary's build info (or linkedVersion), and never changed.
var version = buildOf(debug.ReadBuildInfo()).short()

// linkedVersion names a build whose build info cannot: one made from a
// copy without .git, as the GitHub Action (from the action's ref) and the
// Dockerfile (from its VERSION argument) make, with
// go build -ldflags "-X main.linkedVersion=v1.2.0". It is set only by the
// linker.
var linkedVersion string

// build is what a binary knows about how it was built.
type build struct {
	Module    string // module path, "" when unknown
	Version   string // module version: v1.2.3, a pseudo-version, or "(devel)"
	Revision  string // VCS commit, "" when not stamped
	Time      string // commit time, RFC 3339
	Modified  bool   // the tree had uncommitted changes
	GoVersion string // the toolchain, such as go1.26.8
	Linked    string // linkedVersion
}

// buildOf reads a binary's build info; ok false (a binary built without
// module support) leaves only the Go version known.
func buildOf(info *debug.BuildInfo, ok bool) build {
	b := build{GoVersion: runtime.Version(), Linked: linkedVersion}
	if !ok || info == nil {
		return b
	}
	b.Module, b.Version = info.Main.Path, info.Main.Version
	if info.GoVersion != "" {
		b.GoVersion = info.GoVersion
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// released reports whether the module version names the build (a version
// or a pseudo-version), rather than "(devel)" or nothing.
func (b build) released() bool { return b.Version != "" && b.Version != "(devel)" }

// short returns the build's name in one token: the module version when it
// names the build, else the linked version, else "devel", "devel-<commit>"
// or "devel-<commit>+dirty".
func (b build) short() string {
	switch {
	case b.released():
		return b.Version
	case b.Linked != "":
		return b.Linked
	}
	s := "devel"
	if b.Revision != "" {
		s += "-" + b.Revision[:min(12, len(b.Revision))]
		if b.Modified {
			s += "+dirty"
		}
	}
	return s
}

// write writes what `chatwire version` prints: the name, then one line for
// each fact the build info holds.
func (b build) write(w io.Writer) {
	fmt.Fprintf(w, "chatwire %s\n", b.short())
	if b.Module != "" {
		fmt.Fprintf(w, "  module    %s %s\n", b.Module, b.Version)
	}
	if b.Linked != "" {
		fmt.Fprintf(w, "  linked    %s (set at link time: -ldflags -X main.linkedVersion)\n", b.Linked)
	}
	if b.Revision != "" {
		fmt.Fprintf(w, "  commit    %s\n", b.Revision)
		if b.Time != "" {
			fmt.Fprintf(w, "  time      %s\n", b.Time)
		}
		fmt.Fprintf(w, "  modified  %t\n", b.Modified)
	} else {
		fmt.Fprintln(w, "  commit    unknown (built without VCS stamping, e.g. by go run, go test or -buildvcs=false)")
	}
	fmt.Fprintf(w, "  go        %s %s/%s\n", b.GoVersion, runtime.GOOS, runtime.GOARCH)
}

// buildJSON is what `chatwire version -json` prints: the facts of
// `chatwire version` under stable snake_case fields, each always present,
// "" (dirty: null) where the build does not know it.
type buildJSON struct {
	Version       string `json:"version"`        // the build's name, as reports and transcripts give it
	Module        string `json:"module"`         // the module path
	ModuleVersion string `json:"module_version"` // a version, a pseudo-version or "(devel)"
	LinkedVersion string `json:"linked_version"` // set at link time (-X main.linkedVersion)
	Commit        string `json:"commit"`         // the VCS commit
	CommitTime    string `json:"commit_time"`    // its time, RFC 3339
	Dirty         *bool  `json:"dirty"`          // the tree had uncommitted changes; null without a commit
	GoVersion     string `json:"go_version"`     // the toolchain, such as go1.26.8
	OS            string `json:"os"`
	Arch          string `json:"arch"`
	CPUPaths      string `json:"cpu_paths"`    // the decoders' fast paths this process runs: portable, avx2 or avx512
	CPUDetected   string `json:"cpu_detected"` // the paths the CPU could run
	CPUEnv        string `json:"cpu_env"`      // CHATWIRE_CPU as set, "" when not
	Purego        bool   `json:"purego"`       // built with the purego tag: the portable paths only
}

// writeJSON writes what `chatwire version -json` prints.
func (b build) writeJSON(w io.Writer) error {
	j := buildJSON{
		Version: b.short(), Module: b.Module, ModuleVersion: b.Version, LinkedVersion: b.Linked,
		Commit: b.Revision, CommitTime: b.Time, GoVersion: b.GoVersion, OS: runtime.GOOS, Arch: runtime.GOARCH,
		CPUPaths: cpu.Active().String(), CPUDetected: cpu.Detected().String(), Purego: cpu.Purego,
	}
	if b.Revision != "" {
		j.Dirty = &b.Modified
	}
	j.CPUEnv, _ = cpu.Env()
	out, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(out, '\n'))
	return err
}

// writeCPU writes the line of `chatwire version` that says which fast paths
// of the decoders run (internal/cpu): the level, what the CPU has, and
// CHATWIRE_CPU where it is set.
func writeCPU(w io.Writer) {
	line := fmt.Sprintf("  cpu       %s paths", cpu.Active())
	env, err := cpu.Env()
	switch {
	case err != nil:
		line += fmt.Sprintf(" (%v: ignored)", err)
	case cpu.Purego:
		line += fmt.Sprintf(" (built with the purego tag; the CPU has %s)", cpu.Detected())
	case env != "":
		line += fmt.Sprintf(" (%s=%s; the CPU has %s)", cpu.EnvVar, env, cpu.Detected())
	}
	fmt.Fprintln(w, line)
}

func runVersion(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the build as one JSON object with stable snake_case fields (version, module, module_version,\nlinked_version, commit, commit_time, dirty, go_version, os, arch, cpu_paths, cpu_detected, cpu_env, purego)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: chatwire version [-json]\n\n"+
			"Print the build: the module version, the commit, its time and whether the\n"+
			"tree was modified, the Go toolchain, and the decoders' fast paths this CPU\n"+
			"runs (portable, avx2 or avx512; CHATWIRE_CPU=portable or avx2 lowers them).\n"+
			"Reports and transcripts name the build by the first line's version.\n"+
			"'chatwire -version' prints the same.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "chatwire version: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	b := buildOf(debug.ReadBuildInfo())
	if *asJSON {
		if err := b.writeJSON(stdout); err != nil {
			fmt.Fprintf(stderr, "chatwire version: %v\n", err)
			return exitFail
		}
		return exitOK
	}
	b.write(stdout)
	writeCPU(stdout)
	return exitOK
}
