package client

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/valyala/fastjson"

	"github.com/chatwire/chatwire/internal/chatapi"
)

// A Request is the body of POST /api/chat, field for field as the spec's
// request body table gives it (section 4). Fields left at their zero value
// are not sent, so the service applies its defaults. The spec's "stream"
// field is chosen by the method: [Client.CreateChat] sends true,
// [Client.CreateChatJSON] false.
type Request struct {
	// Content is the user's message or prompt (required; sent even when
	// empty).
	Content string `json:"content"`
	// Backend names the backend; "" sends nothing, which the service takes
	// as [BackendDefault]. Other values are not listed by the spec; the
	// JSON response of a workflow backend carries StreamID and
	// AssistantMessageID.
	Backend string `json:"backend,omitempty"`
	// ExecutionMode controls how the AI approaches the task.
	ExecutionMode ExecutionMode `json:"executionMode,omitempty"`
	// Model selects the model; "" means the team's configured model.
	Model Model `json:"model,omitempty"`
	// ReasoningEffort controls how deeply the AI reasons.
	ReasoningEffort ReasoningEffort `json:"reasoningEffort,omitempty"`
	// Attachments are sent as experimental_attachments.
	Attachments []Attachment `json:"experimental_attachments,omitempty"`
}

// An Attachment is a file attached to a request (spec section 2).
type Attachment struct {
	URL         string `json:"url"`                   // required: the file's URL
	Name        string `json:"name,omitempty"`        // display name
	ContentType string `json:"contentType,omitempty"` // MIME type
}

// BackendDefault is the spec's default backend, what an empty
// Request.Backend means.
const BackendDefault = chatapi.BackendDefault

// An ExecutionMode controls how the AI approaches the task.
type ExecutionMode string

// The execution modes of the spec.
const (
	ExecutionModeAuto     ExecutionMode = chatapi.ExecutionModeAuto
	ExecutionModePlanning ExecutionMode = chatapi.ExecutionModePlanning
	ExecutionModeBuild    ExecutionMode = chatapi.ExecutionModeBuild
)

// A ReasoningEffort controls how deeply the AI reasons.
type ReasoningEffort string

// The reasoning efforts of the spec.
const (
	ReasoningEffortMedium ReasoningEffort = chatapi.ReasoningEffortMedium
	ReasoningEffortHigh   ReasoningEffort = chatapi.ReasoningEffortHigh
)

// A Model identifies the model a chat uses. The constants are the spec's
// current set; the service decides what it accepts, so any other value
// is sent as it is and an unsupported one gets 422 ([ErrInvalidRequest]).
type Model string

// The spec's current set of models (section 4), in its order.
const (
	ModelAlpha5_6Terra Model = chatapi.ModelAlpha5_6Terra
	ModelAlpha6_1Sol   Model = chatapi.ModelAlpha6_1Sol
	ModelAlpha6Luna    Model = chatapi.ModelAlpha6Luna
	ModelBeta4_6       Model = chatapi.ModelBeta4_6
	ModelGammaK3       Model = chatapi.ModelGammaK3
	ModelDelta5_5      Model = chatapi.ModelDelta5_5
	ModelEpsilon5_5    Model = chatapi.ModelEpsilon5_5
	ModelZeta5_3       Model = chatapi.ModelZeta5_3
	ModelZeta5_3Flash  Model = chatapi.ModelZeta5_3Flash
)

// The models of the spec's earlier published variant. A service may
// accept them (spec section 9.2), or answer 422.
const (
	// Deprecated: delta-4-5 is listed only by the spec's earlier variant;
	// use a current model such as ModelDelta5_5.
	ModelDelta4_5 Model = chatapi.ModelDelta4_5
	// Deprecated: delta-4-6 is listed only by the spec's earlier variant;
	// use a current model such as ModelDelta5_5.
	ModelDelta4_6 Model = chatapi.ModelDelta4_6
	// Deprecated: epsilon-4-5 is listed only by the spec's earlier variant;
	// use a current model such as ModelEpsilon5_5.
	ModelEpsilon4_5 Model = chatapi.ModelEpsilon4_5
	// Deprecated: epsilon-4-6 is listed only by the spec's earlier variant;
	// use a current model such as ModelEpsilon5_5.
	ModelEpsilon4_6 Model = chatapi.ModelEpsilon4_6
)

// CurrentModels returns the spec's current set of models, in its order.
// Each call returns a fresh slice.
func CurrentModels() []Model { return models(chatapi.CurrentModels()) }

// EarlierModels returns the models of the spec's earlier published
// variant. Each call returns a fresh slice.
func EarlierModels() []Model { return models(chatapi.EarlierModels()) }

// models returns names as Models.
func models(names []string) []Model {
	out := make([]Model, len(names))
	for i, n := range names {
		out[i] = Model(n)
	}
	return out
}

// body returns the JSON body of r with the given stream value.
func (r *Request) body(stream bool) ([]byte, error) {
	b, err := json.Marshal(struct {
		*Request
		Stream bool `json:"stream"`
	}{r, stream})
	if err != nil {
		return nil, fmt.Errorf("chatwire: encode request: %w", err)
	}
	return b, nil
}

