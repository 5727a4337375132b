package sdk

import "fmt"

// The tables: uiMessageChunkSchema of every client release, as data. Each
// row says which releases it holds for and where it was read. "git TAG"
// is a tag of github.com/vercel/ai, its file under packages/ai/src/;
// "npm VERSION" is the ai package of that version on npm, its file under
// src/ (or in dist/index.mjs.map's sources where the package ships no
// src/: 5.0.245 and later), for releases newer than the git mirror
// (5.0.244, 6.0.264, 7.0.77). The change points were found by comparing
// the file (and the files it imports a schema from) between consecutive
// tags, and between npm versions by bisection; testdata/schemas.json holds
// what the real clients run, and schema_test.go compares the two.

const (
	chunksFile   = "ui-message-stream/ui-message-chunks.ts"
	metadataFile = "types/provider-metadata.ts"
	jsonFile     = "types/json-value.ts"
	citationFile = "types/citation.ts"
	usageFile    = "types/usage.ts"
	secureFile   = "packages/provider-utils/src/secure-json-parse.ts"
)

// A chunkRow is one chunk type of the union, with the releases that have
// it and its fields; the rows are in the union's order.
type chunkRow struct {
	typ    string // the type literal; "" for data parts (type must start with "data-")
	in     string // releases, as ParseRanges reads them
	src    string
	fields []fieldRow
}

// A fieldRow is one field of a chunk type; in is empty where the field is
// in every release that has the type.
type fieldRow struct {
	name string
	in   string
	node func(b *builder) *node
	src  string
}

