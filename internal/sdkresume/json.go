package sdkresume

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// Canonical returns JSON v with its objects' keys in order, for comparing
// messages built on different paths; "" for none.
func Canonical(t *testing.T, v json.RawMessage) string {
	t.Helper()
	if len(v) == 0 {
		return ""
	}
	var x any
	require.NoError(t, json.Unmarshal(v, &x), "%s", v)
	return JSONOf(t, x)
}

// MessagesOf decodes a result's messages.
func MessagesOf(t *testing.T, v json.RawMessage) []map[string]any {
	t.Helper()
	var ms []map[string]any
	require.NoError(t, json.Unmarshal(v, &ms), "%s", v)
	return ms
}

// JSONOf returns v as JSON, its objects' keys in order.
func JSONOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// ReplayAppended returns the messages the AI SDK 5.0.277 Chat holds after
// a full replay on the same page (vercel/ai#14688): the reference's, the
// assistant message's parts those kept from before the cut followed by
// the whole replay's.
func ReplayAppended(t *testing.T, r Result) string {
	t.Helper()
	ref, cut := MessagesOf(t, r.Reference), MessagesOf(t, r.Cut)
	require.Len(t, ref, 2)
	if len(cut) == 1 {
		return Canonical(t, r.Reference) // nothing of the answer was kept
	}
	require.Len(t, cut, 2)
	kept := cut[1]["parts"].([]any)
	ref[1]["parts"] = append(append([]any(nil), kept...), ref[1]["parts"].([]any)...)
	return JSONOf(t, ref)
}

// V4ReplayAppended returns the messages ai 4.3.19's useChat holds after
// experimental_resume on the page that lost the connection, and got's, as
// V4Duplicate compares them: processChatResponse writes the replay into a
// copy of the assistant message it kept, so its content and its parts are
// those kept followed by the whole replay's.
func V4ReplayAppended(t *testing.T, r Result) (want, got string) {
	t.Helper()
	ref, cut := MessagesOf(t, r.Reference), MessagesOf(t, r.Cut)
	require.Len(t, ref, 2)
	if len(cut) == 1 { // nothing of the answer was kept
		return V4Duplicate(t, ref), V4Duplicate(t, MessagesOf(t, r.Messages))
	}
	require.Len(t, cut, 2)
	out := cut[1]
	out["content"] = cut[1]["content"].(string) + ref[1]["content"].(string)
	out["parts"] = append(append([]any(nil), cut[1]["parts"].([]any)...), ref[1]["parts"].([]any)...)
	return V4Duplicate(t, []map[string]any{ref[0], out}), V4Duplicate(t, MessagesOf(t, r.Messages))
}

// V4Duplicate returns ai 4 messages as JSON without what a replay
// appended to a kept message changes beside its content and parts: the
// step numbers, which go on from the kept message's (a tool invocation's
// step, and the toolInvocations list that carries them), and the revision
// id of the last update.
func V4Duplicate(t *testing.T, ms []map[string]any) string {
	t.Helper()
	for _, m := range ms {
		delete(m, "revisionId")
		delete(m, "toolInvocations")
		parts, _ := m["parts"].([]any)
		for _, p := range parts {
			if inv, ok := p.(map[string]any)["toolInvocation"].(map[string]any); ok {
				delete(inv, "step")
			}
		}
	}
	return JSONOf(t, ms)
}
