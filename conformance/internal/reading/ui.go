package reading

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/uistream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// uiClient is one client release reading a UI message stream, chunk by
// chunk: its schema, then its assembly, as readUIMessageStream reads on
// past an error chunk (the skew), and what its user is left with as
// useChat stops at one (the end state).
type uiClient struct {
	rel    sdk.Release
	a      *uimessage.Assembler
	newest bool
	throw  *transcript.Throw // where it throws, schema or assembly
	shown  string            // the error useChat shows, "" for none
	sent   uiSent
	// The judged client's schema and assembly faults, and the chunks its
	// assembly took before its schema threw.
	schema, assembly *transcript.Fault
	assembled        int
}

// readUI reads a UI message stream: its framing as the SDK's SSE parser
// reads it, each chunk through each release's schema and assembly, its
// chat ids, and what each release's user is left with at the end.
func readUI(rd *transcript.Reading, resp *transcript.Response, br io.Reader, t *tee, o Options) error {
	u := &transcript.UIReading{Client: o.client().String()}
	rd.UI = u
	end := &transcript.EndReading{}
	rd.IDs = headerChatIDs(resp)
	newest := sdk.NewestOfEach()
	var clients []*uiClient
	judged := -1 // the index of the judged client in clients
	for _, rel := range o.releases() {
		clients = append(clients, &uiClient{rel: rel, a: uimessage.NewAssembler(rel), newest: slices.Contains(newest, rel), sent: newUISent()})
		if rel == o.client() {
			judged = len(clients) - 1
		}
	}
	skew := len(clients)
	if judged < 0 {
		clients = append(clients, &uiClient{rel: o.client(), a: uimessage.NewAssembler(o.client()), sent: newUISent()})
		judged = len(clients) - 1
	}
	d := uistream.NewDecoder(br)
	it := newItems(rd, o)
	afterError := false
	for d.Next() {
		c := d.Chunk()
		u.Chunks++
		if u.Chunks == 1 {
			readFirstChunk(u, c)
		} else if u.LaterChatID == "" {
			if _, ok := metadataChatID(c.Data); ok {
				u.LaterChatID = fmt.Sprintf("%s (%s) carries messageMetadata.chatId, not the first", chunkAt(c), c.Type)
			}
		}
		rd.IDs = append(rd.IDs, chunkChatIDs(c)...)
		switch c.Kind {
		case uistream.ChunkFinish:
			end.Finished = true
			if afterError {
				switch reason := finishReason(c.Data); reason {
				case "error":
				case "":
					if end.NoReasonAfterError == "" {
						end.NoReasonAfterError = fmt.Sprintf("event %d: data: %s", c.Event, Excerpt(c.Data))
					}
				default:
					if end.SuccessAfterError == "" {
						end.SuccessAfterError = fmt.Sprintf("event %d: data: %s", c.Event, Excerpt(c.Data))
					}
				}
			}
		case uistream.ChunkAbort:
			end.Abort = fmt.Sprintf("event %d (line %d)", c.Event, c.Line)
		case uistream.ChunkError:
			end.Errors = append(end.Errors, transcript.StreamError{At: fmt.Sprintf("event %d (line %d, byte %d)", c.Event, c.Line, c.Offset), Text: errorText(c.Data)})
			afterError = true
		}
		for i, cl := range clients {
			cl.take(c, u.Chunks, i == judged)
		}
		if o.FirstOnly {
			return nil
		}
		if it.ui(c) {
			return ErrCut
		}
	}
	u.Events, u.Done = d.Events(), d.Done()
	for _, w := range d.Warnings() {
		if w.Kind == uistream.WarnUnterminated {
			u.Unterminated = &transcript.Fault{Event: w.Event, Line: w.Line, Offset: w.Offset, Text: t.lineText(w.Line)}
			continue
		}
		u.Ignored = append(u.Ignored, w.String())
	}
	err := d.Err()
	var se *uistream.SyntaxError
	switch {
	case errors.As(err, &se) && !errors.Is(err, uistream.ErrEventTooLong):
		u.Bad = &transcript.Fault{Event: se.Event, Line: se.Line, Col: se.Col, Offset: se.Offset, Msg: se.Msg, Name: syntaxErrorName(se), Text: t.lineText(se.Line)}
		for _, cl := range clients {
			if cl.throw == nil {
				cl.throw = &transcript.Throw{Event: u.Chunks + 1, StreamEvent: se.Event, Source: sdk.SourceSchema, Reason: se.Msg}
			}
			if cl.shown == "" {
				cl.shown = fmt.Sprintf("throws at event %d: %s", se.Event, se.Msg)
			}
		}
		err = nil
	case errors.As(err, &se):
		u.ReadErr = err.Error()
		err = nil
	}
	j := clients[judged]
	u.Schema, u.Assembly, u.Assembled = j.schema, j.assembly, j.assembled
	for _, cl := range clients[:skew] {
		u.Skew = append(u.Skew, transcript.ReleaseThrow{Release: cl.rel.String(), Throw: cl.throw})
		end.Clients = append(end.Clients, cl.end())
	}
	rd.End = end
	return err
}

