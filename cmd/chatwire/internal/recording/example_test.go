package recording_test

import (
	"context"
	"fmt"

	"github.com/chatwire/chatwire/cmd/chatwire/internal/recording"
	"github.com/chatwire/chatwire/conformance"
)

// Replay judges a recording again, here the corpus's recording of the
// mock with its malformed-line fault, with -strict as a live run would
// have judged it.
func ExampleReplay() {
	dir := "../../../../corpus/transcripts/fault-malformed-line"
	ts, err := recording.ReadPaths([]string{dir})
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, _, err := recording.Replay(context.Background(), conformance.Config{Strict: true}, ts, dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rep.Results {
		if r.Outcome == conformance.Fail {
			fmt.Println(r.ID, r.Outcome, r.Transcripts)
		}
	}
	fmt.Printf("%d pass, %d fail\n", rep.Summary.Pass, rep.Summary.Fail)
	// Output:
	// chat/4.5/line-grammar fail [../../../../corpus/transcripts/fault-malformed-line/stream-default.chatlog.jsonl]
	// 103 pass, 1 fail
}
