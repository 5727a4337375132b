// Command service is docs/resumable.md's program: a chat service of about
// 40 lines whose UI message stream outlives its connection. POST
// /api/chat {"id": CHAT} answers a stream; GET /api/chat/CHAT/stream
// resumes it as AI SDK 5–7's useChat({resume: true}) does (and, with
// ?startIndex=N, as the workflow transport does), on this instance or,
// with -store redis://HOST:PORT/DB, on any instance that shares the Redis.
//
//	go run ./resumable/example/service -addr 127.0.0.1:8080 -store memory
//
// # Files
//
//	main.go       the service
package main
