// Package readbuf is the buffer filling the line decoders share:
// linestream's (the v4 data stream) and uistream's (the UI message
// stream). Each decoder keeps its buffer and its indexes into it in its own
// fields, and its reader in a [Source], whose [Source.Fill] its fill calls
// once it has moved the bytes it keeps to the front: [Grow] the buffer
// when it is full, [Read] into it as bufio does (a bounded number of empty
// reads, a reader's bad count an error), and [LastLF], the end of the last
// whole line of the bytes just read, which lets a decoder's fast path read
// the lines before it without looking for their '\n' first.
//
// # Files
//
//	readbuf.go  Grow, Read and LastLF
//	source.go   Source: a decoder's reader, the end or error it reported, and Fill
package readbuf
