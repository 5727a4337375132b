package conformance

import (
	"fmt"
	"strings"

	"github.com/chatwire/chatwire/conformance/internal/reading"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// This file holds how a run tells the protocols apart and which AI SDK
// clients read a UI message stream: the options the reading of each
// response takes (package reading).

// readingOptions returns the options of the reading of a response a run
// with ui reads.
func readingOptions(ui UIOptions) reading.Options {
	return reading.Options{Protocol: ui.Protocol, Client: ui.SDK, Releases: ui.Releases}
}

// ParseSDKRange reads -sdk-range: what [sdk.ParseRanges] reads (intervals
// such as "5.0.0-5.0.216" or "6.0.0-6", single releases), and a major alone
// ("6") for its newest release, as [sdk.Parse] reads it. It returns the
// published releases the ranges hold, oldest first.
func ParseSDKRange(s string) ([]sdk.Release, error) {
	items := strings.Split(s, ",")
	for i, item := range items {
		item = strings.TrimSpace(item)
		if item != "" && strings.Trim(item, "0123456789") == "" {
			r, err := sdk.Parse(item)
			if err != nil {
				return nil, fmt.Errorf("-sdk-range %q: %w", s, err)
			}
			item = r.String()
		}
		items[i] = item
	}
	rs, err := sdk.ParseRanges(strings.Join(items, ", "))
	if err != nil {
		return nil, fmt.Errorf("-sdk-range %q: %w", s, err)
	}
	var out []sdk.Release
	for _, r := range sdk.All() {
		if rs.Contains(r) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-sdk-range %q holds no published release of ai 5, 6 or 7", s)
	}
	return out, nil
}
