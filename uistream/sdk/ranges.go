package sdk

import (
	"fmt"
	"strconv"
	"strings"
)

// Ranges is a set of releases: intervals, oldest first, each from its
// first release to its last, both included. The tables write them as
// text (see [ParseRanges]); a change that reached several lines, each at
// its own patch, is several intervals.
type Ranges []Interval

// An Interval is the releases from From to To, both included. A To of
// patch (or minor) [Open] runs to the end of its line (or of every line).
type Interval struct{ From, To Release }

// Open is the patch or minor number of an open interval end.
const Open = 1 << 30

// ParseRanges reads the text form of [Ranges]: intervals separated by
// commas, each FROM-TO, FROM- (to the end of every line) or a single
// release; FROM is a release, TO a release or a major ("6": to the end of
// the 6 line). For example "5.0.7-" is 5.0.7 and every later release,
// "6.0.274-6, 7.0.87-" is 6.0.274 to the end of 6 and 7.0.87 on, "6.0.40"
// is that release alone.
func ParseRanges(s string) (Ranges, error) {
	var rs Ranges
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		from, to, dash := strings.Cut(item, "-")
		lo, err := parseVersion(from)
		if err != nil {
			return nil, fmt.Errorf("sdk: ranges %q: %w", s, err)
		}
		hi := lo
		switch {
		case dash && to == "":
			hi = Release{Open, Open, Open}
		case dash && !strings.Contains(to, "."):
			m, err := strconv.Atoi(to)
			if err != nil {
				return nil, fmt.Errorf("sdk: ranges %q: %q is not a major", s, to)
			}
			hi = Release{m, Open, Open}
		case dash:
			if hi, err = parseVersion(to); err != nil {
				return nil, fmt.Errorf("sdk: ranges %q: %w", s, err)
			}
		}
		if hi.Compare(lo) < 0 || (len(rs) > 0 && lo.Compare(rs[len(rs)-1].To) <= 0) {
			return nil, fmt.Errorf("sdk: ranges %q: intervals out of order", s)
		}
		rs = append(rs, Interval{lo, hi})
	}
	return rs, nil
}

func mustRanges(s string) Ranges {
	rs, err := ParseRanges(s)
	if err != nil {
		panic(err)
	}
	return rs
}

// parseVersion reads MAJOR.MINOR.PATCH without checking it against the
// tables.
func parseVersion(s string) (Release, error) {
	parts := strings.Split(strings.TrimSpace(s), ".")
	if len(parts) != 3 {
		return Release{}, fmt.Errorf("%q is not MAJOR.MINOR.PATCH", s)
	}
	var n [3]int
	for i, p := range parts {
		x, err := strconv.Atoi(p)
		if err != nil || x < 0 {
			return Release{}, fmt.Errorf("%q is not MAJOR.MINOR.PATCH", s)
		}
		n[i] = x
	}
	return Release{n[0], n[1], n[2]}, nil
}

// Contains reports whether r is in the set.
func (rs Ranges) Contains(r Release) bool {
	for _, iv := range rs {
		if r.Compare(iv.From) >= 0 && r.Compare(iv.To) <= 0 {
			return true
		}
	}
	return false
}

// String returns the text form ParseRanges reads.
func (rs Ranges) String() string {
	var b strings.Builder
	for i, iv := range rs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(iv.From.String())
		switch {
		case iv.To == iv.From:
		case iv.To.Major == Open:
			b.WriteString("-")
		case iv.To.Minor == Open:
			b.WriteString("-" + strconv.Itoa(iv.To.Major))
		default:
			b.WriteString("-" + iv.To.String())
		}
	}
	return b.String()
}

// bounds adds to set the first release of each interval and the one after
// its last: the points where membership can change.
func (rs Ranges) bounds(set map[Release]bool) {
	for _, iv := range rs {
		set[iv.From] = true
		switch {
		case iv.To.Major == Open:
		case iv.To.Minor == Open:
			set[Release{iv.To.Major + 1, 0, 0}] = true
		default:
			set[Release{iv.To.Major, iv.To.Minor, iv.To.Patch + 1}] = true
		}
	}
}
