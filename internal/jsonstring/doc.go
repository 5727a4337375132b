// Package jsonstring converts between JSON string tokens and the text
// they hold, as JavaScript does: [AppendUnquote] decodes a token as
// JSON.parse hands it to the AI SDK, [AppendQuote] writes text as
// JSON.stringify does. Invalid UTF-8 becomes U+FFFD, one per maximal
// ill-formed subsequence, as the WHATWG TextDecoder (and so the SDK) reads
// it.
//
// It is what the module's stream packages share: linestream and uistream
// (their encoders and text accessors) and internal/jsvalue (the assembled
// message) all write and read JSON strings through it, so none imports
// another for them. linestream's AppendQuoted and AppendString are its
// public faces. It is internal: its API serves those packages, not users.
//
// # Files
//
//	quote.go     AppendQuote: text to a JSON string token, as JSON.stringify writes it
//	unquote.go   AppendUnquote: a JSON string token to its text, as JSON.parse reads it;
//	             Unescape, one escape
package jsonstring
