package readbuf

import "io"

// A Source is a decoder's reader and what its reads have reported: the
// end of the stream, or another error, which the decoder reports once the
// bytes read before it are out. The zero Source has no reader.
type Source struct {
	r   io.Reader
	pkg string // the decoder's package, for the error of a bad count
	// EOF reports whether the reader has reported io.EOF.
	EOF bool
	// Err is the reader's error other than io.EOF (or Read's own).
	Err error
}

// NewSource returns a Source that reads from r for the decoder of package
// pkg.
func NewSource(r io.Reader, pkg string) Source { return Source{r: r, pkg: pkg} }

// Done reports whether no more bytes will come: the reader reported
// io.EOF or an error.
func (s *Source) Done() bool { return s.EOF || s.Err != nil }

// Fill reads more bytes into buf[end:] ([Read]), first growing buf
// ([Grow], to at most limit bytes) when it is full. It returns the buffer,
// the number of bytes read, and the index just past the last '\n' among
// them ([LastLF]; -1 for none), and records io.EOF and any other error in
// s.
func (s *Source) Fill(buf []byte, end, limit int) (grown []byte, n, lf int) {
	if end == len(buf) {
		buf = Grow(buf, end, limit)
	}
	n, eof, err := Read(s.r, buf, end, s.pkg)
	if eof {
		s.EOF = true
	}
	if err != nil {
		s.Err = err
	}
	return buf, n, LastLF(buf, end, end+n)
}
