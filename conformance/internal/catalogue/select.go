package catalogue

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/chatwire/chatwire/conformance/internal/check"
)

// Select returns the checks that -run and -skip pick, in their order: those
// matching some run pattern (every check when run is empty) and no skip
// pattern (see match). Each element of run and skip may hold several
// patterns separated by commas. It returns an error for a malformed
// pattern, for a run pattern that matches no check (a typo would otherwise
// drop checks silently), and when no check is left.
func Select(checks []check.Check, run, skip []string) ([]check.Check, error) {
	runPats, skipPats := splitPatterns(run), splitPatterns(skip)
	for _, p := range append(runPats[:len(runPats):len(runPats)], skipPats...) {
		if err := checkPattern(p, checks); err != nil {
			return nil, err
		}
	}
	for _, p := range runPats {
		if !matchesAny(p, checks) {
			return nil, fmt.Errorf("-run %q matches no check (chatwire check -list shows them)", p)
		}
	}
	var out []check.Check
	for _, c := range checks {
		if len(runPats) > 0 && !matchAny(runPats, c.ID) || matchAny(skipPats, c.ID) {
			continue
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, errors.New("no check is left to run after -run and -skip")
	}
	return out, nil
}

// UnmatchedPatterns returns the patterns among skip that match no check,
// for a warning: a -skip that skips nothing may be a typo.
func UnmatchedPatterns(checks []check.Check, skip []string) []string {
	var out []string
	for _, p := range splitPatterns(skip) {
		if !matchesAny(p, checks) {
			out = append(out, p)
		}
	}
	return out
}

// splitPatterns splits comma-separated patterns, dropping empty ones.
func splitPatterns(values []string) []string {
	var out []string
	for _, v := range values {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// checkPattern returns an error when p is neither a literal prefix of some
// check ID nor a well-formed glob.
func checkPattern(p string, checks []check.Check) error {
	for _, c := range checks {
		if strings.HasPrefix(c.ID, p) {
			return nil
		}
	}
	if _, err := path.Match(p, ""); err != nil {
		return fmt.Errorf("pattern %q: %w (write \\[ for a literal '[')", p, err)
	}
	return nil
}

func matchesAny(p string, checks []check.Check) bool {
	for _, c := range checks {
		if match(p, c.ID) {
			return true
		}
	}
	return false
}

func matchAny(pats []string, id string) bool {
	for _, p := range pats {
		if match(p, id) {
			return true
		}
	}
	return false
}

// match reports whether pattern p matches check ID id: when p is a prefix
// of the ID ("chat/5"), or when it matches the ID, or the ID cut after one
// of its '/', as a path.Match glob ("chat/*/missing-*", and "chat/4.*",
// which matches chat/4.5/… through its part "chat/4.5").
func match(p, id string) bool {
	if strings.HasPrefix(id, p) {
		return true
	}
	if !strings.ContainsAny(p, `*?[\`) {
		return false
	}
	for i := 0; i <= len(id); i++ {
		if i < len(id) && id[i] != '/' {
			continue
		}
		if ok, _ := path.Match(p, id[:i]); ok {
			return true
		}
	}
	return false
}
