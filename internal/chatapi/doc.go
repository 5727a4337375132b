// Package chatapi holds the facts of the chat API spec (chat-api.md) that
// more than one of chatwire's packages states, each written once: the path
// of the create operation, the request body's table and the Attachment's
// (field names, types, presence, allowed values), the model sets, the
// status table and the default backend; and the environment variable
// chatwire reads the API key from, which is chatwire's name (the spec
// names none) shared by the client, the checker and the meter.
//
// The client's public constants (client.ModelGammaK3, client.EnvAPIKey, …),
// the checker's tables (conformance/internal/spectable) and the mock are defined
// from them. TestSpec reads every fact here against the spec's copy in the
// repository, conformance/testdata/chat-api.md.
//
// The package imports nothing but the standard library: any package of
// chatwire may import it, and the client's allowed imports (.ci/run's
// client_allowed) name it.
//
// # Files
//
//	chatapi.go   the create path, the default backend, the status table, the key's variable
//	resume.go    the resume contracts' names and the request that resumes by each
//	table.go     Field and Type: the request body's and the Attachment's tables as data,
//	             with the execution modes and reasoning efforts
//	model.go     the current and earlier model sets
package chatapi
