package catalogue

import (
	"github.com/chatwire/chatwire/conformance/internal/check"
	"github.com/chatwire/chatwire/conformance/internal/judge"
)

// This file holds the checks of what a client's user is left with once a
// stream of a created chat has ended (package internal/reading reads it), in both
// protocols: the message is there, finished, shown once, unaltered, about
// this chat; an error is named and never followed by a claim of success.
// The other stream checks fail what makes a client throw; these fail what a
// client reads without a word and shows wrong. The chat was paid for.

// Requirements quoted from chat-api.md that the end-state checks stand on.
const (
	reqCreates  = "Creates a new chat session and starts the AI workflow."
	reqUniqueID = "`chatId` | string | always | Unique chat identifier."
)

// The IDs of the end-state checks.
const (
	checkMessageNotEmpty  = "chat/4.5/message-not-empty"
	checkMessageComplete  = "chat/4.5/message-complete"
	checkMessageOnce      = "chat/4.5/message-once"
	checkMessageUnaltered = "chat/4.5/message-unaltered"
	checkMessageChat      = "chat/4.5/message-chat"
	checkStreamError      = "chat/4.5/stream-error"
	checkChatIDUnique     = "chat/4.4/chat-id-unique"
)

// endChecks are the checks of a stream's end state.
func endChecks() []check.Check {
	streamProbe := []string{"stream-default"}
	end := func(id, title string, req string, expected []string, j func(check.Observed) (check.Verdict, bool)) check.Check {
		return check.Bind(check.Check{ID: id, Section: "4.5", Title: title, Level: check.Must, Kind: check.KindInvariant, Requirement: req,
			Expected: expected, Probes: streamProbe}, check.Judge{Each: j})
	}
	return []check.Check{
		end(checkMessageNotEmpty, "a created chat's stream leaves its user a message to read", reqCreates+" … "+reqProgress,
			[]string{"the message each client holds at the end has text, reasoning, a tool call, a file, a source or data",
				"unless the client shows an error; the newest release of a maintained major left with an empty message: fail, an older one alone: warn"},
			judge.MessageNotEmpty),
		end(checkMessageComplete, "a stream ends as a finished turn, which the client can tell from a cut", reqCreates+" … "+reqProgress,
			[]string{"UI: a finish chunk, no abort, no part left streaming (text, reasoning, tool input) in the message of any client that shows no error",
				"v4: a stream framed in the AI SDK's step parts (f:, e:, d:) ends with d:, every step closed, no tool call left partial; one of the 2: and 0: parts alone: info (the spec shows no end marker)",
				"the connection broken after the head: fail; the reader's own cap or timeout before the end: inconclusive (raise -timeout or -max-body)"},
			judge.MessageComplete),
		end(checkMessageOnce, "a client shows each part the service sent once", reqProgress,
			[]string{"no tool call in two parts, no text or reasoning block shown more often than it was sent, no file or source twice",
				"in the message of every client that shows no error (the newest of a major harmed: fail; only older ones: warn)"},
			judge.MessageOnce),
		end(checkMessageUnaltered, "a client shows what the service sent: nothing dropped, lost or changed", reqProgress,
			[]string{"UI: no chunk outside a data: field, which every client drops", "no byte that is not UTF-8 (the client shows U+FFFD)",
				"every text and reasoning block, tool call, file and source the service sent is in the message of every client that shows no error (the newest of a major harmed: fail; only older ones: warn)"},
			judge.MessageUnaltered),
		end(checkMessageChat, "a stream says which chat it is about, and no other", reqChatID+" … "+reqStreamID,
			[]string{"UI: a chat id where a caller can read it: a response header, a chunk's messageMetadata.chatId (chatwire's convention: the start chunk's, see chat/4.5/ui-chat-id) or a data part's chatId; none anywhere: fail",
				"the chat ids a stream names agree (v4: no later 2: part names another chatId)"},
			judge.MessageChat),
		end(checkStreamError, "an error in a stream is named, and never followed by a claim of success", reqCreates+" … "+reqStatuses,
			[]string{"an error chunk (UI) or error part 3: (v4) in a chat the run created: warn, naming it (useChat ends with status error)",
				"a finish after the error that claims a finishReason other than \"error\": fail (a reader that goes on past the error sees success)"},
			judge.StreamError),
		check.Bind(check.Check{ID: checkChatIDUnique, Section: "4.4", Title: "every chat the run creates has its own chat id",
			Level: check.Must, Kind: check.KindInvariant, Requirement: reqUniqueID,
			Expected: []string{"no two chats created in the run (JSON responses and streams) carry the same chatId"},
			Probes:   []string{"json", "stream-default"}}, check.Judge{Across: judge.ChatIDUnique}),
	}
}