var chunkRows = []chunkRow{
	{"text-start", "5.0.0-", "git ai@5.0.0 " + chunksFile, []fieldRow{
		{"id", "", str, ""},
		{"providerMetadata", "", optPM, ""},
	}},
	{"text-delta", "5.0.0-", "git ai@5.0.0 " + chunksFile, []fieldRow{
		{"id", "", str, ""},
		{"delta", "", str, ""},
		{"providerMetadata", "", optPM, ""},
	}},
	{"text-end", "5.0.0-", "git ai@5.0.0 " + chunksFile, []fieldRow{
		{"id", "", str, ""},
		{"citations", "7.0.138-", optCitations, "npm 7.0.138 " + chunksFile + ", " + citationFile},
		{"providerMetadata", "", optPM, ""},
	}},
	{"error", "5.0.0-", "git ai@5.0.0 " + chunksFile, []fieldRow{
		{"errorText", "", str, ""},
	}},
	{"tool-input-start", "5.0.0-", "git ai@5.0.0 " + chunksFile, []fieldRow{
		{"toolCallId", "", str, ""},
		{"toolName", "", str, ""},
		{"inputEncoding", "6.0.308-6, 7.0.142-", optInputEncoding, "npm 6.0.308, npm 7.0.142 " + chunksFile},
		{"providerExecuted", "", optBool, ""},
		{"providerMetadata", "6.0.39-", optPM, "git ai@6.0.39 " + chunksFile},
		{"toolMetadata", "6.0.176-", optToolMetadata, "git ai@6.0.176 " + chunksFile},
		{"dynamic", "", optBool, ""},
		{"title", "6.0.0-", optStr, "git ai@6.0.0 " + chunksFile},
	}},
	{"tool-input-delta", "5.0.0-", "git ai@5.0.0 " + chunksFile, []fieldRow{
		{"toolCallId", "", str, ""},
		{"inputTextDelta", "", str, ""},
	}},
	{"tool-input-available", "5.0.0-", "git ai@5.0.0 " + chunksFile, []fieldRow{
		{"toolCallId", "", str, ""},
		{"toolName", "", str, ""},
		{"input", "", unknown, ""},
		{"providerExecuted", "", optBool, ""},
		{"providerMetadata", "", optPM, ""},
		{"toolMetadata", "6.0.176-", optToolMetadata, "git ai@6.0.176 " + chunksFile},
		{"dynamic", "", optBool, ""},
		{"title", "6.0.0-", optStr, "git ai@6.0.0 " + chunksFile},
	}},
	{"tool-input-error", "5.0.7-", "git ai@5.0.7 " + chunksFile, []fieldRow{
		{"toolCallId", "", str, ""},
		{"toolName", "", str, ""},
		{"input", "", unknown, ""},
		{"providerExecuted", "", optBool, ""},
		{"providerMetadata", "", optPM, ""},
		{"toolMetadata", "6.0.176-", optToolMetadata, "git ai@6.0.176 " + chunksFile},
		{"dynamic", "", optBool, ""},
		{"errorText", "", str, ""},
		{"title", "6.0.0-", optStr, "git ai@6.0.0 " + chunksFile},
	}},
	{"tool-approval-request", "6.0.0-", "git ai@6.0.0 " + chunksFile, []fieldRow{
		{"approvalId", "", str, ""},
		{"toolCallId", "", str, ""},
		{"approvalDescriptor", "6.0.274-6, 7.0.87-", optUnknown, "npm 6.0.274, npm 7.0.87 " + chunksFile},
		{"inputSchemaInput", "6.0.290-6, 7.0.113-", optUnknown, "npm 6.0.290, npm 7.0.113 " + chunksFile},
		{"reason", "7.0.82-", optStr, "npm 7.0.82 " + chunksFile},
		{"isAutomatic", "7.0.0-", optBool, "git ai@7.0.0 " + chunksFile},
		{"signature", "6.0.202-", optStr, "git ai@6.0.202 " + chunksFile},
	}},
	{"tool-approval-response", "7.0.0-", "git ai@7.0.0 " + chunksFile, []fieldRow{
		{"approvalId", "", str, ""},
		{"approved", "", boolean, ""},
		{"reason", "", optStr, ""},
		{"providerExecuted", "", optBool, ""},
		{"providerMetadata", "", optPM, ""},
	}},
	{"tool-output-available", "5.0.0-", "git ai@5.0.0 " + chunksFile, []fieldRow{
		{"toolCallId", "", str, ""},
		{"output", "", unknown, ""},
		{"providerExecuted", "", optBool, ""},
		{"providerMetadata", "6.0.120-", optPM, "git ai@6.0.120 " + chunksFile},
		{"toolMetadata", "6.0.176-", optToolMetadata, "git ai@6.0.176 " + chunksFile},
		{"dynamic", "", optBool, ""},
		{"preliminary", "5.0.11-", optBool, "git ai@5.0.11 " + chunksFile},
	}},
	{"tool-output-error", "5.0.0-", "git ai@5.0.0 " + chunksFile, []fieldRow{
		{"toolCallId", "", str, ""},
		{"errorText", "", str, ""},
		{"providerExecuted", "", optBool, ""},
		{"providerMetadata", "6.0.120-", optPM, "git ai@6.0.120 " + chunksFile},
		{"toolMetadata", "6.0.176-", optToolMetadata, "git ai@6.0.176 " + chunksFile},
		{"dynamic", "", optBool, ""},
	}},
	{"tool-output-denied", "6.0.0-", "git ai@6.0.0 " + chunksFile, []fieldRow{
		{"toolCallId", "", str, ""},
	}},
	// reasoning and reasoning-part-finish: legacy, in the schema until
	// 5.0.51 (git ai@5.0.52 removed them); the client ignores them.
	{"reasoning", "5.0.0-5.0.51", "git ai@5.0.0, ai@5.0.52 " + chunksFile, []fieldRow{
		{"text", "", str, ""},
		{"providerMetadata", "", optPM, ""},
	}},
	{"reasoning-start", "5.0.0-", "git ai@5.0.0 " + chunksFile, []fieldRow{
		{"id", "", str, ""},
		{"providerMetadata", "", optPM, ""},
	}},
	{"reasoning-delta", "5.0.0-", "git ai@5.0.0 " + chunksFile, []fieldRow{
		{"id", "", str, ""},
		{"delta", "", str, ""},
		{"providerMetadata", "", optPM, ""},
	}},
	{"reasoning-end", "5.0.0-", "git ai@5.0.0 " + chunksFile, []fieldRow{
		{"id", "", str, ""},
		{"providerMetadata", "", optPM, ""},
	}},
	{"reasoning-part-finish", "5.0.0-5.0.51", "git ai@5.0.0, ai@5.0.52 " + chunksFile, nil},
	{"custom", "7.0.0-", "git ai@7.0.0 " + chunksFile, []fieldRow{
		{"kind", "", kindString, ""},
		{"providerMetadata", "", optPM, ""},
	}},
	{"source-url", "5.0.0-", "git ai@5.0.0 " + chunksFile, []fieldRow{
		{"sourceId", "", str, ""},
		{"url", "", str, ""},
		{"title", "", optStr, ""},
		{"providerMetadata", "", optPM, ""},
	}},
	{"source-document", "5.0.0-", "git ai@5.0.0 " + chunksFile, []fieldRow{
		{"sourceId", "", str, ""},
		{"mediaType", "", str, ""},
		{"title", "", str, ""},
		{"filename", "", optStr, ""},
		{"providerMetadata", "", optPM, ""},
	}},
	{"file", "5.0.0-", "git ai@5.0.0 " + chunksFile, []fieldRow{
		{"url", "", str, ""},
		{"mediaType", "", str, ""},
		{"providerMetadata", "", optPM, ""},
	}},
	{"reasoning-file", "7.0.0-", "git ai@7.0.0 " + chunksFile, []fieldRow{
		{"url", "", str, ""},
		{"mediaType", "", str, ""},
		{"providerMetadata", "", optPM, ""},
	}},
	{"steering-message", "7.0.163-", "npm 7.0.163 " + chunksFile, []fieldRow{
		{"id", "", str, ""},
		{"parts", "", steeringParts, ""},
	}},
	{"", "5.0.0-", "git ai@5.0.0 " + chunksFile, []fieldRow{
		{"type", "", dataType, ""},
		{"id", "", optStr, ""},
		{"data", "", unknown, ""},
		{"transient", "", optBool, ""},
	}},
	{"start-step", "5.0.0-", "git ai@5.0.0 " + chunksFile, nil},
	{"finish-step", "5.0.0-", "git ai@5.0.0 " + chunksFile, nil},
	{"reset-step", "7.0.70-", "git ai@7.0.70 " + chunksFile, nil},
	{"start", "5.0.0-", "git ai@5.0.0 " + chunksFile, []fieldRow{
		{"messageId", "", optStr, ""},
		{"messageMetadata", "", optUnknown, ""},
	}},
	{"finish", "5.0.0-", "git ai@5.0.0 " + chunksFile, []fieldRow{
		{"finishReason", "5.0.92-", optFinishReason, "git ai@5.0.92 " + chunksFile},
		// usage: added in 6.0.40, reverted in 6.0.41
		{"usage", "6.0.40", optUsage, "git ai@6.0.40, ai@6.0.41 " + chunksFile + ", " + usageFile},
		{"messageMetadata", "", optUnknown, ""},
	}},
	{"abort", "5.0.0-", "git ai@5.0.0 " + chunksFile, []fieldRow{
		{"reason", "6.0.15-", optStr, "git ai@6.0.15 " + chunksFile},
	}},
	{"message-metadata", "5.0.0-", "git ai@5.0.0 " + chunksFile, []fieldRow{
		{"messageMetadata", "", unknown, ""},
	}},
}

