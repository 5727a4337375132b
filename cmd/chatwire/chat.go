package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/chatwire/chatwire/client"
	"github.com/chatwire/chatwire/client/message"
	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/conformance"
	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/internal/chatapi"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

const chatUsage = `usage: chatwire chat [-base-url URL] [-protocol P] [-resume CONTRACT] [-sdk VERSION] [-message] PROMPT

Create a chat with PROMPT (one argument: quote it; "-" reads it from
standard input) and print its stream as it arrives, one JSON object a
part, as chatwire decode prints them: the AI SDK v4 data stream's parts

	{"line":N,"code":"0","value":<the raw JSON value>}

or the UI message stream's chunks (AI SDK 5, 6 and 7)

	{"event":N,"line":L,"type":"text-delta","chunk":<the raw JSON chunk>}

their line and event counted in the response that carried them. The
protocol is told from the response (its headers, then its first bytes), as
every chatwire command tells it; -protocol forces it. -message prints
instead, at the end, the message as that SDK client holds it, as decode
-message does: the v4 client's (ai 4.3.19) {"message":…,"data":…,
"finishReason":…,"usage":…}, or the UIMessage of the UI stream's client
(-sdk, ai@%s by default), which stops at an error chunk as useChat does.
What the client throws at ends the stream: what came before is printed,
then the error.

-resume CONTRACT resumes a stream whose connection drops before its end
(a reset, a body that ends without the protocol's end: finish, or d: after
step parts; a gap longer than -first-line-timeout), as the service's
contract says, delivering each part once; each attempt is told on standard
error. The contracts:

	ai-sdk     AI SDK 5-7 useChat: GET /api/chat/{chatId}/stream, the UI
	           stream replayed from its start, matched against the parts
	           already printed; 204: the service has no stream to resume
	workflow   @ai-sdk/workflow: GET /api/chat/{runId}/stream?startIndex=N
	           (the run id from x-workflow-run-id, else the chat id)
	ai-sdk-4   ai 4's experimental_resume: GET /api/chat?chatId=ID, the v4
	           stream replayed from its start
	subscribe  the spec's subscribe, chatwire's shape:
	           GET /api/chat/{chatId}/subscribe?startIndex=N

Without -base-url it chats with the built-in mock (-protocol ui: speaking
the UI message stream) and its test key. With -base-url the key comes from
` + chatapi.EnvAPIKey + ` only, never from a flag.

Exit status: 0 the stream read to its end, 1 the stream failed (what the
client throws at, a drop it could not resume, an answer that is no stream),
2 usage, 3 no stream began (no answer, a status other than 2xx, no first
part within -first-line-timeout) or interrupted (Ctrl-C: what was read is
printed).

Flags:
`

// chatFlags are the flags of chatwire chat.
type chatFlags struct {
	baseURL   string
	protocol  string
	resume    string
	sdk       string
	message   bool
	model     string
	firstLine time.Duration
}

