package corpus

import _ "embed"

// transcriptsArchive is the directory transcripts/, the one part of the
// corpus a command reads (chatwire replay), embedded as
// [TranscriptsArchive]: a zip archive of every file under transcripts/,
// stored uncompressed in the order of their base names, gzipped as a whole.
// The streams and the UI corpus are read from disk by the tests that use
// them; the binary does not carry them.
//
// The scenarios repeat each other: most of a fault's transcripts differ from
// the conformant run's only in their header. In the order of their base
// names the same probe's transcripts of every scenario lie side by side, in
// reach of one gzip stream, which keeps the directory's 5.2 MB in about
// 250 KB (zip's own compression, file by file, keeps 3.7 MB).
//
// TestTranscriptsArchive fails when the archive differs from the
// directory; go test ./corpus -run TestTranscriptsArchive -update writes
// it again.
//
//go:embed transcripts.zip.gz
var transcriptsArchive string
