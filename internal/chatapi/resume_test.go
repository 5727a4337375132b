package chatapi

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestResumeTarget(t *testing.T) {
	for _, tt := range []struct {
		name, contract, id, streamID string
		index                        int
		want                         string
	}{
		{"ai-sdk", ResumeAISDK, "chat_1", "", 7, "/api/chat/chat_1/stream"},
		{"workflow", ResumeWorkflow, "run_1", "", 7, "/api/chat/run_1/stream?startIndex=7"},
		{"ai-sdk-4", ResumeAISDK4, "a b&c", "", 7, "/api/chat?chatId=a+b%26c"},
		{"subscribe", ResumeSubscribe, "chat_1", "", 0, "/api/chat/chat_1/subscribe?startIndex=0"},
		{"subscribe a stream", ResumeSubscribe, "chat_1", "strm_2", 3, "/api/chat/chat_1/subscribe?startIndex=3&streamId=strm_2"},
		{"an id escaped in the path", ResumeAISDK, "a/b", "", 0, "/api/chat/a%2Fb/stream"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, ResumeTarget(ChatPath, tt.contract, tt.id, tt.index, tt.streamID))
		})
	}
	assert.True(t, ResumeReplays(ResumeAISDK) && ResumeReplays(ResumeAISDK4))
	assert.False(t, ResumeReplays(ResumeWorkflow) || ResumeReplays(ResumeSubscribe))
}