func runChat(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var f chatFlags
	fs := flag.NewFlagSet("chat", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.baseURL, "base-url", "", "base `URL` of the service (requests go to URL/api/chat); without it, the built-in mock")
	fs.StringVar(&f.protocol, "protocol", "auto", "read the stream as `P`: v4 (the AI SDK 4 data stream, the spec's), ui (the UI message stream of AI SDK 5,\n6 and 7) or auto (tell it from the response); without -base-url, -protocol ui starts the built-in mock\nspeaking the UI message stream")
	fs.StringVar(&f.resume, "resume", "", "resume a dropped stream with the service's `CONTRACT`: ai-sdk, workflow, ai-sdk-4 or subscribe\n(default: none, a drop is an error)")
	fs.StringVar(&f.sdk, "sdk", "", "the client `VERSION` that reads the stream: 5, 6 or 7 (the newest of the major) or a release such as\n6.0.0 for the UI message stream, 4 for the v4 client (ai 4.3.19); default: by the protocol, "+sdk.Newest().String()+" for the UI stream")
	fs.BoolVar(&f.message, "message", false, "print the final message as the SDK client holds it, one JSON object, instead of the parts")
	fs.StringVar(&f.model, "model", "", "the request's model (default: the team's configured model)")
	fs.DurationVar(&f.firstLine, "first-line-timeout", conformance.DefaultFirstLineTimeout, "time limit from a request to the first line of its body (and idle gap between lines)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), chatUsage, sdk.Newest())
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "chatwire chat: "+format+"\n", a...)
		return exitUsage
	}
	if f.firstLine <= 0 {
		return usage("-first-line-timeout must be positive, got %v", f.firstLine)
	}
	plan, err := f.plan()
	if err != nil {
		return usage("%v", err)
	}
	switch fs.NArg() {
	case 1:
	case 0:
		return usage("give the prompt as an argument (\"-\" reads it from standard input)")
	default:
		return usage("give the prompt as one argument (quote it), after the flags: got %d arguments, %q", fs.NArg(), fs.Args())
	}
	prompt := fs.Arg(0)
	if prompt == "-" {
		b, err := io.ReadAll(io.LimitReader(stdin, maxPrompt+1))
		switch {
		case err != nil:
			fmt.Fprintf(stderr, "chatwire chat: read the prompt from standard input: %v\n", err)
			return exitFail
		case len(b) > maxPrompt:
			return usage("the prompt on standard input is longer than %d bytes", maxPrompt)
		}
		prompt = strings.TrimSuffix(string(b), "\n")
	}
	base, key := f.baseURL, os.Getenv(chatapi.EnvAPIKey)
	if base == "" {
		mockProto := protocol.V4
		if plan.expect == client.ProtocolUI {
			mockProto = protocol.UI
		}
		u, stop, err := startMock(mock.Options{Protocol: mockProto})
		if err != nil {
			fmt.Fprintf(stderr, "chatwire chat: start the built-in mock: %v\n", err)
			return exitInconclusive
		}
		defer stop()
		if !strings.HasPrefix(key, mock.KeyPrefix) {
			key = mock.KeyValid // a real key in the environment never goes to the mock
		}
		speaking := ""
		if mockProto == protocol.UI {
			speaking = " speaking the UI message stream"
		}
		fmt.Fprintf(stderr, "chatwire: chatting with the built-in mock%s at %s with its test key (%s)\n", speaking, u, mock.KeyValid)
		base = u
	} else {
		if key == "" {
			return usage("%s is not set: a chat with -base-url needs the service's API key in it (keys are never taken from flags)", chatapi.EnvAPIKey)
		}
		if u, err := url.Parse(base); err == nil && strings.HasSuffix(strings.TrimSuffix(u.Path, "/"), chatapi.ChatPath) {
			fmt.Fprintf(stderr, "chatwire: warning: -base-url ends in %s, which chatwire appends itself; the base URL is what comes before it\n", chatapi.ChatPath)
		}
	}
	unit := "parts"
	opts := append(plan.opts, client.WithAPIKey(key), client.WithUserAgent("chatwire/"+version), client.WithIdleTimeout(f.firstLine),
		client.WithOnResume(func(a client.ResumeAttempt) { printResume(stderr, &unit, a) }))
	c, err := client.New(base, opts...)
	if err != nil {
		return usage("-base-url: %v", strings.TrimPrefix(err.Error(), "chatwire: "))
	}
	return chat(ctx, c, client.Request{Content: prompt, Model: client.Model(f.model)}, plan, f.message, &unit, stdout, stderr)
}

// maxPrompt bounds a prompt read from standard input.
const maxPrompt = 1 << 20

// chatPlan is what the flags ask of the client: its options, the protocol
// they expect the service to stream (or ProtocolAuto) and why.
type chatPlan struct {
	opts    []client.Option
	expect  client.Protocol
	why     string // the flag that expects it
	resumes bool   // -resume was given
}

// plan reads the protocol, client and contract flags, which must agree on
// the protocol they name.
func (f *chatFlags) plan() (chatPlan, error) {
	var p chatPlan
	expect := func(proto client.Protocol, why string) error {
		if p.expect != client.ProtocolAuto && p.expect != proto {
			return fmt.Errorf("%s is for the %s, and %s for the %s: give one of them", p.why, streamName(p.expect), why, streamName(proto))
		}
		if p.expect == client.ProtocolAuto {
			p.expect, p.why = proto, why
		}
		return nil
	}
	forced, err := client.ParseProtocol(f.protocol)
	if err != nil {
		return p, fmt.Errorf("-protocol: %v", strings.TrimPrefix(err.Error(), "chatwire: "))
	}
	if forced != client.ProtocolAuto {
		p.opts = append(p.opts, client.WithProtocol(forced))
		p.expect, p.why = forced, "-protocol "+forced.String()
	}
	if f.sdk != "" {
		v4, rel, err := parseClient(f.sdk)
		if err != nil {
			return p, fmt.Errorf("-sdk: %v", err)
		}
		if v4 {
			err = expect(client.ProtocolV4, "-sdk "+f.sdk+" (the v4 client)")
		} else {
			p.opts = append(p.opts, client.WithSDK(rel))
			err = expect(client.ProtocolUI, "-sdk "+f.sdk+" (ai@"+rel.String()+")")
		}
		if err != nil {
			return p, err
		}
	}
	if f.resume != "" {
		contract, err := client.ParseResumeContract(f.resume)
		if err != nil {
			return p, fmt.Errorf("-resume: %v", strings.TrimPrefix(err.Error(), "chatwire: "))
		}
		p.opts = append(p.opts, client.WithResume(contract))
		p.resumes = true
		switch contract {
		case client.ResumeAISDK, client.ResumeWorkflow:
			err = expect(client.ProtocolUI, "-resume "+f.resume)
		case client.ResumeAISDK4:
			err = expect(client.ProtocolV4, "-resume "+f.resume)
		}
		if err != nil {
			return p, err
		}
	}
	return p, nil
}

