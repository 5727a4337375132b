package resumable

import "bytes"

// splitter cuts what a producer writes into the items of its protocol, as
// the protocol's clients read them: v4 lines without their line end
// ("\n", or "\r\n"), blank lines skipped; UI events, the data of each
// (several data lines joined with "\n", as SSE does), with comments and
// other fields left out and "data: [DONE]" marking the end instead of
// being an item. What a write leaves incomplete waits for the next.
type splitter struct {
	ui     bool
	line   []byte // the incomplete line carried over from the last write
	skipLF bool   // UI: the last write ended in CR, so an LF first ends nothing
	// UI: the event being read. data is the value of its first data line
	// (a slice of the write, or of a carried line) until a second comes or
	// the write ends, when it is copied into buf.
	data    []byte
	hasData bool
	owned   bool // data is in buf
	buf     []byte
	done    bool // UI: data: [DONE] was read
	items   [][]byte
}

// split returns the items that are complete once p is written. They are
// slices of p or of fresh memory, valid until the next call.
func (sp *splitter) split(p []byte) [][]byte {
	sp.items = sp.items[:0]
	for len(p) > 0 {
		if sp.skipLF {
			sp.skipLF = false
			if p[0] == '\n' {
				p = p[1:]
				continue
			}
		}
		i := bytes.IndexByte(p, '\n')
		if sp.ui {
			i = bytes.IndexAny(p, "\r\n")
		}
		if i < 0 {
			sp.line = append(sp.line, p...)
			break
		}
		line := p[:i]
		if p[i] == '\r' {
			if i+1 < len(p) {
				if p[i+1] == '\n' {
					i++
				}
			} else {
				sp.skipLF = true
			}
		}
		p = p[i+1:]
		if len(sp.line) > 0 {
			line = append(append([]byte(nil), sp.line...), line...)
			sp.line = sp.line[:0]
		}
		sp.take(line)
	}
	if sp.hasData && !sp.owned {
		sp.buf = append(sp.buf[:0], sp.data...)
		sp.data, sp.owned = sp.buf, true
	}
	return sp.items
}

// flush returns the item the producer's last write left incomplete, as
// a client reads it at the end of the body: a v4 line without its line
// end; nothing for an event without its blank line, which clients drop.
func (sp *splitter) flush() [][]byte {
	sp.items = sp.items[:0]
	if !sp.ui {
		if line := bytes.TrimSuffix(sp.line, []byte("\r")); len(line) > 0 {
			sp.items = append(sp.items, append([]byte(nil), line...))
		}
	}
	sp.line = sp.line[:0]
	sp.data, sp.hasData, sp.owned = nil, false, false
	return sp.items
}

// take reads one complete line.
func (sp *splitter) take(line []byte) {
	if !sp.ui {
		if line = bytes.TrimSuffix(line, []byte("\r")); len(line) > 0 {
			sp.items = append(sp.items, line)
		}
		return
	}
	if len(line) == 0 {
		sp.dispatch()
		return
	}
	name, value, ok := bytes.Cut(line, []byte(":"))
	if string(name) != "data" {
		return // a comment (": …"), or a field the clients do not use
	}
	if ok {
		value = bytes.TrimPrefix(value, []byte(" "))
	}
	switch {
	case !sp.hasData:
		sp.data, sp.hasData, sp.owned = value, true, false
	case sp.owned:
		sp.buf = append(append(sp.buf, '\n'), value...)
		sp.data = sp.buf
	default:
		sp.buf = append(append(append(sp.buf[:0], sp.data...), '\n'), value...)
		sp.data, sp.owned = sp.buf, true
	}
}

// dispatch ends the UI event being read: its data is an item, or the end
// marker [DONE]. An event without a data line is nothing.
func (sp *splitter) dispatch() {
	if !sp.hasData {
		return
	}
	data := sp.data
	if sp.owned {
		data = append([]byte(nil), data...) // buf is written over by the next event
	}
	sp.data, sp.hasData, sp.owned = nil, false, false
	if string(data) == "[DONE]" {
		sp.done = true
		return
	}
	sp.items = append(sp.items, data)
}
