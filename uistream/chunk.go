package uistream

// A Chunk is one event of the stream, as the SDK's client parses it: its
// data, a JSON object, and the object's type.
//
// Type and Data are borrowed from the decoder: they are valid until the next
// call to [Decoder.Next] or [Decoder.Reset]. Use [Chunk.Clone] to keep them
// longer.
type Chunk struct {
	// Type is the value of the object's "type" member (the last one where
	// the key comes more than once), escapes decoded (a lone surrogate
	// escape as its three WTF-8 bytes).
	Type []byte
	// Kind is Type classified; see [TypeOf].
	Kind ChunkType
	// Data is the JSON object, without the JSON whitespace around it, as
	// the SDK's JSON.parse reads it: the event's data lines joined with
	// "\n", invalid UTF-8 replaced with U+FFFD.
	Data []byte
	// Event is the 1-based index of the event among the stream's events
	// (those with data, "[DONE]" ones included).
	Event int
	// Line is the 1-based line of the event's first data line.
	Line int
	// Offset is the byte offset of that line's start in the stream.
	Offset int64
}

// Clone returns a copy of c whose slices are its own (one allocation).
func (c Chunk) Clone() Chunk {
	buf := make([]byte, 0, len(c.Type)+len(c.Data))
	buf = append(append(buf, c.Type...), c.Data...)
	k := c
	k.Type = buf[:len(c.Type):len(c.Type)]
	k.Data = buf[len(c.Type):]
	return k
}
