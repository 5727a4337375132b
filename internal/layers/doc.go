// Package layers states which way imports run in the module and keeps it
// so: its test reads the imports of every package and fails on one that
// runs the wrong way.
//
// Imports run one way: commands → tools (conformance, bench) → client and
// its assemblies → decoders (linestream, uistream) → internal core. Three
// rules of that order are checked here:
//
//   - A package under internal/ imports no package of the module outside
//     internal/: what a public package and internal code share sits in
//     internal (internal/jsonstring holds the JSON text functions that
//     linestream, uistream and internal/jsvalue all use). The one
//     exception is internal/live, the meter: a tool of chatwire's own,
//     which chatwire bench and the k6 extension (bench/xk6, a module of
//     its own) share, so that it can sit under neither; it reads streams
//     with the public decoders, and no core package imports it.
//   - The decoders, linestream and uistream with the packages below them,
//     import no other public package of the module: not each other, and
//     nothing above them. What two decoders share goes down into
//     internal, never sideways into one of them.
//   - The checker's packages import one another one way: the vocabulary
//     (conformance/internal/check) ← the judges (internal/judge) ← the
//     catalogue (internal/catalogue) ← the run (conformance) → the HTTP
//     exchanger (internal/exchange) → the reading of a body
//     (internal/reading). The catalogue builds on the spec's tables
//     (internal/spectable) and the judges quote bytes as a reading does;
//     check, reading and spectable import none of the others, no judge
//     imports the catalogue or the run, and the exchanger, which records
//     and reads, imports no judge and no catalogue.
//
// The rules hold for the code a package is built from, on every platform
// and build tag; tests may read fixtures from anywhere.
//
// # Files
//
//	layers_test.go  the rules, checked on the module's imports and on a
//	                made-up module that breaks each
package layers
