package sdk

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type sample struct {
	Name string `json:"name"`
	JSON string `json:"json"`
}

type verdictGroup struct {
	Releases []string        `json:"releases"`
	Verdict  json.RawMessage `json:"verdict"`
}

type verdictFile struct {
	Header struct {
		Zod      map[string]string `json:"zod"`
		Releases []string          `json:"releases"`
	} `json:"header"`
	Samples []map[string]json.RawMessage `json:"samples"`
}

func readVerdicts(t testing.TB) ([]sample, verdictFile) {
	t.Helper()
	raw, err := os.ReadFile("testdata/samples.json")
	require.NoError(t, err)
	var samples []sample
	require.NoError(t, json.Unmarshal(raw, &samples))
	raw, err = os.ReadFile("testdata/verdicts.json")
	require.NoError(t, err)
	var vf verdictFile
	require.NoError(t, json.Unmarshal(raw, &vf))
	require.Len(t, vf.Samples, len(samples), "verdicts.json has one entry per sample of samples.json")
	return samples, vf
}

// groups returns the verdict groups of one zod of one sample; an entry
// that names another zod shares that one's groups.
func groups(t *testing.T, entry map[string]json.RawMessage, zod string) []verdictGroup {
	t.Helper()
	raw := entry[zod]
	var other string
	if json.Unmarshal(raw, &other) == nil {
		raw = entry[other]
	}
	var gs []verdictGroup
	require.NoError(t, json.Unmarshal(raw, &gs), "verdicts of %s", zod)
	return gs
}

// wantVerdict is our verdict in the form of verdicts.json: null, or the
// error with its normalised issues or parse message.
func gotVerdict(err error) []byte {
	if err == nil {
		return []byte("null")
	}
	ce, ok := err.(*ChunkError)
	if !ok {
		return []byte(fmt.Sprintf("%q", err.Error()))
	}
	if ce.Kind == JSONParseError {
		b, _ := json.Marshal(map[string]string{"error": ce.Kind.String(), "message": ce.Message})
		return b
	}
	return []byte(`{"error":"` + ce.Kind.String() + `","issues":` + string(IssuesJSON(ce.Issues)) + `}`)
}

// kindOf is the class of a verdict: ok, or the error's name.
func kindOf(v []byte) string {
	var x struct {
		Error string `json:"error"`
	}
	if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		return "ok"
	}
	if json.Unmarshal(v, &x) != nil || x.Error == "" {
		return "?" + string(v)
	}
	return x.Error
}

// TestCheckChunkAgreesWithRealClients runs every sample through every
// tested release and compares with what the release's real client did
// (testdata/verdicts.json): under the current zod the verdicts and zod's
// issues, messages and all; with ZodBefore44, against zod 4.3.6, the same;
// against zod 3.25.76's zod/v4, whose issues differ in form, the verdicts.
func TestCheckChunkAgreesWithRealClients(t *testing.T) {
	samples, vf := readVerdicts(t)
	modes := []struct {
		zod   string
		opts  Options
		exact bool
	}{
		{"current", Options{}, true},
		{"zod-4.3", Options{ZodBefore44: true}, true},
		{"zod-3.25", Options{ZodBefore44: true}, false},
	}
	for _, m := range modes {
		t.Run(m.zod, func(t *testing.T) {
			checked, failed := 0, 0
			for i, s := range samples {
				// releases that share a schema share a verdict: compute it once
				memo := map[*Schema][]byte{}
				verdict := func(r Release) []byte {
					sch := r.Schema()
					if v, ok := memo[sch]; ok {
						return v
					}
					err := r.CheckChunkWith([]byte(s.JSON), m.opts)
					if ce, ok := err.(*ChunkError); ok {
						ce.Release = Release{}
					}
					v := gotVerdict(err)
					memo[sch] = v
					return v
				}
				for _, g := range groups(t, vf.Samples[i], m.zod) {
					var want bytes.Buffer
					require.NoError(t, json.Compact(&want, g.Verdict))
					for _, rel := range g.Releases {
						r := MustParse(rel)
						got := verdict(r)
						checked++
						var ok bool
						if m.exact {
							ok = bytes.Equal(want.Bytes(), got)
						} else {
							ok = kindOf(g.Verdict) == kindOf(got)
						}
						if !ok {
							failed++
							if failed <= 12 {
								t.Errorf("sample %q %s on ai@%s:\n got %s\nwant %s", s.Name, s.JSON, rel, got, g.Verdict)
							}
						}
					}
				}
			}
			assert.Zero(t, failed, "of %d (sample, release) verdicts", checked)
			assert.Equal(t, len(samples)*len(testedReleases), checked, "every sample on every release")
		})
	}
}
