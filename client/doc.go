// Package client is a Go client of the API: POST /api/chat and its
// follow-up operations, with the assistant message of each stream assembled
// by package message exactly as the AI SDK's own client assembles it.
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
// [Client.CreateChat] returns a [ChatStream] once the stream's first line,
// 2:[{"chatId":…}], is read; the stream hands out the parts and the
// message a [message.Assembler] builds from them. [Client.CreateChatJSON] asks for
// the JSON answer ("stream": false) instead. A [Request] mirrors the spec's
// request body, with the models, execution modes and reasoning efforts as
// constants. [Client.Subscribe], [Client.Status] and [Client.Publish] are
// the follow-up operations the spec only names, in the shapes of the
// chatwire mock (conformance/mock), not the spec's.
//
// A status other than 2xx is an [*APIError] with the status, the code and
// message of its body (any shape, read to a bound), Retry-After and the
// request id; [errors.Is] matches it against [ErrInvalidRequest] (400,
// 422), [ErrUnauthorized] (401), [ErrInsufficientCredits] (402),
// [ErrForbidden] (403), [ErrRateLimited] (429) and [ErrServerError] (5xx).
// Creating a chat spends credits, so nothing is retried unless
// [WithRetry] asks for retries of 429, which honour Retry-After and the
// context. Streams are long-lived: bound them with the context, not with
// http.Client.Timeout. The package imports only client/message, linestream
// and fastjson; its tests run against the mock.
//
// # Files
//
//	client.go         New, the Client and its options (WithAPIKey, WithRetry, …); sending
//	                  with retries of 429
//	request.go        Request, the body of POST /api/chat, with its models, execution modes
//	                  and reasoning efforts; CreateChatJSON and Chat
//	stream.go         CreateChat and ChatStream: the parts of a stream and the message
//	                  package message assembles from them
//	followup.go       Status, Subscribe, Publish and PublishJSON, the follow-up operations
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