// take reads chunk number n (from 1) as the release's client does; judged
// says whether the checks judge its schema and assembly.
func (cl *uiClient) take(c uistream.Chunk, n int, judged bool) {
	if cl.throw != nil {
		return
	}
	if err := cl.rel.CheckChunk(c.Data); err != nil {
		ce := chunkError(cl.rel, c, err)
		cl.throw = &transcript.Throw{Event: n, StreamEvent: c.Event, Source: sdk.SourceSchema, Type: ce.Type, Field: ce.Field(), Reason: ce.Reason()}
		if cl.shown == "" {
			cl.shown = fmt.Sprintf("throws at event %d (%s): %v", c.Event, c.Type, err)
		}
		if judged {
			cl.schema = &transcript.Fault{Event: c.Event, Line: c.Line, Offset: c.Offset, Type: ce.Type, Name: ce.Name(), Msg: ce.Reason(), Text: Excerpt(c.Data)}
		}
		return
	}
	if c.Kind == uistream.ChunkError && cl.shown == "" {
		cl.shown = fmt.Sprintf("stops at the error chunk of event %d: %s", c.Event, Excerpt([]byte(errorText(c.Data))))
	}
	if err := cl.a.Add(c.Data); err != nil {
		var ae *uimessage.AssemblyError
		if !errors.As(err, &ae) {
			ae = &uimessage.AssemblyError{Chunk: n - 1, Type: string(c.Type), Name: "Error", Message: err.Error()}
		}
		cl.throw = &transcript.Throw{Event: n, StreamEvent: c.Event, Source: uimessage.SourceAssembly, Type: ae.Type, Reason: ae.Name + ": " + ae.Message}
		if cl.shown == "" {
			cl.shown = fmt.Sprintf("throws at event %d (%s): %v", c.Event, c.Type, err)
		}
		if judged {
			cl.assembly = &transcript.Fault{Event: c.Event, Line: c.Line, Offset: c.Offset, Type: ae.Type, Name: ae.Name, Msg: ae.Message, Text: Excerpt(c.Data)}
		}
		return
	}
	cl.assembled++
	cl.sent.add(c)
}

// chunkError returns the schema's error of a chunk as a ChunkError.
func chunkError(rel sdk.Release, c uistream.Chunk, err error) *sdk.ChunkError {
	var ce *sdk.ChunkError
	if errors.As(err, &ce) {
		return ce
	}
	return &sdk.ChunkError{Release: rel, Type: string(c.Type), Message: err.Error()}
}

// syntaxErrorName is the name a client throws an event that is not a
// chunk with: AI_JSONParseError for data that is not JSON, else
// AI_TypeValidationError.
func syntaxErrorName(se *uistream.SyntaxError) string {
	if errors.Is(se, uistream.ErrJSON) {
		return "AI_JSONParseError"
	}
	return "AI_TypeValidationError"
}

// readFirstChunk records the stream's first chunk: its event, type and
// data, and the chat id its messageMetadata carries.
func readFirstChunk(u *transcript.UIReading, c uistream.Chunk) {
	u.First = &transcript.Fault{Event: c.Event, Line: c.Line, Offset: c.Offset, Type: string(c.Type), Text: Excerpt(c.Data)}
	u.FirstStart = c.Kind == uistream.ChunkStart
	if raw, ok := metadataChatID(c.Data); ok {
		u.FirstChatID, u.FirstChatIDFound = string(raw), true
	}
}

// chunkAt describes a chunk for a reading: "event 3 (line 5, byte 80)".
func chunkAt(c uistream.Chunk) string {
	return fmt.Sprintf("event %d (line %d, byte %d)", c.Event, c.Line, c.Offset)
}

// errorText returns the errorText of an error chunk.
func errorText(data []byte) string {
	var c struct {
		ErrorText string `json:"errorText"`
	}
	_ = json.Unmarshal(data, &c)
	return c.ErrorText
}

// metadataChatID returns the raw chatId of a chunk's messageMetadata, as
// JSON.parse reads it (the last of duplicate keys).
func metadataChatID(data []byte) (json.RawMessage, bool) {
	var c struct {
		MessageMetadata json.RawMessage `json:"messageMetadata"`
	}
	if json.Unmarshal(data, &c) != nil {
		return nil, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(c.MessageMetadata, &m) != nil {
		return nil, false
	}
	raw, ok := m["chatId"]
	return raw, ok
}

// headerChatIDs returns the chat ids a response's headers carry: a header
// whose name says it carries one, such as X-Chat-Id or Chat-ID.
func headerChatIDs(resp *transcript.Response) []transcript.ChatIDFound {
	var out []transcript.ChatIDFound
	names := make([]string, 0, len(resp.Header))
	for name := range resp.Header {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		n := strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(name))
		if vs := resp.Header[name]; strings.HasSuffix(n, "chatid") && len(vs) > 0 && vs[0] != "" {
			out = append(out, transcript.ChatIDFound{ID: vs[0], Where: "header " + name})
		}
	}
	return out
}

// chunkChatIDs returns the chat ids a chunk carries where a client or its
// caller can read them: its messageMetadata.chatId (the client merges it
// into the message's metadata), a data part's chatId (delivered to onData,
// and kept in the message unless transient).
func chunkChatIDs(c uistream.Chunk) []transcript.ChatIDFound {
	var out []transcript.ChatIDFound
	if raw, ok := metadataChatID(c.Data); ok {
		out = append(out, transcript.ChatIDFound{ID: jsonString(raw), Where: fmt.Sprintf("event %d (%s) messageMetadata.chatId", c.Event, c.Type)})
	}
	if c.Kind == uistream.ChunkData {
		var d struct {
			Data map[string]json.RawMessage `json:"data"`
		}
		if json.Unmarshal(c.Data, &d) == nil {
			if raw, ok := d.Data["chatId"]; ok {
				out = append(out, transcript.ChatIDFound{ID: jsonString(raw), Where: fmt.Sprintf("event %d (%s) data.chatId", c.Event, c.Type)})
			}
		}
	}
	return out
}
