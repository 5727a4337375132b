// Package jsvalue emulates the JavaScript values an AI SDK client holds,
// for the packages that assemble messages as the SDK does (client/message
// for the v4 data stream; the UI messages of SDK 5 and later will share it):
// what JSON.stringify(JSON.parse(v)) writes, JavaScript's strings held as
// WTF-8, and the SDK's repair of incomplete JSON. It knows no stream
// protocol: it reads JSON values and string tokens that a decoder has
// validated.
//
// # Values
//
// A [Writer] writes a JSON value as JSON.stringify(JSON.parse(value))
// writes it, which is what the SDK holds for every value it passes
// through: whitespace dropped; numbers as JavaScript prints a double
// (1.0 → 1, 1E2 → 100, 1e21 → 1e+21, -0 → 0, beyond the double range
// null; [AppendFloat]); strings escaped as JSON.stringify escapes them
// (internal/jsonstring's AppendQuote, no HTML escaping); object keys in
// JavaScript's property order, integer-like keys ("0" to "4294967294")
// first in ascending order, then the others as they first appeared, a
// duplicated key with its last value. A value already in that form, nearly
// all, is copied as it stands ([CanonicalEnd] finds it). [Lookup],
// [Lookup2] and [EachMember] read the members of a valid object in place.
//
// The values are read with this package's scanner over bytes the decoder
// has validated, not with fastjson: fastjson refuses nesting deeper than
// 300 (the SDK takes 500 and more), keeps a lone surrogate escape as the
// six characters "\ud800" (indistinguishable from an escaped backslash),
// and would build a tree of each value only for it to be walked once.
//
// # Text
//
// JavaScript holds a string as UTF-16 code units; a Go string holds every
// such string in WTF-8, which is UTF-8 except that a lone surrogate (a
// "\ud83d" escape without its other half) is its 3-byte form that UTF-8
// forbids. [AppendText] decodes a JSON string token to it (invalid UTF-8 as
// U+FFFD, as the SDK's TextDecoder reads it), [AppendQuoted] writes it back
// as JSON.stringify does, and a [String] extends it as JavaScript's +=
// does: halves of a surrogate pair that meet at the seam join into one
// character. On amd64 with AVX2 and BMI2 the text is decoded 32 bytes at
// a time in assembly (vector_amd64.s), which the portable code, the
// reference, is tested against byte for byte; [SetVectorText] switches
// between them.
//
// # Partial JSON
//
// [ParsePartialJSON] and [AppendFixedJSON] are the SDK's parsePartialJson
// and fixJson (@ai-sdk/ui-utils 1.2.11), which read the args text of a
// tool call that is still streaming. A [StreamedJSON] is such a text
// growing by deltas: fixJson walks each delta once, and the text is
// repaired and parsed only when its value is asked for. With
// [StreamedJSON.SetCutEscape] it is the fixJson of ai 6.0.208 and later,
// which repairs a text cut inside a \u escape to the text before it.
//
// # Files
//
//	writer.go         Writer: a JSON value as JSON.stringify(JSON.parse(v)) writes it
//	canonical.go      CanonicalEnd: the values already in that form, copied as they stand
//	number.go         numbers as JavaScript prints them
//	scan.go           valid JSON read in place: Lookup, Lookup2, EachMember, the ends of
//	                  values
//	text.go           AppendText: JSON string text decoded to WTF-8, the portable code (the
//	                  reference of the vector decoder)
//	wtf8.go           WTF-8 (lone surrogates in a Go string), AppendQuoted, JoinSeam
//	string.go         String and Tail: a JavaScript string extended as += extends it
//	fixjson.go        the SDK's fixJson: AppendFixedJSON and the fixer that walks a
//	                  growing text once
//	partialjson.go    the SDK's parsePartialJson: ParsePartialJSON, PartialParser
//	streamedjson.go   StreamedJSON: a JSON text arriving in pieces, read after each
//	vector.go         the switch between the text decoders (SetVectorText)
//	vector_amd64.go, vector_amd64.s, vector_other.go
//	                  textVector: the text decoded 32 bytes at a time with AVX2 and BMI2;
//	                  none elsewhere or with -tags purego (vector_amd64.s is generated)
//	_asm/             the avo program that writes vector_amd64.s (its own module; README.md: the
//	                  maintainer's page)
package jsvalue
