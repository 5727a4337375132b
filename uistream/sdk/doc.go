// Package sdk holds the AI SDK's clients of the UI message stream (the npm
// package ai, releases 5.0.0 to 5.0.277, 6.0.0 to 6.0.326 and 7.0.0 to
// 7.0.173) as data: each release's uiMessageChunkSchema, how its client
// parses a chunk's JSON, and the switches of its message assembly; and
// from them, what a given client does with a chunk or a whole stream.
//
// A [Release] names a client; [Parse] reads "6.0.0", or "6" for the newest
// 6 release. [Release.CheckChunk] checks one event's data as that client
// does, with the app's current zod (ai takes zod as a peer dependency; see
// [Options] for zod before 4.4): nil where the client takes the chunk, or
// a [*ChunkError] with what it throws, AI_TypeValidationError with zod's
// issues or AI_JSONParseError:
//
//	err := sdk.MustParse("5.0.0").CheckChunk([]byte(`{"type":"finish","finishReason":"stop"}`))
//	// ai@5.0.0: AI_TypeValidationError: Type validation failed: Value: {...}.
//	// Error message: [{"code":"unrecognized_keys","path":[],"keys":["finishReason"],...}]
//
// [Skew] reads a stream's chunks with many releases at once and tells
// which read it all and where each other one throws, releases grouped
// where they agree:
//
//	5.0.0–5.0.91 throw at event 7 (finish): unrecognized key finishReason
//	5.0.92–6.0.326 throw at event 8 (custom): unknown chunk type "custom"
//	7.0.0–7.0.173 read the stream
//
// # Versions are data
//
// Nothing in the package branches on a version number. The chunk schema of
// every release is built from tables (tables.go): each chunk type, each
// field and each shared schema (providerMetadata, jsonValue, the
// finishReason values, the strictness of the objects, the data-part type
// test, the secure JSON parse) carries the releases it holds for, as text
// such as "6.0.274-6, 7.0.87-", and the tag and file it was read from.
// Releases whose clients behave the same share one [Schema]. The same goes
// for the assembly's switches ([Feature], behaviour.go), which the message
// assembly (client/uimessage) follows.
//
// The tables were derived from the SDK's source: every change of the
// chunk schema file and the files it draws on, between consecutive git
// tags of vercel/ai (to 5.0.244, 6.0.264, 7.0.77) and, after them, between
// npm releases found by bisection. They are checked against the real
// clients: testdata/generator installs the npm packages of both sides of
// every change point, captures the zod schema each client validates with
// (testdata/schemas.json; the tables must describe it exactly) and runs a
// set of chunk samples through each client's own parsing path under three
// app zods (testdata/samples.json, testdata/verdicts.json); CheckChunk
// must give the same verdicts and, for the current zod and zod 4.3, the
// same issues, messages and all.
//
// # How the client checks a chunk
//
// The client (DefaultChatTransport, through parseJsonEventStream) parses
// the data with secureJsonParse, which throws on keys named __proto__, and
// on constructor keys holding a prototype (before vercel/ai#13079, only
// keys written without \u escapes were looked at, and a constructor key
// holding null threw a TypeError), then validates it against
// uiMessageChunkSchema: a z.union of one object per chunk type, strict
// (an unknown key throws) in 5.0.0–5.0.216, 6.0.0–6.0.230 and 7.0.0–7.0.31,
// loose (unknown keys kept) after. An unknown chunk type throws in every
// release. JSON is read as JSON.parse reads it: of duplicate keys the last
// counts, escapes are decoded before keys and values are compared, numbers
// beyond the double range are Infinity (which z.number() rejects).
//
// zod 4 reports a failed union as an invalid_union listing every option's
// issues, unless exactly one option failed without an aborting issue (an
// unknown key, or a failed check such as a string prefix): then that
// option's issues alone. [ChunkError.Issues] keeps zod's form, with the
// options' issues cut to the one option the chunk's type selected (Branch).
//
// # Files
//
//	doc.go        this map
//	release.go    Release, Parse, the release lines and the releases npm never published
//	ranges.go     Ranges: sets of releases, their text form
//	tables.go     the chunk schema of every release, as data, with its sources
//	schema.go     Schema: one release's chunk schema as zod nodes, shared between releases; Describe
//	check.go      CheckChunk: zod's run of a schema over a chunk, quick (no allocation) and with issues
//	json.go       reading valid JSON as JSON.parse does: members, UTF-16 strings, numbers, key order
//	secure.go     provider-utils' secureJsonParse, both versions
//	error.go      ChunkError and Issue, zod's messages
//	skew.go       Skew and Report: a stream read by many releases
//	behaviour.go  Feature: the assembly's switches per release, with their sources
//	testdata/generator/  the Node program that runs the real clients (npm ci && node generate.mjs)
//	testdata/schemas.json testdata/samples.json testdata/verdicts.json  its output
package sdk
