package sdk

import (
	"encoding/json"
	"sort"
	"strings"
)

// A node is one zod schema of a chunk schema: the subset of zod 4 the
// SDK's uiMessageChunkSchema uses, each node as zod would run it.
type node struct {
	kind    kind
	values  []string // kLiteral (one value), kEnum
	prefix  string   // kString: the startsWith check, if any
	safeint bool     // kNumber: z.int()
	nonneg  bool     // kNumber: z.nonnegative()
	mode    mode     // kObject
	fields  []field  // kObject, in the schema's order
	elem    *node    // kOptional inner, kRecord value, kArray element, kPipe input
	options []*node  // kUnion
	disc    string   // kUnion: the discriminator of a z.discriminatedUnion
	message string   // kCustom: its error message
	recOpt  bool     // kJSON: record values are .optional() (json-value.ts from 5.0.253)
}

type kind uint8

const (
	kString    kind = iota // z.string(), with prefix: .startsWith(prefix)
	kNumber                // z.number(), with its checks
	kBoolean               // z.boolean()
	kUnknown               // z.unknown()
	kNull                  // z.null() (in jsonValueSchema)
	kUndefined             // z.undefined() (in a union)
	kLiteral               // z.literal(v)
	kEnum                  // z.enum([...])
	kOptional              // x.optional()
	kObject                // z.strictObject, z.looseObject, z.object
	kRecord                // z.record(z.string(), v)
	kArray                 // z.array(e)
	kUnion                 // z.union, z.discriminatedUnion
	kCustom                // z.custom(startsWith 'data-', {message})
	kPipe                  // z.string().transform(...) (kind of custom chunks)
	kJSON                  // jsonValueSchema: z.lazy(union of null, string, number, boolean, record, array)
)

type mode uint8

const (
	strict mode = iota // z.strictObject: an unknown key is an issue
	loose              // z.looseObject: unknown keys kept
	strip              // z.object: unknown keys dropped
)

type field struct {
	name string
	node *node
}

// optin reports whether zod lets n's key be absent: .optional(), and, with
// the app's zod before 4.4, z.unknown() and a union with z.undefined().
func (n *node) optin(zodBefore44 bool) bool {
	switch n.kind {
	case kOptional:
		return true
	case kUnknown, kUndefined:
		return zodBefore44
	case kUnion:
		for _, o := range n.options {
			if o.optin(zodBefore44) {
				return true
			}
		}
	}
	return false
}

// describe writes n as testdata/generator/generate.mjs describes a zod
// schema, so the tables can be compared with the real schemas.
func (n *node) describe() any {
	switch n.kind {
	case kString:
		if n.prefix != "" {
			return []any{"string", "startsWith:" + n.prefix}
		}
		return "string"
	case kNumber:
		d := []any{"number"}
		if n.safeint {
			d = append(d, "format:safeint")
		}
		if n.nonneg {
			d = append(d, ">=0")
		}
		if len(d) == 1 {
			return "number"
		}
		return d
	case kBoolean:
		return "boolean"
	case kUnknown:
		return "unknown"
	case kNull:
		return "null"
	case kUndefined:
		return "undefined"
	case kLiteral:
		return []any{"literal", n.values[0]}
	case kEnum:
		d := []any{"enum"}
		for _, v := range n.values {
			d = append(d, v)
		}
		return d
	case kOptional:
		return []any{"optional", n.elem.describe()}
	case kObject:
		fs := []any{}
		for _, f := range n.fields {
			fs = append(fs, []any{f.name, f.node.describe()})
		}
		return []any{"object", [...]string{"strict", "loose", "strip"}[n.mode], fs}
	case kRecord:
		return []any{"record", "string", n.elem.describe()}
	case kArray:
		return []any{"array", n.elem.describe()}
	case kUnion:
		d := []any{"union"}
		if n.disc != "" {
			d[0] = "union:" + n.disc
		}
		for _, o := range n.options {
			d = append(d, o.describe())
		}
		return d
	case kCustom:
		return []any{"custom", n.message}
	case kPipe:
		return []any{"pipe", n.elem.describe(), "transform"}
	case kJSON:
		return []any{"ref", "L1"}
	}
	panic("sdk: describe: unknown node kind")
}

// describeJSON is the definition of jsonValueSchema as describe names it.
func describeJSON(recOpt bool) any {
	var v any = []any{"ref", "L1"}
	if recOpt {
		v = []any{"optional", v}
	}
	return []any{"union", "null", "string", "number", "boolean", []any{"record", "string", v}, []any{"array", []any{"ref", "L1"}}}
}

// usesJSON reports whether n contains jsonValueSchema, and whether its
// records' values are optional there.
func (n *node) usesJSON() (uses, recOpt bool) {
	if n == nil {
		return false, false
	}
	if n.kind == kJSON {
		return true, n.recOpt
	}
	if u, r := n.elem.usesJSON(); u {
		return u, r
	}
	for _, f := range n.fields {
		if u, r := f.node.usesJSON(); u {
			return u, r
		}
	}
	for _, o := range n.options {
		if u, r := o.usesJSON(); u {
			return u, r
		}
	}
	return false, false
}

