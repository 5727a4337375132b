package linestream

// This file holds the decoder's memory of the lines it has read: a line's
// skeleton is its bytes with each string's content cut out (its quotes
// kept) and each run of digits outside strings cut to its first digit (and
// its second, when the first is a '0'), every digit but a leading zero read
// as '1'. Whether a line is valid JSON depends on its skeleton only, once
// its strings are known to be valid: strings are opaque tokens to the
// grammar, and a run of digits is a valid integer part, fraction or
// exponent according to the class of the run its skeleton keeps ("0",
// "01…" or "1…"). So a line whose skeleton is that of a line found valid
// before is valid, token for token, without walking it: the services of
// this protocol write a few shapes per code, the AI SDK's objects with the
// same keys in the same order, and their values change, not their skeleton.
//
// lineSkeleton (AVX-512, vector_amd64.s) checks a line's strings and
// builds its skeleton 64 bytes at a time, then compares it with the one
// known for the line's code. The decoder keeps one skeleton per code: the
// last line of that code the compact walker (compact.go) accepted. A code
// whose lines keep changing shape is left to the walker for a while
// (credit), so that a stream of such lines pays little for the attempt.

// skeletonMax is the longest skeleton kept; skeletonScratch the room
// lineSkeleton writes to (a block's 64 bytes past the longest skeleton it
// goes on from).
const (
	skeletonMax     = 64
	skeletonScratch = skeletonMax + 64
)

// skeletons is a decoder's memory of skeletons, one per code.
type skeletons struct {
	scratch [skeletonScratch]byte
	known   [numKinds]knownSkeleton
}

type knownSkeleton struct {
	b [skeletonMax]byte
	n int // the skeleton's length; 0: none yet
	// credit is how many more lines may miss before the code's lines go
	// to the walker alone; below 0, how many lines they still do.
	credit int
}

// Credits: a hit earns one up to skeletonCreditMax; a miss costs
// skeletonMissCost; at 0 the code's next skeletonRest lines skip the
// attempt.
const (
	skeletonCreditMax = 16
	skeletonMissCost  = 4
	skeletonRest      = 8
)

// skeletonOf is the reference for lineSkeleton, byte by byte: the
// skeleton of the line whose value starts at b[0], to its first '\n', and
// the index of the '\n'; ok is false where lineSkeleton's size is -1 for the
// line's content (not for the readable length or the blocks, which only
// lineSkeleton knows).
func skeletonOf(b []byte) (sk []byte, end int, ok bool) {
	inString, escaped := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch {
			case escaped:
				escaped = false
				if escapeKinds[c] != escapeShort {
					return nil, 0, false
				}
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
				sk = append(sk, c)
			case c < 0x20:
				return nil, 0, false
			}
			continue
		}
		switch {
		case c == '\\':
			// Outside a string too, a backslash escapes the next byte,
			// which then neither opens a string nor ends the line; no valid
			// line has one, so no known skeleton does.
			if i+1 == len(b) || escapeKinds[b[i+1]] != escapeShort {
				return nil, 0, false
			}
			sk = append(sk, c, b[i+1])
			i++
		case c == '\n':
			return sk, i, len(sk) <= skeletonMax
		case c == '"':
			inString = true
			sk = append(sk, c)
		case isDigit(c):
			first := i == 0 || !isDigit(b[i-1])
			second := !first && (i < 2 || !isDigit(b[i-2])) && b[i-1] == '0'
			switch {
			case first && c == '0':
				sk = append(sk, '0')
			case first || second:
				sk = append(sk, '1')
			}
		default:
			sk = append(sk, c)
		}
	}
	return nil, 0, false
}

// nextSkeleton reads the value of the line at b[s] (a one-byte code, then
// ':') whose skeleton may be known, and returns the index of its '\n' when
// it is valid, compact and ends the line, or -1. A miss goes to the walker,
// and a line the walker accepts becomes its code's known skeleton.
func (d *Decoder) nextSkeleton(b []byte, s int) int {
	start := s + 2
	k := &d.skel.known[codeKinds[b[s]]]
	if k.credit < 0 {
		k.credit++
		if e, ok := scanCompact(b, start, true); ok && e < len(b) && b[e] == '\n' {
			return e
		}
		return -1
	}
	w := d.buf
	size, end, hit := lineSkeleton(&w[start], len(w)-start, &d.skel.scratch, &k.b, k.n)
	end += start
	if hit && end < len(b) {
		if k.credit < skeletonCreditMax {
			k.credit++
		}
		return end
	}
	e, ok := scanCompact(b, start, true)
	if !ok || e >= len(b) || b[e] != '\n' {
		return -1
	}
	if size >= 0 && end == e {
		copy(k.b[:], d.skel.scratch[:size])
		k.n = size
	}
	if k.credit -= skeletonMissCost; k.credit < 0 {
		k.credit = -skeletonRest
	}
	return e
}