// A Chat is a chat as the JSON response of a create (stream false)
// describes it (spec section 2).
type Chat struct {
	ChatID string
	// URL is where the chat can be viewed, absolute (a relative url in the
	// response is resolved against the client's base URL).
	URL string
	// StreamID and AssistantMessageID are set by workflow backends only.
	// Present but empty, they are an error, as an empty chatId or url is:
	// an identifier that cannot be used.
	StreamID           string
	AssistantMessageID string
	// Raw is the whole JSON object, for fields the spec does not show.
	Raw json.RawMessage
}

// maxJSONBody is how much of a JSON response the client reads.
const maxJSONBody = 1 << 20

// CreateChatJSON creates a chat with "stream": false and returns the JSON
// response: the chat's id and URL, and for a workflow backend the stream
// and assistant message ids. The agent's progress is then read with
// [Client.Subscribe] or polled with [Client.Status].
//
// A response with a status other than 2xx is an [*APIError]. A 2xx response
// that is not a JSON object with non-empty string chatId and url fields is
// an error wrapping [ErrUnexpectedResponse]. Creating a chat spends
// credits; see [WithRetry] about retries.
func (c *Client) CreateChatJSON(ctx context.Context, r Request, opts ...Option) (*Chat, error) {
	return c.postJSON(ctx, "create chat", chatapi.ChatPath, &r, opts)
}

// post prepares the POST of a request to path with the given stream value:
// the call's settings and the call.
func (c *Client) post(op, path string, r *Request, stream bool, opts []Option) (settings, call, error) {
	s, err := c.settingsFor(opts)
	if err != nil {
		return s, call{}, fmt.Errorf("chatwire: %s: %w", op, err)
	}
	body, err := r.body(stream)
	if err != nil {
		return s, call{}, err
	}
	cl := call{method: http.MethodPost, path: path, body: body}
	if !stream {
		cl.accept = "application/json"
	}
	return s, cl, nil
}

// postJSON posts a request with stream false to path and reads the Chat.
func (c *Client) postJSON(ctx context.Context, op, path string, r *Request, opts []Option) (*Chat, error) {
	s, cl, err := c.post(op, path, r, false, opts)
	if err != nil {
		return nil, err
	}
	resp, err := c.send(ctx, &s, cl)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	v, raw, err := readJSON(resp)
	if err != nil {
		return nil, fmt.Errorf("chatwire: %s: %w", op, err)
	}
	chat, err := c.readChat(v, raw)
	if err != nil {
		return nil, fmt.Errorf("chatwire: %s: %w", op, err)
	}
	return chat, nil
}

// readJSON reads a 2xx response body of at most maxJSONBody bytes that
// must be a JSON object. It returns the parsed value and the raw bytes.
func readJSON(resp *http.Response) (*fastjson.Value, []byte, error) {
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxJSONBody+1))
	if err != nil {
		return nil, nil, fmt.Errorf("read response body: %w", err)
	}
	if len(raw) > maxJSONBody {
		return nil, nil, unexpected("JSON response larger than %d bytes", maxJSONBody)
	}
	ct := resp.Header.Get("Content-Type")
	var p fastjson.Parser
	v, err := p.ParseBytes(raw)
	if err != nil || v.Type() != fastjson.TypeObject {
		what := "not JSON"
		if err == nil {
			what = "JSON " + v.Type().String() + ", not an object"
		}
		if mt, _, _ := mime.ParseMediaType(ct); mt != "application/json" {
			what += ", Content-Type " + strings.TrimSpace(ct)
		}
		return nil, nil, unexpected("want a JSON object, got %s: %q", what, excerpt(raw, 80))
	}
	return v, raw, nil
}

// readChat reads the fields of a Chat from a JSON object.
func (c *Client) readChat(v *fastjson.Value, raw []byte) (*Chat, error) {
	chat := Chat{Raw: raw}
	for _, f := range []struct {
		key      string
		dst      *string
		required bool
	}{
		{"chatId", &chat.ChatID, true},
		{"url", &chat.URL, true},
		{"streamId", &chat.StreamID, false},
		{"assistantMessageId", &chat.AssistantMessageID, false},
	} {
		fv := v.Get(f.key)
		switch {
		case fv == nil || fv.Type() == fastjson.TypeNull:
			if f.required {
				return nil, unexpected("no %s in the JSON response %q", f.key, excerpt(raw, 120))
			}
		case fv.Type() != fastjson.TypeString:
			return nil, unexpected("%s is a JSON %s, not a string, in the JSON response %q", f.key, fv.Type(), excerpt(raw, 120))
		default:
			*f.dst = string(fv.GetStringBytes())
			if *f.dst == "" { // an identifier, present, must be usable

				return nil, unexpected("empty %s in the JSON response %q", f.key, excerpt(raw, 120))
			}
		}
	}
	u, err := url.Parse(chat.URL)
	if err != nil {
		return nil, unexpected("url %q in the JSON response: %v", chat.URL, err)
	}
	chat.URL = c.base.ResolveReference(u).String()
	return &chat, nil
}