// A Schema is the chunk schema of one client release, as that client
// validates each chunk it reads, together with how it parses a chunk's
// JSON. Releases whose clients behave the same share one Schema. A Schema
// is immutable and safe for concurrent use.
type Schema struct {
	union   *node // the union of chunk objects, in the schema's order
	byType  map[string]*node
	data    *node      // the data-* object
	proto   protoParse // how provider-utils' secureJsonParse looks for prototype keys
	ranges  Ranges     // the releases that share this Schema
	sources []string   // the tag and file of each table row that built it
	types   []string   // the chunk types, in the schema's order ("data-*" for data parts)
	strict  bool
	finish  []string
}

// Types returns the chunk types the schema knows, in its order; data parts
// are "data-*".
func (s *Schema) Types() []string { return append([]string(nil), s.types...) }

// Knows reports whether the schema has a chunk type typ (any "data-"
// prefixed type is a data part).
func (s *Schema) Knows(typ string) bool {
	if strings.HasPrefix(typ, "data-") {
		return true
	}
	_, ok := s.byType[typ]
	return ok
}

// Strict reports whether the schema rejects unknown keys in a chunk
// (z.strictObject) rather than keeping them (z.looseObject).
func (s *Schema) Strict() bool { return s.strict }

// FinishReasons returns the values a finish chunk's finishReason may take,
// nil where the finish chunk has no finishReason.
func (s *Schema) FinishReasons() []string { return append([]string(nil), s.finish...) }

// Releases returns the releases whose clients share this schema.
func (s *Schema) Releases() Ranges { return append(Ranges(nil), s.ranges...) }

// Sources returns where the tables that built the schema were read: a tag
// of vercel/ai (or an npm tarball's src/, for releases after the git
// mirror) and a file, one line each.
func (s *Schema) Sources() []string { return append([]string(nil), s.sources...) }

// Fields returns the fields of chunk type typ in the schema's order, each
// as "name" or "name?" (optional), or nil if the schema lacks the type.
func (s *Schema) Fields(typ string) []string {
	n := s.byType[typ]
	if strings.HasPrefix(typ, "data-") {
		n = s.data
	}
	if n == nil {
		return nil
	}
	var out []string
	for _, f := range n.fields {
		if f.node.kind == kOptional {
			out = append(out, f.name+"?")
		} else {
			out = append(out, f.name)
		}
	}
	return out
}

// Describe returns the schema as testdata/generator describes the zod
// schema of the real client (see testdata/schemas.json): JSON with "chunk"
// (the union) and "defs" (jsonValueSchema as L1).
func (s *Schema) Describe() []byte {
	d := map[string]any{"chunk": s.union.describe(), "defs": map[string]any{}}
	if uses, recOpt := s.union.usesJSON(); uses {
		d["defs"] = map[string]any{"L1": describeJSON(recOpt)}
	}
	b, err := json.Marshal(d)
	if err != nil {
		panic(err)
	}
	return b
}

// schemas are the distinct Schemas, one per segment of the release lines
// between two points where a table changes, in release order; segments
// holds each one's first release.
type schemaTable struct {
	starts  []Release
	schemas []*Schema
}

// table is built once, at package initialisation, from the tables of
// tables.go; it is never modified afterwards.
var table = buildTable()

func buildTable() schemaTable {
	points := map[Release]bool{}
	for _, l := range lines {
		points[Release{l.major, 0, 0}] = true
	}
	for _, rs := range allRanges() {
		rs.bounds(points)
	}
	var starts []Release
	for p := range points {
		if lineOf(p.Major) != nil && p.Minor == 0 && p.Patch <= lineOf(p.Major).newest {
			starts = append(starts, p)
		}
	}
	sort.Slice(starts, func(i, j int) bool { return starts[i].Compare(starts[j]) < 0 })
	var t schemaTable
	interned := map[string]*Schema{}
	for i, r := range starts {
		s := build(r)
		key := string(s.Describe()) + "|" + s.proto.String()
		if prev, ok := interned[key]; ok {
			s = prev
		} else {
			interned[key] = s
		}
		last := Release{r.Major, 0, lineOf(r.Major).newest}
		if i+1 < len(starts) && starts[i+1].Major == r.Major {
			last = Release{r.Major, 0, starts[i+1].Patch - 1}
		}
		if n := len(s.ranges); n > 0 && s.ranges[n-1].To.Major == r.Major && s.ranges[n-1].To.Patch+1 == r.Patch {
			s.ranges[n-1].To = last
		} else {
			s.ranges = append(s.ranges, Interval{r, last})
		}
		t.starts = append(t.starts, r)
		t.schemas = append(t.schemas, s)
	}
	return t
}

// Schema returns the chunk schema of release r's client, or nil if the
// tables do not cover r.
func (r Release) Schema() *Schema {
	l := lineOf(r.Major)
	if l == nil || r.Minor != 0 || r.Patch < 0 || r.Patch > l.newest {
		return nil
	}
	i := sort.Search(len(table.starts), func(i int) bool { return table.starts[i].Compare(r) > 0 }) - 1
	if i < 0 {
		return nil
	}
	return table.schemas[i]
}

// Schemas returns the distinct chunk schemas of all releases, oldest
// first; [Schema.Releases] tells which releases each one serves.
func Schemas() []*Schema {
	var out []*Schema
	seen := map[*Schema]bool{}
	for _, s := range table.schemas {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