// looseChunks are the releases whose chunk objects are z.looseObject
// (unknown keys kept); the others' are z.strictObject (unknown keys
// rejected). vercel/ai#17520 (v5) and #17474 (v6), after #11269.
var looseChunks = row{"5.0.217-5, 6.0.231-6, 7.0.32-", "git ai@5.0.217, ai@6.0.231, ai@7.0.32 " + chunksFile}

// finishReasonRows are the values of finish.finishReason.
var finishReasonRows = []struct {
	row
	values []string
}{
	{row{"5.0.92-5", "git ai@5.0.92 " + chunksFile}, []string{"stop", "length", "content-filter", "tool-calls", "error", "other", "unknown"}},
	{row{"6.0.0-7.0.148", "git ai@6.0.0 " + chunksFile + " (unknown merged into other)"}, []string{"stop", "length", "content-filter", "tool-calls", "error", "other"}},
	{row{"7.0.149-", "npm 7.0.149 " + chunksFile}, []string{"stop", "length", "content-filter", "tool-calls", "error", "interrupted", "other"}},
}

// dataTypeCustom are the releases whose data-part type is
// z.custom(startsWith 'data-'); before, z.string().startsWith('data-').
var dataTypeCustom = row{"5.0.52-", "git ai@5.0.52 " + chunksFile}

// jsonRecordOptional are the releases whose jsonValueSchema records have
// .optional() values; providerMetadataOptional those whose
// providerMetadataSchema's inner records have.
var (
	jsonRecordOptional       = row{"5.0.253-", "npm 5.0.253 " + jsonFile + "; git ai@6.0.0 " + jsonFile}
	providerMetadataOptional = row{"6.0.0-", "git ai@6.0.0 " + metadataFile}
)

