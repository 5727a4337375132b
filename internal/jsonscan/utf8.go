package jsonscan

// IllFormedLen returns the length of the maximal ill-formed subsequence at
// the start of b, which starts with one (it is not valid UTF-8 there): the
// bytes the WHATWG UTF-8 decoder, and so the AI SDK's TextDecoder, replaces
// with one U+FFFD. The second byte's range depends on the lead byte
// (Unicode table 3-7); every decoder of the module reads invalid UTF-8 so.
func IllFormedLen[T ~string | ~[]byte](b T) int {
	lo, hi, need := byte(0x80), byte(0xBF), 0
	switch c := b[0]; {
	case 0xC2 <= c && c <= 0xDF:
		need = 1
	case c == 0xE0:
		lo, need = 0xA0, 2
	case c == 0xED:
		hi, need = 0x9F, 2
	case 0xE1 <= c && c <= 0xEF:
		need = 2
	case c == 0xF0:
		lo, need = 0x90, 3
	case 0xF1 <= c && c <= 0xF3:
		need = 3
	case c == 0xF4:
		hi, need = 0x8F, 3
	}
	n := 1
	for ; n <= need && n < len(b); n++ {
		if b[n] < lo || b[n] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return n
}
