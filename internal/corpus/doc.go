// Package corpus reads the corpus, the data in the module's corpus/
// folder: streams of the AI SDK v4 data stream protocol, each with the
// reading the real SDK gives it, for tests across the module; and the
// recorded conformance scenarios chatwire replay judges. It is chatwire's
// own: the data is the users', the accessors the tests'.
//
// The streams live in corpus/streams/ and are read from disk, from the
// corpus directory a caller passes (os.DirFS of corpus/, relative to the
// test's package):
//
//	streams/valid/NAME.stream      written by the SDK's own writers
//	streams/accepted/NAME.stream   odd bytes the SDK's parser accepts
//	streams/invalid/NAME.stream    bytes the SDK's parser rejects on one line
//	streams/CLASS/NAME.expected.jsonl
//	streams/CLASS/NAME.assembly.jsonl  the SDK client's message at every line ([Stream.Assembly])
//	streams/partial-json.jsonl         the SDK's parsePartialJson ([PartialJSONCases])
//	streams/MANIFEST.json
//
// Each NAME.expected.jsonl holds what the SDK's parseDataStreamPart
// (@ai-sdk/ui-utils 1.2.11) returned for the stream: one line
// {"line":N,"code":"0","value":V} per part, V being JSON.stringify of the
// SDK's parsed value, and for an invalid stream a last line
// {"error":{"line":N,"message":"…","kind":"…"}} naming the line the SDK
// rejects. The generator, corpus/generator/generate.mjs, writes every file;
// corpus/README.md says how to rerun it.
//
// [Streams], [AllStreams] and [Load] read them into [Stream] values:
//
//	streams, err := corpus.Streams(os.DirFS("../corpus"), corpus.Valid)
//	for _, s := range streams {
//		d := linestream.NewDecoder(bytes.NewReader(s.Data))
//		...
//	}
//
// The scenarios of transcripts/ are the one part a command reads (chatwire
// replay): they are embedded in the package, as one archive, and
// [Transcripts] serves them; [Scenarios] names them.
//
// # Files
//
//	corpus.go         Stream, the classes, Streams, AllStreams, Load, the expected readings
//	ui.go             UIManifest and UIReadingLine: the UI corpus's manifest and each
//	                  release's reading, read from the directory
//	assembly.go       AssemblyStep and PartialJSONCase: the SDK client's message at every
//	                  line, its parsePartialJson
//	transcripts.go    the recorded scenarios: Transcripts, Scenarios, ScenarioDir
//	embed.go          the embedded archive of corpus/transcripts/ (transcripts.zip.gz)
package corpus
