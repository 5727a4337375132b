// Package sdkresume runs the real resuming clients of the AI SDK, the Node
// program conformance/mock/testdata/sdkresume/resume.mjs (ai 5.0.277,
// 6.0.326 and 7.0.173's Chat over DefaultChatTransport as
// useChat({resume: true}) drives it, @ai-sdk/workflow 2.0.43's
// WorkflowChatTransport, ai 4.3.19's experimental_resume), for the tests
// that have them resume a cut stream: the mock's (conformance/mock's
// TestResumeRealClients*) and the bridge's (client/bridge's
// TestResumeRealClientsThroughBridge). One npm install serves both.
//
// It holds what those tests share: a run's spec and result as resume.mjs
// reads and writes them (Spec, Result), the node invocation (Run, and
// NeedNodePackages, which skips a test where node or the packages are
// missing, unless CI=true), the messages as JSON to compare (Canonical,
// MessagesOf, JSONOf, and the replays the releases known to append one
// hold: ReplayAppended, V4ReplayAppended), and the assertions that apply
// to every server a client resumes from: the cut POST (AssertPOSTCut), the
// message the client ends with and the resume requests it sent, against
// the contract it resumes by (AssertResumed), and the answers to a resume
// of a chat nobody made or without the right key (AssertConformant). The
// scenarios of each client (Scenarios) and the tail scenario's start
// index (LastStepTail) are the same for both.
//
// It imports no public package of the module (internal/layers): the
// servers the clients read are the tests' own.
//
// # Files
//
//	doc.go      this documentation
//	run.go      Spec, Result, Request: a run and its result; Scenarios; Run, NeedNodePackages, RunNode
//	json.go     Canonical, MessagesOf, JSONOf; the appended replays
//	assert.go   AssertConformant, AssertPOSTCut, AssertResumed, AssertQuiet: what each client ends with
package sdkresume
