package reading

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"

	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream"
)

// ErrCut is what Read returns when it stopped a stream on purpose at the
// cut point of [Options.Cut]: the reading is of the items before it.
var ErrCut = errors.New("reading: the client cut the stream inside a text part")

// items records a stream item by item for [Options.Items], and finds the
// cut point of [Options.Cut].
type items struct {
	r   *transcript.ItemsReading
	cut bool
	// text: a text part has started (a UI text-start; v4 has none, its
	// 0: line is the text); at: the count after which to cut, 0 until the
	// first text delta inside a text part is read.
	text bool
	at   int
}

// newItems returns the item recorder of a reading with o, or nil when o
// records none.
func newItems(rd *transcript.Reading, o Options) *items {
	if !o.Items && !o.Cut {
		return nil
	}
	rd.Items = &transcript.ItemsReading{}
	return &items{r: rd.Items, cut: o.Cut}
}

// add records one item: its bytes and its type. It reports whether the
// reader cuts the stream after it.
func (it *items) add(b []byte, typ string) bool {
	if it == nil {
		return false
	}
	r := it.r
	r.Count++
	if len(r.Hashes) < transcript.MaxItems {
		sum := sha256.Sum256(b)
		r.Hashes = append(r.Hashes, hex.EncodeToString(sum[:8]))
		r.Types = append(r.Types, typ)
	} else {
		r.Capped = true
	}
	if !it.cut {
		return false
	}
	if it.at == r.Count {
		r.Cut = r.Count
		return true
	}
	return false
}

// ui records a UI chunk.
func (it *items) ui(c uistream.Chunk) bool {
	if it == nil {
		return false
	}
	switch c.Kind {
	case uistream.ChunkStart:
		if it.r.Count == 0 {
			var s struct {
				MessageID string `json:"messageId"`
			}
			if json.Unmarshal(c.Data, &s) == nil {
				it.r.MessageID = s.MessageID
			}
		}
	case uistream.ChunkTextStart:
		it.text = true
	case uistream.ChunkTextDelta:
		if it.text && it.at == 0 {
			it.at = it.r.Count + 2
		}
	case uistream.ChunkFinish:
		it.r.Finished = true
	}
	return it.add(c.Data, string(c.Type))
}

// v4 records a v4 line.
func (it *items) v4(p linestream.Part) bool {
	if it == nil {
		return false
	}
	switch p.Kind() {
	case linestream.KindText:
		if it.at == 0 {
			it.at = it.r.Count + 2
		}
	case linestream.KindFinishMessage:
		it.r.Finished = true
	}
	return it.add(p.Raw, string(p.Code))
}
