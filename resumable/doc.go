// Package resumable makes a chat stream outlive its connection: a Go
// service writes its stream through a [Writer], which keeps each line or
// chunk with its index in a [Store] while it goes to the live response,
// and mounts [Handlers] that answer every way a real client resumes, from
// the store. It is a top-level package, beside linestream and uistream,
// because it is the service's side of those protocols: a service imports
// it to make its stream resumable, whichever protocol it writes (the AI
// SDK v4 data stream, or the UI message stream of AI SDK 5, 6 and 7),
// without any of chatwire's tools.
//
//	store := resumable.NewMemory(resumable.MemoryOptions{})
//	h := &resumable.Handlers{Store: store, Authenticate: …}
//	mux.HandleFunc("GET /api/chat/{id}/stream", h.Stream)       // ai-sdk and workflow
//	mux.HandleFunc("GET /api/chat/{id}/subscribe", h.Subscribe) // the spec's subscribe
//	mux.HandleFunc("GET /api/chat", h.AISDK4)                    // ai 4's ?chatId=
//	mux.HandleFunc("POST /api/chat/{id}/stop", h.Stop)
//
//	// in the POST handler, after the response's headers:
//	sw := resumable.NewWriter(context.WithoutCancel(r.Context()), store, w,
//		resumable.Meta{ID: streamID, ChatID: chatID, Owner: team, Protocol: resumable.UI})
//	uw := uistream.NewWriter(sw)
//	… uw.Chunk(…) for each chunk, uw.Done() …
//	err := sw.Close() // the store's error, if it failed (the live response went on)
//
// # The contracts
//
// Each handler answers one contract, as its real client reads it (the
// facts and their sources: chatwire's reference/resume-contracts.md):
//
//   - ai-sdk, [Handlers.AISDK]: AI SDK 5, 6 and 7's
//     DefaultChatTransport.reconnectToStream (useChat({resume: true})),
//     GET {api}/{chatId}/stream with no cursor. 204 when there is no
//     stream to resume, an unknown chat included (a 404 puts
//     useChat({resume: true}) in error on mount); 200, the UI stream
//     replayed from its start, its start chunk carrying the same
//     messageId as the first time (so that ai 7.0.61+, 6.0.250+ and
//     5.0.233+ replace the message instead of adding a copy), live to its
//     end.
//   - workflow, [Handlers.Workflow]: @ai-sdk/workflow's
//     WorkflowChatTransport, which needs the POST's x-workflow-run-id
//     ([HeaderRunID], set by [NewWriter] from [Meta.RunID]) and resumes
//     with GET {api}/{runId or chatId}/stream?startIndex=N. 200, the
//     chunks from index N, with [HeaderTailIndex]; a negative N counts
//     from the tail. Never 204, an error to this transport: an unknown id
//     is 404.
//   - ai-sdk-4, [Handlers.AISDK4]: ai 4.3's experimental_resume, GET
//     {api}?chatId=ID. 200, the v4 data stream replayed from its 2: line;
//     an unknown chat 404; never 204 (the client throws "The response body
//     is empty.").
//   - subscribe, [Handlers.Subscribe]: the spec's GET
//     {api}/{chatId}/subscribe, by chatwire's convention:
//     ?startIndex=N&streamId=S (both optional), the stream of the chat's
//     latest message (or of stream S) in its protocol from index N.
//
// [Handlers.Stream] tells the first two apart on their one route: a
// startIndex query parameter is the workflow transport's. Every handler
// authenticates first (the service's [Handlers.Authenticate], which
// answers 401 itself), then authorizes the chat's owner (403). After its
// end a stream stays readable by every contract for the store's time to
// live, so that a client that lost the connection just before the end
// still gets the whole answer ([Handlers.AfterEnd] gives the ai-sdk
// route the docs' 204 instead). A stream the bounds dropped is answered
// 410 Gone, code "stream_evicted", with why (age, bytes, chunks,
// streams), never 204 or a short stream that looks complete; the one
// exception is the ai-sdk route for a chat whose stream finished and then
// outlived its time to live, which answers 204: the chat has nothing to
// resume, as the docs' server says from the end on, and a 410 would put
// every old chat's page in error on mount. A stream its producer cut is
// answered 500, code "stream_cut", and a reader following it live sees
// its response broken.
//
// # Index spaces
//
// An index counts the items of one stream (the answer to one message),
// from 0, in the stream's protocol:
//
//   - v4: each line of the data stream, its 2: line index 0; blank lines
//     are not lines.
//   - UI: each chunk, that is each SSE event with data, but "data: [DONE]";
//     comments (keep-alives) are not chunks. This is what the workflow
//     transport counts as chunks received (every event that parses, of
//     whatever type: start, start-step and finish included).
//
// A [Writer] gives each line or chunk its index as it is written, so the
// workflow transport's startIndex N (the chunks it received) is the index
// of the chunk it needs next, and the tail index (of the last chunk so
// far) is the stream's length minus one.
//
// # Stores and their bounds
//
// A [Store] has the shape of Redis Streams: Append is XADD with a cap,
// Read is XRANGE and, waiting, XREAD BLOCK, End writes an end marker with
// its reason ([Finished], [Stopped], [Cut]), each write renews the
// stream's time to live, and a chat id (its active and latest streams)
// and a run id are keys of the same store. [Memory] is the in-memory
// store, the default, for one process; its [Bounds], each enforced and
// named when it drops something ([EvictedError], [WhyAge], [WhyBytes],
// [WhyChunks], [WhyStreams]):
//
//	TTL            1h        a stream is kept this long after its last write
//	MaxChunks      100,000   items per stream; the oldest dropped past it
//	MaxBytes       8 MiB     bytes per stream (items plus 32 each); the oldest dropped past it
//	MaxStreams     10,000    streams; the first ended, else the least recently written, evicted past it
//	MaxTotalBytes  256 MiB   bytes of all streams; evicted as for MaxStreams
//
// So a Memory store holds at most MaxTotalBytes of stream data, plus the
// records of at most 2×MaxStreams chats and MaxStreams evictions.
//
// [Redis] is the store on Redis Streams, for a service on more than one
// instance: the same bounds (the same defaults), enforced in Redis for
// every instance that shares its key prefix, each on Redis's clock; its
// writes batched, one round trip a batch (see its doc for the batch
// rule); a Redis that fails or loses its data named to the writer once
// and to every reader ([ErrLost]). [Open] makes either from a URL
// ("memory", "redis://HOST:PORT/DB"), for a flag.
//
// # Files
//
//	store.go      Store, Meta, Info, Batch, Chat, End: the interface every store keeps
//	error.go      the sentinel errors and EvictedError
//	memory.go     Memory, the in-memory Store, and its Bounds
//	redis.go      Redis, the Store on Redis Streams: its batches, its faults
//	redis_lua.go  the Redis store's keys and the scripts that keep them
//	open.go       Open: a store named by a URL
//	writer.go     Writer: a stream kept with its indexes while it goes live
//	split.go      the lines and chunks a Writer reads from what is written
//	handler.go    Handlers: the four contracts and the stop
//	stop.go       Stop: a stream ended for every reader
//	internal/     storetest: the tests every Store passes (Memory's and Redis's)
//	example/      service: docs/resumable.md's program, a service of 40 lines made resumable
package resumable
