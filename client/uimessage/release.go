package uimessage

import (
	"fmt"
	"strconv"
	"strings"
)

// A Release is a release of the AI SDK's `ai` package, such as 6.0.0, whose
// client the [Assembler] plays. It is the seam to the release type of
// uistream/sdk, which will replace it.
type Release struct{ Major, Minor, Patch int }

// Newest releases of each major the corpus was made with, and the default.
var (
	Newest5 = Release{5, 0, 277}
	Newest6 = Release{6, 0, 326}
	Newest7 = Release{7, 0, 173}
	Current = Newest7
)

// ParseRelease reads "6.0.0", or a major alone ("6"), which stands for the
// newest release of that major this package knows.
func ParseRelease(s string) (Release, error) {
	switch s {
	case "5":
		return Newest5, nil
	case "6":
		return Newest6, nil
	case "7":
		return Newest7, nil
	}
	f := strings.Split(s, ".")
	if len(f) != 3 {
		return Release{}, fmt.Errorf("uimessage: release %q: want MAJOR.MINOR.PATCH or a major", s)
	}
	var n [3]int
	for i, x := range f {
		v, err := strconv.Atoi(x)
		if err != nil || v < 0 || x != strconv.Itoa(v) {
			return Release{}, fmt.Errorf("uimessage: release %q: %q is not a number", s, x)
		}
		n[i] = v
	}
	r := Release{n[0], n[1], n[2]}
	if r.Major < 5 || r.Major > 7 {
		return Release{}, fmt.Errorf("uimessage: release %q: only ai 5, 6 and 7 speak the UI message stream", s)
	}
	return r, nil
}

// String returns "MAJOR.MINOR.PATCH".
func (r Release) String() string { return fmt.Sprintf("%d.%d.%d", r.Major, r.Minor, r.Patch) }

// Less reports whether r comes before o.
func (r Release) Less(o Release) bool {
	if r.Major != o.Major {
		return r.Major < o.Major
	}
	if r.Minor != o.Minor {
		return r.Minor < o.Minor
	}
	return r.Patch < o.Patch
}
