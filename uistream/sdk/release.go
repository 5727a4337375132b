package sdk

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// A Release is one release of the npm package ai, the AI SDK's client of
// the UI message stream: 5.0.0 to 5.0.277, 6.0.0 to 6.0.326 and 7.0.0 to
// 7.0.173 as the tables know them. The zero Release is not a release.
type Release struct{ Major, Minor, Patch int }

// A line is one major line of releases: MAJOR.0.0 to MAJOR.0.newest, less
// the patch numbers npm never published (the release tooling skipped them;
// `npm view ai versions` lists the rest).
type line struct {
	major, newest int
	unpublished   []int
}

// lines are the release lines the tables cover, oldest first, as npm listed
// them on 2026-11-25 (newest: 5.0.277 of 2026-10-15, 6.0.326 of 2026-11-09,
// 7.0.173 of 2026-11-13).
var lines = []line{
	{5, 277, []int{58, 67, 145, 147, 174, 177, 189, 191, 231, 246, 247}},
	{6, 326, []int{113, 163, 179, 181, 186, 245, 249, 251, 254, 267, 269}},
	{7, 173, []int{24, 53, 72, 75, 80, 81, 115, 121, 125, 167}},
}

func lineOf(major int) *line {
	for i := range lines {
		if lines[i].major == major {
			return &lines[i]
		}
	}
	return nil
}

// ErrUnknownRelease is wrapped by the errors of [Parse] for a version the
// tables do not cover or npm never published.
var ErrUnknownRelease = errors.New("unknown release")

// Parse reads a release: an exact version such as "6.0.0", or a major ("6")
// or major.minor ("6.0") for the newest release of that line. A leading
// "ai@" or "v" is allowed. Versions outside the tables, prereleases and
// patch numbers npm never published are errors wrapping [ErrUnknownRelease].
func Parse(s string) (Release, error) {
	v := strings.TrimPrefix(strings.TrimSpace(s), "ai@")
	v = strings.TrimPrefix(v, "v")
	parts := strings.Split(v, ".")
	if len(parts) > 3 || v == "" {
		return Release{}, fmt.Errorf("sdk: release %q: want MAJOR, MAJOR.MINOR or MAJOR.MINOR.PATCH", s)
	}
	var n [3]int
	for i, p := range parts {
		x, err := strconv.Atoi(p)
		if err != nil || x < 0 || p != strconv.Itoa(x) {
			return Release{}, fmt.Errorf("sdk: release %q: %q is not a version number", s, p)
		}
		n[i] = x
	}
	l := lineOf(n[0])
	if l == nil || n[1] != 0 {
		return Release{}, fmt.Errorf("sdk: release %q: %w: the tables know %s", s, ErrUnknownRelease, known())
	}
	if len(parts) < 3 {
		return Release{l.major, 0, l.newest}, nil
	}
	r := Release{n[0], n[1], n[2]}
	if r.Patch > l.newest {
		return Release{}, fmt.Errorf("sdk: release %q: %w: the newest %d.0 release the tables know is %d.0.%d", s, ErrUnknownRelease, l.major, l.major, l.newest)
	}
	for _, p := range l.unpublished {
		if p == r.Patch {
			return Release{}, fmt.Errorf("sdk: release %q: %w: npm never published ai@%s", s, ErrUnknownRelease, r)
		}
	}
	return r, nil
}

// MustParse is [Parse] for versions known to be good, such as constants in
// tests; it panics on an error.
func MustParse(s string) Release {
	r, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return r
}

func known() string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d.0.0–%d.0.%d", l.major, l.major, l.newest)
	}
	return b.String()
}

// Newest returns the newest release the tables know: 7.0.173.
func Newest() Release {
	l := lines[len(lines)-1]
	return Release{l.major, 0, l.newest}
}

// NewestOfEach returns the newest release of each major line, oldest first:
// 5.0.277, 6.0.326, 7.0.173.
func NewestOfEach() []Release {
	out := make([]Release, len(lines))
	for i, l := range lines {
		out[i] = Release{l.major, 0, l.newest}
	}
	return out
}

// All returns every published release the tables cover, oldest first.
func All() []Release {
	var out []Release
	for _, l := range lines {
		skip := 0
		for p := 0; p <= l.newest; p++ {
			if skip < len(l.unpublished) && l.unpublished[skip] == p {
				skip++
				continue
			}
			out = append(out, Release{l.major, 0, p})
		}
	}
	return out
}

// testedReleases are the releases whose real npm packages
// testdata/generator runs (its package.json): both sides of every change
// of the chunk schema and of the client's JSON parsing, and the newest of
// each line.
var testedReleases = []string{
	"5.0.0", "5.0.6", "5.0.7", "5.0.10", "5.0.11", "5.0.51", "5.0.52", "5.0.91", "5.0.92",
	"5.0.144", "5.0.146", "5.0.216", "5.0.217", "5.0.252", "5.0.253", "5.0.277",
	"6.0.0", "6.0.14", "6.0.15", "6.0.38", "6.0.39", "6.0.40", "6.0.41", "6.0.114", "6.0.115",
	"6.0.119", "6.0.120", "6.0.175", "6.0.176", "6.0.201", "6.0.202", "6.0.230", "6.0.231",
	"6.0.273", "6.0.274", "6.0.289", "6.0.290", "6.0.307", "6.0.308", "6.0.326",
	"7.0.0", "7.0.31", "7.0.32", "7.0.69", "7.0.70", "7.0.79", "7.0.82", "7.0.86", "7.0.87",
	"7.0.112", "7.0.113", "7.0.137", "7.0.138", "7.0.141", "7.0.142", "7.0.148", "7.0.149",
	"7.0.162", "7.0.163", "7.0.168", "7.0.169", "7.0.173",
}

// Releases returns the releases the package's tests check against the real
// npm packages, oldest first: both sides of every change point of the chunk
// schema and of the client's JSON parsing, and the newest of each line.
func Releases() []Release {
	out := make([]Release, len(testedReleases))
	for i, s := range testedReleases {
		out[i] = MustParse(s)
	}
	return out
}

// DefaultReleases returns the releases a skew report covers by default:
// each maintained major's oldest release, which is its oldest strict one
// (any unknown key throws), and its newest: 5.0.0, 5.0.277, 6.0.0, 6.0.326,
// 7.0.0, 7.0.173.
func DefaultReleases() []Release {
	var out []Release
	for _, l := range lines {
		out = append(out, Release{l.major, 0, 0}, Release{l.major, 0, l.newest})
	}
	return out
}

// String returns the version, such as "6.0.0".
func (r Release) String() string {
	return strconv.Itoa(r.Major) + "." + strconv.Itoa(r.Minor) + "." + strconv.Itoa(r.Patch)
}

// Compare returns -1, 0 or +1 as r is older than, the same as or newer
// than o.
func (r Release) Compare(o Release) int {
	switch {
	case r.Major != o.Major:
		return sign(r.Major - o.Major)
	case r.Minor != o.Minor:
		return sign(r.Minor - o.Minor)
	default:
		return sign(r.Patch - o.Patch)
	}
}

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

// Known reports whether r is a published release the tables cover.
func (r Release) Known() bool {
	_, err := Parse(r.String())
	return err == nil && r.Minor == 0
}
