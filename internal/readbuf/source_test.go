package readbuf

import (
	"errors"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
)

func TestSourceFill(t *testing.T) {
	tests := []struct {
		name          string
		src           Source
		buf           string // the bytes before end
		size, limit   int    // len(buf), Grow's limit
		wantBuf       string
		wantN, wantLF int
		wantEOF       bool
		wantErr       string
		wantLen       int // len of the returned buffer
	}{
		{name: "room: no growth", src: NewSource(strings.NewReader("cd\nef"), "x"), buf: "ab", size: 16, limit: 1 << 20,
			wantBuf: "abcd\nef", wantN: 5, wantLF: 5, wantLen: 16},
		{name: "full: grows to the limit", src: NewSource(strings.NewReader("cd"), "x"), buf: "ab", size: 2, limit: 100,
			wantBuf: "abcd", wantN: 2, wantLF: -1, wantLen: 100},
		{name: "io.EOF with the last bytes", src: NewSource(iotest.DataErrReader(strings.NewReader("z\n")), "x"), buf: "", size: 8, limit: 8,
			wantBuf: "z\n", wantN: 2, wantLF: 2, wantEOF: true, wantLen: 8},
		{name: "a bad count names the package", src: NewSource(&countReader{counts: []int{99}}, "uistream"), buf: "", size: 8, limit: 8,
			wantBuf: "", wantLF: -1, wantErr: "uistream: reader returned invalid count 99", wantLen: 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			buf := make([]byte, tt.size)
			copy(buf, tt.buf)
			grown, n, lf := tt.src.Fill(buf, len(tt.buf), tt.limit)
			assert.Equal(t, tt.wantBuf, string(grown[:len(tt.buf)+n]), "the bytes read after the kept ones")
			assert.Equal(t, tt.wantN, n, "bytes read")
			assert.Equal(t, tt.wantLF, lf, "index past the last '\\n'")
			assert.Equal(t, tt.wantLen, len(grown), "the buffer's length")
			assert.Equal(t, tt.wantEOF, tt.src.EOF, "EOF")
			if tt.wantErr == "" {
				assert.NoError(t, tt.src.Err)
			} else {
				assert.EqualError(t, tt.src.Err, tt.wantErr)
			}
			assert.Equal(t, tt.wantEOF || tt.wantErr != "", tt.src.Done(), "Done")
		})
	}
}

func TestSourceKeepsTheError(t *testing.T) {
	boom := errors.New("boom")
	s := NewSource(iotest.ErrReader(boom), "x")
	_, n, _ := s.Fill(make([]byte, 4), 0, 4)
	assert.Zero(t, n)
	assert.ErrorIs(t, s.Err, boom, "the reader's error")
	assert.False(t, s.EOF, "an error is not the end of the stream")
	assert.True(t, s.Done())
}