// streamName names a protocol's stream in messages.
func streamName(p client.Protocol) string {
	if p == client.ProtocolUI {
		return "UI message stream"
	}
	return "v4 data stream"
}

// chat creates the chat and prints its stream, or its message.
func chat(ctx context.Context, c *client.Client, r client.Request, plan chatPlan, asMessage bool, unit *string, stdout, stderr io.Writer) int {
	s, err := c.CreateChat(ctx, r)
	if err != nil {
		return chatNotStarted(ctx, err, stderr)
	}
	defer s.Close()
	one := "part"
	if s.Protocol() == client.ProtocolUI {
		one = "chunk"
	}
	*unit = one + "s"
	if plan.expect != client.ProtocolAuto && s.Protocol() != plan.expect {
		fmt.Fprintf(stderr, "chatwire chat: the service streams the %s, and %s is for the %s\n", streamName(s.Protocol()), plan.why, streamName(plan.expect))
		return exitFail
	}
	out := bufio.NewWriter(stdout)
	var rec record
	parts := 0
	for s.Next() {
		parts++
		if asMessage {
			continue
		}
		if s.Protocol() == client.ProtocolUI {
			out.Write(rec.uiChunk(s.Chunk()))
		} else {
			out.Write(rec.v4Part(s.Part()))
		}
		if err := out.Flush(); err != nil { // a part as it arrives
			fmt.Fprintf(stderr, "chatwire chat: %v\n", err)
			return exitFail
		}
	}
	if asMessage {
		out.Write(append(s.AppendMessageJSON(nil), '\n'))
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "chatwire chat: %v\n", err)
		return exitFail
	}
	if ctx.Err() != nil {
		fmt.Fprintf(stderr, "chatwire chat: interrupted after %s of chat %s; what was read is above\n", count(parts, one, *unit), s.ChatID())
		return exitInconclusive
	}
	if err := s.Err(); err != nil {
		fmt.Fprintf(stderr, "chatwire chat: %s\n", strings.TrimPrefix(err.Error(), "chatwire: "))
		if !plan.resumes && dropped(err) {
			contracts := "ai-sdk-4 or subscribe"
			if s.Protocol() == client.ProtocolUI {
				contracts = "ai-sdk, workflow or subscribe"
			}
			fmt.Fprintf(stderr, "chatwire chat: the connection dropped before the stream's end; where the service keeps its streams, -resume with its contract (%s) resumes it\n", contracts)
		}
		return exitFail
	}
	return exitOK
}

// dropped reports whether err, a stream's error, is its connection's loss:
// not what the client throws at, a service's answer, nor the idle timeout.
func dropped(err error) bool {
	var apiErr *client.APIError
	return !thrownAt(err) && !errors.As(err, &apiErr) && !errors.Is(err, client.ErrIdleTimeout)
}

// thrownAt reports whether err is the service's stream at fault: a line or
// chunk the SDK's client throws at, or an answer that is no stream.
func thrownAt(err error) bool {
	var se *linestream.SyntaxError
	var ue *uistream.SyntaxError
	var rde *uimessage.ReadError
	var ae *message.AssemblyError
	return errors.As(err, &se) || errors.As(err, &ue) || errors.As(err, &rde) || errors.As(err, &ae) ||
		errors.Is(err, client.ErrUnexpectedResponse)
}

// chatNotStarted reports a create that gave no stream and returns the
// exit status: 1 where the service answered 2xx with what is no stream,
// or a stream the client throws at or could not resume before its first
// part; 3 where no stream began (interrupted, no answer, a status other
// than 2xx, nothing within -first-line-timeout).
func chatNotStarted(ctx context.Context, err error, stderr io.Writer) int {
	msg := strings.TrimPrefix(err.Error(), "chatwire: ")
	var apiErr *client.APIError
	var re *client.ResumeError
	code := exitInconclusive
	switch {
	case ctx.Err() != nil:
		msg = "interrupted before the stream began"
	case errors.As(err, &re), thrownAt(err):
		code = exitFail
	case errors.Is(err, client.ErrUnauthorized), errors.Is(err, client.ErrForbidden):
		msg += "; is " + chatapi.EnvAPIKey + " the service's key?"
	case errors.As(err, &apiErr) && (apiErr.StatusCode == 404 || apiErr.StatusCode == 405):
		msg += "; is -base-url what comes before " + chatapi.ChatPath + "?"
	case errors.Is(err, client.ErrIdleTimeout):
		msg += " (-first-line-timeout)"
	}
	fmt.Fprintf(stderr, "chatwire chat: %s\n", msg)
	return code
}

// printResume tells an attempt to resume on standard error; unit names
// the stream's parts ("parts" until the protocol is known).
func printResume(w io.Writer, unit *string, a client.ResumeAttempt) {
	fmt.Fprintf(w, "chatwire chat: lost the stream after %d %s: %v; resuming (%s), attempt %d, in %v\n",
		a.Delivered, *unit, a.Cause, a.Contract, a.Attempt, a.Wait.Round(time.Millisecond))
}