// protoEscapes are the releases whose provider-utils' secureJsonParse also
// finds \u-escaped __proto__ and constructor keys, and skips a constructor
// key whose value is not an object (vercel/ai#13079; provider-utils 3.0.22
// with ai 5.0.146, 4.0.18 with ai 6.0.115, every 5.x with ai 7).
var protoEscapes = row{"5.0.146-5, 6.0.115-", "git ai@5.0.146, ai@6.0.115 " + secureFile}

type row struct {
	in  string
	src string
}

// allRanges returns every range the tables hold: the points where a
// release's schema can change.
func allRanges() []Ranges {
	var out []Ranges
	add := func(s string) {
		if s != "" {
			out = append(out, mustRanges(s))
		}
	}
	for _, c := range chunkRows {
		add(c.in)
		for _, f := range c.fields {
			add(f.in)
		}
	}
	for _, f := range finishReasonRows {
		add(f.in)
	}
	for _, r := range []row{looseChunks, dataTypeCustom, jsonRecordOptional, providerMetadataOptional, protoEscapes} {
		add(r.in)
	}
	return out
}

// A builder makes the nodes of one release's schema.
type builder struct {
	r       Release
	sources []string
	json    *node
}

func (b *builder) has(r row) bool {
	if mustRanges(r.in).Contains(b.r) {
		b.note(r.src)
		return true
	}
	return false
}

func (b *builder) note(src string) {
	if src == "" {
		return
	}
	for _, s := range b.sources {
		if s == src {
			return
		}
	}
	b.sources = append(b.sources, src)
}

// build makes the Schema of release r from the tables.
func build(r Release) *Schema {
	b := &builder{r: r}
	mode := strict
	if b.has(looseChunks) {
		mode = loose
	}
	s := &Schema{byType: map[string]*node{}, strict: mode == strict}
	s.proto = protoOld
	if b.has(protoEscapes) {
		s.proto = protoNew
	}
	u := &node{kind: kUnion}
	for _, c := range chunkRows {
		if !mustRanges(c.in).Contains(r) {
			continue
		}
		b.note(c.src)
		obj := &node{kind: kObject, mode: mode}
		if c.typ != "" {
			obj.fields = append(obj.fields, field{"type", &node{kind: kLiteral, values: []string{c.typ}}})
		}
		for _, f := range c.fields {
			if f.in != "" && !mustRanges(f.in).Contains(r) {
				continue
			}
			b.note(f.src)
			obj.fields = append(obj.fields, field{f.name, f.node(b)})
		}
		u.options = append(u.options, obj)
		if c.typ == "" {
			s.data = obj
			s.types = append(s.types, "data-*")
		} else {
			s.byType[c.typ] = obj
			s.types = append(s.types, c.typ)
		}
	}
	if f, ok := s.byType["finish"]; ok {
		for _, fl := range f.fields {
			if fl.name == "finishReason" {
				s.finish = fl.node.elem.values
			}
		}
	}
	if s.data == nil || s.byType["text-start"] == nil {
		panic(fmt.Sprintf("sdk: tables: release %s has no data or text-start chunk", r))
	}
	s.union = u
	s.sources = b.sources
	return s
}

// The node makers of the field rows.

func str(*builder) *node        { return &node{kind: kString} }
func boolean(*builder) *node    { return &node{kind: kBoolean} }
func unknown(*builder) *node    { return &node{kind: kUnknown} }
func optional(n *node) *node    { return &node{kind: kOptional, elem: n} }
func optStr(b *builder) *node   { return optional(str(b)) }
func optBool(b *builder) *node  { return optional(boolean(b)) }
func optUnknown(*builder) *node { return optional(&node{kind: kUnknown}) }
func kindString(*builder) *node { return &node{kind: kPipe, elem: &node{kind: kString}} }
func optPM(b *builder) *node    { return optional(b.providerMetadata()) }
func optInputEncoding(*builder) *node {
	return optional(&node{kind: kEnum, values: []string{"json", "text"}})
}

func optToolMetadata(b *builder) *node {
	return optional(&node{kind: kRecord, elem: optional(b.jsonValue())})
}

