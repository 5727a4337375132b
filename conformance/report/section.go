package report

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/chatwire/chatwire/conformance"
)

// SectionTitle returns the title of a section of the chat API spec as the
// check catalogue numbers it, such as "Stream response" for "4.5", or "" for
// a section it does not know.
func SectionTitle(section string) string {
	switch section {
	case "4.1":
		return "Request headers"
	case "4.2":
		return "Request body"
	case "4.3":
		return "Model values"
	case "4.4":
		return "JSON response"
	case "4.5":
		return "Stream response"
	case "4.6":
		return "Status codes"
	case "4.7":
		return "Follow-ups"
	case "5.3":
		return "Authentication: missing or invalid key"
	case "5.4":
		return "Authentication: team permission"
	case "7.2":
		return "Errors: condition to status"
	case "7.3":
		return "Errors: 400/422 split"
	case "8.1":
		return "Credits"
	case "8.2":
		return "Rate limit"
	case "9.2":
		return "Model sets"
	}
	return ""
}

// sectionHeading returns "4.5 Stream response", the bare number for a
// section without a title, or "(no section)".
func sectionHeading(section string) string {
	if section == "" {
		return "(no section)"
	}
	if t := SectionTitle(section); t != "" {
		return section + " " + t
	}
	return section
}

// sectionOf returns the section of res: its Section field, else the second
// element of its ID (chat/<section>/<slug>).
func sectionOf(res *conformance.Result) string {
	if res.Section != "" {
		return res.Section
	}
	_, rest, ok := strings.Cut(res.ID, "/")
	if !ok {
		return ""
	}
	section, _, ok := strings.Cut(rest, "/")
	if !ok {
		return ""
	}
	return section
}

// group is the results of one section, in run order.
type group struct {
	Section string
	Results []*conformance.Result
}

// groupBySection groups results by section, sections in numeric order
// (4.2 before 4.10) and the results of a section in their run order.
func groupBySection(results []conformance.Result) []group {
	var groups []group
	index := make(map[string]int)
	for i := range results {
		res := &results[i]
		s := sectionOf(res)
		g, ok := index[s]
		if !ok {
			g = len(groups)
			index[s] = g
			groups = append(groups, group{Section: s})
		}
		groups[g].Results = append(groups[g].Results, res)
	}
	slices.SortStableFunc(groups, func(a, b group) int { return compareSections(a.Section, b.Section) })
	return groups
}

// compareSections orders section numbers element by element, numerically
// where both elements are numbers; the empty section sorts last.
func compareSections(a, b string) int {
	switch {
	case a == b:
		return 0
	case a == "":
		return 1
	case b == "":
		return -1
	}
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		an, aerr := strconv.Atoi(as[i])
		bn, berr := strconv.Atoi(bs[i])
		var c int
		if aerr == nil && berr == nil {
			c = cmp.Compare(an, bn)
		} else {
			c = strings.Compare(as[i], bs[i])
		}
		if c != 0 {
			return c
		}
	}
	return cmp.Compare(len(as), len(bs))
}
