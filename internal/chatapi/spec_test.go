package chatapi

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// specPath is the spec's copy in the repository.
const specPath = "../../conformance/testdata/chat-api.md"

// readSpec returns the spec's text.
func readSpec(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(specPath)
	require.NoError(t, err, "read the spec's copy")
	return string(b)
}

// specTable returns the rows of the table after the line marker in the
// spec (prose may come between them, not another heading), each row's
// cells trimmed, without the header and its rule.
func specTable(t *testing.T, spec, marker string) [][]string {
	t.Helper()
	i := strings.Index(spec, "\n"+marker+"\n")
	require.GreaterOrEqual(t, i, 0, "%s holds the line %q", specPath, marker)
	var rows [][]string
	for _, line := range strings.Split(spec[i+len(marker)+2:], "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "|"):
			cells := strings.Split(strings.Trim(line, "|"), "|")
			for j := range cells {
				cells[j] = strings.TrimSpace(cells[j])
			}
			rows = append(rows, cells)
		case len(rows) == 0 && (strings.HasPrefix(line, "#") || strings.HasPrefix(line, "**")):
			t.Fatalf("no table after %q before %q", marker, line)
		case len(rows) == 0:
		default:
			require.Greater(t, len(rows), 2, "the table after %q: a header, its rule and rows", marker)
			return rows[2:]
		}
	}
	t.Fatalf("the table after %q does not end", marker)
	return nil
}

var tickedRE = regexp.MustCompile("`([^`]*)`")

// ticked returns the code spans of a cell, in order: `auto`, `planning`.
func ticked(cell string) []string {
	var out []string
	for _, m := range tickedRE.FindAllStringSubmatch(cell, -1) {
		out = append(out, m[1])
	}
	return out
}

// specFields reads a field table: its name, type and presence columns,
// and for a request table the allowed values.
func specFields(t *testing.T, rows [][]string, models []string) []Field {
	t.Helper()
	var fields []Field
	for _, r := range rows {
		names := ticked(r[0])
		require.Len(t, names, 1, "the field of row %q", r)
		f := Field{Name: names[0], Required: r[2] == "yes"}
		require.Contains(t, []string{"yes", "no"}, r[2], "presence of %s", f.Name)
		switch r[1] {
		case "string":
			f.Type = String
		case "string enum":
			f.Type = String
			f.Enum = ticked(r[4])
			if f.Name == "model" {
				require.Equal(t, "See the model table below.", r[4], "the allowed values of model")
				f.Enum = models
			}
			require.NotEmpty(t, f.Enum, "allowed values of %s", f.Name)
		case "boolean":
			f.Type = Boolean
		case "array of Attachment":
			f.Type = Array
		default:
			t.Fatalf("unknown type %q of %s", r[1], f.Name)
		}
		fields = append(fields, f)
	}
	return fields
}

// TestSpec reads each fact of the package in the spec's copy: the create
// path, the model sets, the request body's and the Attachment's tables,
// the default backend and the status table.
func TestSpec(t *testing.T) {
	spec := readSpec(t)

	t.Run("path", func(t *testing.T) {
		m := regexp.MustCompile(`(?m)^### POST (\S+) \(Create chat\)$`).FindStringSubmatch(spec)
		require.NotNil(t, m, "the heading of the create operation")
		assert.Equal(t, m[1], ChatPath)
	})

	models := specTable(t, spec, "**Allowed values of `model`**")
	require.Len(t, models, 2, "the model table: the current set and the earlier one")
	t.Run("models", func(t *testing.T) {
		assert.Equal(t, "Current set", models[0][0])
		assert.Equal(t, ticked(models[0][1]), CurrentModels(), "the current set")
		assert.True(t, strings.HasPrefix(models[1][0], "Earlier set"), "the second row: %q", models[1][0])
		assert.Equal(t, ticked(models[1][1]), EarlierModels(), "the earlier set")
	})

	t.Run("request body", func(t *testing.T) {
		rows := specTable(t, spec, "**Request body (JSON object)**")
		assert.Equal(t, specFields(t, rows, ticked(models[0][1])), RequestFields())
		for _, r := range rows {
			if r[0] == "`backend`" {
				assert.Equal(t, strconv.Quote(BackendDefault), strings.Trim(r[3], "`"), "the default of backend")
			}
		}
	})

	t.Run("attachment", func(t *testing.T) {
		assert.Equal(t, specFields(t, specTable(t, spec, "### Attachment (element of the request field `experimental_attachments`)"), nil),
			AttachmentFields())
	})

	t.Run("statuses", func(t *testing.T) {
		var statuses []int
		for _, r := range specTable(t, spec, "**Status codes**") {
			n, err := strconv.Atoi(r[0])
			require.NoError(t, err, "the status of row %q", r)
			statuses = append(statuses, n)
		}
		assert.Equal(t, statuses, Statuses())
	})
}

func TestOptional(t *testing.T) {
	assert.Equal(t, []string{"stream", "backend", "executionMode", "model", "reasoningEffort", "experimental_attachments"},
		Optional(RequestFields()))
	assert.Equal(t, []string{"name", "contentType"}, Optional(AttachmentFields()))
	assert.Empty(t, Optional(nil))
}
