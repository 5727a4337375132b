// Package client is a Go client of the API: POST /api/chat and its
// follow-up operations, in both stream protocols, with the assistant
// message of each stream assembled exactly as the AI SDK's own client
// assembles it (package message for the v4 data stream, package uimessage
// for the UI message stream), and streams resumed across dropped
// connections as the service's contract says.
//
// A [Client] calls them:
//
//	c, err := client.New("https://api.example.com") // the key from CHATWIRE_API_KEY
//	…
//	s, err := c.CreateChat(ctx, client.Request{Content: "a landing page", Model: client.ModelGammaK3})
//	…
//	defer s.Close()
//	fmt.Println("chat", s.ChatID()) // known once the first line is read
//	res, err := s.Wait()           // or s.Next / s.Part / s.Message part by part
//
// [Client.CreateChat] returns a [ChatStream] once the stream's first part
// is read. The stream is in either protocol of POST /api/chat, told from
// the response as every chatwire command tells it (the SDK's headers or
// text/event-stream, then the first bytes; [WithProtocol] forces one): the
// AI SDK v4 data stream, whose parts and message ai 4.3.19's client
// assembles (package message: [ChatStream.Part], [ChatStream.Message],
// [ChatStream.Wait]), or the UI message stream of AI SDK 5, 6 and 7, read
// and assembled as the release [WithSDK] names (the newest by default)
// reads it (package uimessage: [ChatStream.Chunk], [ChatStream.UIMessage]);
// [ChatStream.AppendMessageJSON] writes either message.
// [Client.CreateChatJSON] asks for the JSON answer ("stream": false)
// instead, and [Client.Follow] opens the stream it names. A [Request]
// mirrors the spec's request body, with the models, execution modes and
// reasoning efforts as constants. [Client.Subscribe], [Client.Status] and
// [Client.Publish] are the follow-up operations the spec only names, in
// the shapes of the chatwire mock (conformance/mock), not the spec's.
//
// # Resuming
//
// A chat stream outlives its connection. With [WithResume] naming the
// service's contract (the AI SDK 5–7 transport's [ResumeAISDK], the
// workflow transport's [ResumeWorkflow], ai 4's [ResumeAISDK4], or the
// spec's subscribe in chatwire's shape, [ResumeSubscribe]), a stream whose
// connection drops before the protocol's end resumes, with backoff and
// jitter, a bound on attempts, Retry-After honoured and the context
// obeyed, and delivers each part once: a replay from the start is matched
// byte for byte against the parts delivered (a difference is
// [ErrReplayMismatch], never merged), an index-based resume asks for the
// next index. The message assembled across resumes is an uncut read's.
// What stops a resume is a [*ResumeError] matching [ErrResumeExhausted],
// [ErrReplayMismatch], [ErrNoStream] or the [*APIError] of the answer
// (410: [ErrStreamEvicted]). [WithIdleTimeout] makes a service that stops
// sending a drop too.
//
// A status other than 2xx is an [*APIError] with the status, the code and
// message of its body (any shape, read to a bound), Retry-After and the
// request id; [errors.Is] matches it against [ErrInvalidRequest] (400,
// 422), [ErrUnauthorized] (401), [ErrInsufficientCredits] (402),
// [ErrForbidden] (403), [ErrStreamEvicted] (410), [ErrRateLimited] (429)
// and [ErrServerError] (5xx). Creating a chat spends credits, so nothing is
// retried unless [WithRetry] asks for retries of 429, which honour
// Retry-After and the context (resuming a stream spends none, and is
// retried as [WithResume] says). Streams are long-lived: bound them with
// the context, not with http.Client.Timeout. The package imports
// client/message, client/uimessage, the decoders (linestream, uistream),
// uistream/sdk and fastjson; its tests run against the mock.
//
// # Files
//
//	client.go         New, the Client and its options (WithAPIKey, WithRetry, …); sending
//	                  with retries of 429
//	request.go        Request, the body of POST /api/chat, with its models, execution modes
//	                  and reasoning efforts; CreateChatJSON and Chat
//	stream.go         CreateChat and ChatStream: the parts or chunks of a stream, the
//	                  message assembled from them, the drops it resumes across
//	protocol.go       Protocol, WithProtocol, WithSDK: the protocol told from a response
//	conn.go           the response a stream reads: the idle timer, the bytes read to
//	                  tell the protocol
//	resume.go         the resume contracts, WithResume and its options, ResumeError,
//	                  the requests and answers of a resume
//	followup.go       Status, Subscribe, Follow, Publish and PublishJSON, the follow-up
//	                  operations
//	error.go          APIError and the sentinels it matches, read from a body of any shape
//	version.go        Version: the module's version, for the User-Agent
//	message/          package message: the assistant message assembled as the AI SDK v4
//	                  client does
//	uimessage/        package uimessage: the UIMessage of the AI SDK 5/6/7 UI message stream
//	                  assembled as each client release does
//	bridge/           package bridge: the v4 data stream and the UI message stream
//	                  translated both ways, part by part, and the proxy behind
//	                  chatwire bridge
//	example/bakery/   the README's program, a client from start to end
package client
