package chatapi

import (
	"net/url"
	"strconv"
	"strings"
)

// The resume contracts, by the names chatwire's flags and options use
// (RESUME conventions; reference/resume-contracts.md has each client's
// source).
const (
	ResumeAISDK     = "ai-sdk"    // AI SDK 5–7: GET {api}/{chatId}/stream, a replay from the start
	ResumeWorkflow  = "workflow"  // @ai-sdk/workflow: GET {api}/{runId}/stream?startIndex=N
	ResumeAISDK4    = "ai-sdk-4"  // ai 4's experimental_resume: GET {api}?chatId=ID, a replay
	ResumeSubscribe = "subscribe" // the spec's subscribe, chatwire's shape: GET {api}/{chatId}/subscribe?startIndex=N&streamId=S
)

// ResumeReplays reports whether the contract answers with the stream from
// its start (ai-sdk, ai-sdk-4) rather than from the index asked for.
func ResumeReplays(contract string) bool {
	return contract == ResumeAISDK || contract == ResumeAISDK4
}

// ResumeTarget returns the path and query that resume a stream by
// contract: api is the create's path (ChatPath), id the chat id (a run
// id for the workflow contract where the create named one), index the
// items already received (the index of the next), streamID subscribe's
// streamId ("" for none). The id is escaped where it goes.
func ResumeTarget(api, contract, id string, index int, streamID string) string {
	api = strings.TrimSuffix(api, "/")
	n := strconv.Itoa(index)
	switch contract {
	case ResumeAISDK:
		return api + "/" + url.PathEscape(id) + "/stream"
	case ResumeWorkflow:
		return api + "/" + url.PathEscape(id) + "/stream?startIndex=" + n
	case ResumeAISDK4:
		return api + "?chatId=" + url.QueryEscape(id)
	}
	q := url.Values{"startIndex": {n}}
	if streamID != "" {
		q.Set("streamId", streamID)
	}
	return api + "/" + url.PathEscape(id) + "/subscribe?" + q.Encode()
}
