package corpus

import "embed"

// files holds the corpus directories, embedded in the binary. To add a
// directory (such as transcripts), name it on the go:embed line below.
//
//go:embed streams transcripts
var files embed.FS
