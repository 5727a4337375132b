package sdk

import (
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want Release
		err  string
	}{
		{"5.0.0", Release{5, 0, 0}, ""},
		{"6.0.0", Release{6, 0, 0}, ""},
		{"7.0.173", Release{7, 0, 173}, ""},
		{"5", Release{5, 0, 277}, ""},
		{"6", Release{6, 0, 326}, ""},
		{"7", Release{7, 0, 173}, ""},
		{"6.0", Release{6, 0, 326}, ""},
		{"ai@6.0.40", Release{6, 0, 40}, ""},
		{"v5.0.92", Release{5, 0, 92}, ""},
		{" 7.0.1 ", Release{7, 0, 1}, ""},
		{"4.3.19", Release{}, "unknown release"},
		{"8", Release{}, "unknown release"},
		{"6.1.0", Release{}, "unknown release"},
		{"7.0.174", Release{}, "newest 7.0 release the tables know is 7.0.173"},
		{"5.0.67", Release{}, "npm never published ai@5.0.67"},
		{"7.0.80", Release{}, "npm never published ai@7.0.80"},
		{"6.0.0-beta.1", Release{}, "want MAJOR"},
		{"6.0.x", Release{}, "not a version number"},
		{"6.00.1", Release{}, "not a version number"},
		{"", Release{}, "want MAJOR"},
		{"1.2.3.4", Release{}, "want MAJOR"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Parse(tt.in)
			if tt.err != "" {
				require.Error(t, err, "Parse(%q)", tt.in)
				assert.Contains(t, err.Error(), tt.err, "Parse(%q)", tt.in)
				return
			}
			require.NoError(t, err, "Parse(%q)", tt.in)
			assert.Equal(t, tt.want, got, "Parse(%q)", tt.in)
			assert.True(t, got.Known(), "%s is known", got)
		})
	}
}

func TestParseUnknownWrapsSentinel(t *testing.T) {
	_, err := Parse("5.0.67")
	assert.ErrorIs(t, err, ErrUnknownRelease)
	_, err = Parse("9")
	assert.ErrorIs(t, err, ErrUnknownRelease)
}

func TestReleaseLists(t *testing.T) {
	assert.Equal(t, Release{7, 0, 173}, Newest())
	assert.Equal(t, []Release{{5, 0, 277}, {6, 0, 326}, {7, 0, 173}}, NewestOfEach())
	assert.Equal(t, []Release{{5, 0, 0}, {5, 0, 277}, {6, 0, 0}, {6, 0, 326}, {7, 0, 0}, {7, 0, 173}}, DefaultReleases())

	all := All()
	assert.Len(t, all, 278-11+327-11+174-10, "published releases: every patch but those npm skipped")
	assert.True(t, sort.SliceIsSorted(all, func(i, j int) bool { return all[i].Compare(all[j]) < 0 }), "All is oldest first")
	for _, r := range all {
		require.True(t, r.Known(), "%s", r)
		require.NotNil(t, r.Schema(), "%s has a schema", r)
	}
	tested := Releases()
	assert.Len(t, tested, len(testedReleases))
	assert.True(t, sort.SliceIsSorted(tested, func(i, j int) bool { return tested[i].Compare(tested[j]) < 0 }), "Releases is oldest first")
}

func TestCompare(t *testing.T) {
	assert.Equal(t, -1, Release{5, 0, 277}.Compare(Release{6, 0, 0}))
	assert.Equal(t, 1, Release{6, 0, 10}.Compare(Release{6, 0, 9}))
	assert.Equal(t, 0, Release{7, 0, 1}.Compare(Release{7, 0, 1}))
	assert.Equal(t, "6.0.40", Release{6, 0, 40}.String())
	assert.False(t, Release{}.Known(), "the zero Release")
	assert.Nil(t, Release{}.Schema(), "the zero Release has no schema")
}

func TestMustParsePanics(t *testing.T) {
	assert.Panics(t, func() { MustParse("4") })
}

func TestRanges(t *testing.T) {
	tests := []struct {
		in       string
		contains []string
		excludes []string
		text     string
	}{
		{"5.0.7-", []string{"5.0.7", "5.0.277", "6.0.0", "7.0.173"}, []string{"5.0.6"}, "5.0.7-"},
		{"6.0.274-6, 7.0.87-", []string{"6.0.274", "6.0.326", "7.0.87"}, []string{"6.0.273", "7.0.0", "7.0.86", "5.0.277"}, "6.0.274-6, 7.0.87-"},
		{"6.0.40", []string{"6.0.40"}, []string{"6.0.39", "6.0.41"}, "6.0.40"},
		{"5.0.0-5.0.51", []string{"5.0.0", "5.0.51"}, []string{"5.0.52", "6.0.0"}, "5.0.0-5.0.51"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			rs, err := ParseRanges(tt.in)
			require.NoError(t, err)
			for _, s := range tt.contains {
				assert.True(t, rs.Contains(MustParse(s)), "%s contains %s", tt.in, s)
			}
			for _, s := range tt.excludes {
				assert.False(t, rs.Contains(MustParse(s)), "%s excludes %s", tt.in, s)
			}
			assert.Equal(t, tt.text, rs.String())
		})
	}
	for _, bad := range []string{"", "5.0", "6.0.10-6.0.5", "6.0.10-, 5.0.0", "5.0.0-x"} {
		_, err := ParseRanges(bad)
		assert.Error(t, err, "ParseRanges(%q)", bad)
	}
}