func optFinishReason(b *builder) *node {
	for _, f := range finishReasonRows {
		if b.has(f.row) {
			return optional(&node{kind: kEnum, values: f.values})
		}
	}
	panic(fmt.Sprintf("sdk: tables: no finishReason values for %s", b.r))
}

func dataType(b *builder) *node {
	if b.has(dataTypeCustom) {
		return &node{kind: kCustom, prefix: "data-", message: `Type must start with "data-"`}
	}
	return &node{kind: kString, prefix: "data-"}
}

// jsonValue is jsonValueSchema (types/json-value.ts), one node per schema.
func (b *builder) jsonValue() *node {
	if b.json == nil {
		b.json = &node{kind: kJSON, recOpt: b.has(jsonRecordOptional)}
		b.note("git ai@5.0.0 " + jsonFile)
	}
	return b.json
}

// providerMetadata is providerMetadataSchema (types/provider-metadata.ts):
// Record<string, Record<string, JSONValue>>.
func (b *builder) providerMetadata() *node {
	b.note("git ai@5.0.0 " + metadataFile)
	v := b.jsonValue()
	if b.has(providerMetadataOptional) {
		v = optional(v)
	}
	return &node{kind: kRecord, elem: &node{kind: kRecord, elem: v}}
}

// optCitations is citations on text-end: z.array(citationSchema)
// (types/citation.ts, npm 7.0.138).
func optCitations(b *builder) *node {
	source := func(sourceType string, fields ...field) *node {
		fs := []field{
			{"type", &node{kind: kLiteral, values: []string{"source"}}},
			{"sourceType", &node{kind: kLiteral, values: []string{sourceType}}},
			{"id", str(b)},
		}
		fs = append(fs, fields...)
		fs = append(fs, field{"providerMetadata", optPM(b)})
		return &node{kind: kObject, mode: strip, fields: fs}
	}
	index := func() *node { return optional(&node{kind: kNumber, safeint: true, nonneg: true}) }
	citation := &node{kind: kObject, mode: strip, fields: []field{
		{"source", &node{kind: kUnion, disc: "sourceType", options: []*node{
			source("url", field{"url", str(b)}, field{"title", optStr(b)}),
			source("document", field{"mediaType", str(b)}, field{"title", str(b)}, field{"filename", optStr(b)}),
		}}},
		{"startIndex", index()},
		{"endIndex", index()},
		{"citedText", optStr(b)},
	}}
	return optional(&node{kind: kArray, elem: citation})
}

// steeringParts is parts of steering-message (npm 7.0.163): text and file
// parts, each a z.looseObject.
func steeringParts(b *builder) *node {
	text := &node{kind: kObject, mode: loose, fields: []field{
		{"type", &node{kind: kLiteral, values: []string{"text"}}},
		{"text", str(b)},
		{"providerMetadata", optPM(b)},
	}}
	file := &node{kind: kObject, mode: loose, fields: []field{
		{"type", &node{kind: kLiteral, values: []string{"file"}}},
		{"mediaType", str(b)},
		{"url", str(b)},
		{"filename", optStr(b)},
		{"providerReference", optional(&node{kind: kRecord, elem: str(b)})},
		{"providerMetadata", optPM(b)},
	}}
	return &node{kind: kArray, elem: &node{kind: kUnion, options: []*node{text, file}}}
}

// optUsage is languageModelUsageSchema of 6.0.40 (types/usage.ts), whose
// counts are z.union([z.number(), z.undefined()]).
func optUsage(b *builder) *node {
	count := func() *node {
		return &node{kind: kUnion, options: []*node{{kind: kNumber}, {kind: kUndefined}}}
	}
	obj := func(names ...string) *node {
		o := &node{kind: kObject, mode: strict}
		for _, n := range names {
			o.fields = append(o.fields, field{n, count()})
		}
		return o
	}
	usage := &node{kind: kObject, mode: strict, fields: []field{
		{"inputTokens", count()},
		{"inputTokenDetails", obj("noCacheTokens", "cacheReadTokens", "cacheWriteTokens")},
		{"outputTokens", count()},
		{"outputTokenDetails", obj("textTokens", "reasoningTokens")},
		{"totalTokens", count()},
		{"reasoningTokens", optional(&node{kind: kNumber})},
		{"cachedInputTokens", optional(&node{kind: kNumber})},
		{"raw", optional(&node{kind: kRecord, elem: optional(b.jsonValue())})},
	}}
	return optional(usage)
}
