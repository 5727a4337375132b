package fuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/chatwire/chatwire/linestream"
)

// FuzzChatID: AppendChatID reads the chatId a full encoding/json parse
// finds (the TextDecoder's text, as the SDK parses it), or says
// ErrNoChatID, on any line; and wherever the spec's prefix shortcut
// (ChatIDPrefix) succeeds on a first line whose value is valid JSON, with an
// id holding no backslash and no invalid UTF-8, it gives the same id,
// unless the first object repeats the chatId key (JSON.parse keeps the last
// of duplicate keys, the shortcut takes the first: see the corpus stream
// accepted/first-line-chat-id-duplicate-key). Each input is checked as a
// raw line and as a first line gofuzz builds from it.
func FuzzChatID(f *testing.F) {
	for _, s := range corpusStreams(f) {
		first, _, _ := bytes.Cut(s.Data, []byte("\n"))
		f.Add(first)
	}
	f.Add([]byte(`2:[{"chatId":"a","chatId":"b"}]`))
	f.Add([]byte(`2:[{"chatId":"a\"b"}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxInput {
			t.Skip("input larger than maxInput")
		}
		line, _, _ := bytes.Cut(data, []byte("\n"))
		checkChatID(t, line)
		checkChatID(t, GenFirstLine(data))
	})
}

func checkChatID(t *testing.T, line []byte) {
	t.Helper()
	line = bytes.TrimSuffix(line, []byte("\r"))
	_, value, _ := bytes.Cut(line, []byte(":"))
	if depth(string(value)) > maxJSONDepth {
		return // beyond encoding/json
	}
	valid := json.Valid(value)
	wantID, hasID, chatIDKeys := jsonChatID(value)
	got, err := linestream.AppendChatID(nil, value)
	switch {
	case !valid || !hasID:
		if !errors.Is(err, linestream.ErrNoChatID) {
			t.Fatalf("AppendChatID(%+q) = %+q, %v; encoding/json finds no chatId (valid JSON: %v)", value, got, err, valid)
		}
	case err != nil || string(got) != wantID:
		t.Fatalf("AppendChatID(%+q) = %+q, %v; encoding/json reads %+q", value, got, err, wantID)
	}

	prefix, ok := linestream.ChatIDPrefix(line)
	rest, hasPrefix := bytes.CutPrefix(line, []byte(`2:[{"chatId":"`))
	wantPrefix, _, closed := bytes.Cut(rest, []byte(`"`))
	if ok != (hasPrefix && closed) || ok && !bytes.Equal(prefix, wantPrefix) {
		t.Fatalf("ChatIDPrefix(%+q) = %+q, %v; want the bytes up to the next quote after the prefix", line, prefix, ok)
	}
	if !ok || !valid || bytes.IndexByte(prefix, '\\') >= 0 || !utf8.Valid(prefix) {
		return // the shortcut does not apply
	}
	if (!hasID || string(prefix) != wantID) && chatIDKeys < 2 {
		t.Fatalf("ChatIDPrefix(%+q) = %+q, encoding/json reads %+q (found: %v), and the key is not repeated", line, prefix, wantID, hasID)
	}
	if string(prefix) == wantID && string(got) != wantID {
		t.Fatalf("ChatIDPrefix(%+q) = %+q, AppendChatID %+q", line, prefix, got)
	}
}

// jsonChatID reads value with encoding/json as the SDK reads it (the
// TextDecoder's text, then JSON.parse): the chatId string of the first
// element when that is an object holding one, and how many of that
// object's keys are "chatId".
func jsonChatID(value []byte) (id string, ok bool, keys int) {
	text := DecodeUTF8(value)
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber() // 1e400 is a number to JSON.parse
	var v any
	if dec.Decode(&v) != nil {
		return "", false, 0
	}
	arr, isArray := v.([]any)
	if !isArray || len(arr) == 0 {
		return "", false, 0
	}
	obj, isObject := arr[0].(map[string]any)
	if !isObject {
		return "", false, 0
	}
	id, ok = obj["chatId"].(string)

	// Count the keys of the first element, in the same text.
	dec = json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	dec.Token() // [
	dec.Token() // {
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			break
		}
		if key == "chatId" {
			keys++
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			break
		}
	}
	return id, ok, keys
}
