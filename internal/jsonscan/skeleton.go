package jsonscan

import "bytes"

// This file holds the decoder's memory of the lines it has read. A line's
// skeleton is its value's bytes with each string's content cut out (its
// quotes kept) and each run of digits outside strings cut to one '1'.
// Whether a value is valid JSON depends on its skeleton only, once its
// strings are known to be valid and no run of digits other than a
// fraction starts with a '0' and goes on: strings are opaque tokens to the
// grammar, and such a run of digits is a valid integer part, fraction or
// exponent whatever its digits. (A line with a run that starts "0" and goes
// on, not after a '.', is read by the walker: as an integer part it is not
// valid, as an exponent it is.) So a line whose skeleton is that of a line
// found valid before is valid, token for token, without walking it. The
// services of this protocol write a few shapes per code (the AI SDK's
// objects have the same keys in the same order): from line to line their
// values change, not their skeleton.
//
// lineSkeleton (vector_amd64.s: AVX-512, or AVX2 on CPUs without AVX-512
// VBMI2) checks a line's strings and builds its skeleton 64 bytes at a
// time, then compares it with those known for the line's code: up to
// sixteen, of the lines of sixteen shapes the compact walker (compact.go)
// accepted last. When none has a digit, lineSkeleton leaves digits as
// they are (less work): a line with digits outside strings then misses,
// as it must, and is read again with digits to learn its skeleton. A code
// whose lines keep changing shape is left to the walker for a while
// (credit), so that a stream of such lines pays little for the attempt.

// skeletonMax is the longest skeleton kept; skeletonWays how many a code
// keeps (lineSkeleton compares their lengths as 16 bytes); skeletonOut the
// room lineSkeleton writes to (64 bytes past the longest skeleton it goes
// on from). A decoder's skeletons take 55 KiB, allocated with it.
const (
	skeletonMax  = 192
	skeletonWays = 16
	skeletonOut  = skeletonMax + 64
)

// Out is where lineSkeleton writes a line's skeleton: a decoder keeps one
// for all its classes of lines.
type Out [skeletonOut]byte

// Skeletons are the skeletons known for a class of lines, such as the lines
// of one code of the v4 stream: the shapes the walker accepted last. A
// decoder keeps one per class (the shapes differ between classes), in
// memory it allocates once and keeps across streams. It is not safe for
// concurrent use.
type Skeletons = codeSkeletons

// codeSkeletons are the skeletons known for a code.
type codeSkeletons struct {
	ways [skeletonWays]knownSkeleton
	// lens holds the ways' lengths (0: none), a byte each, for
	// lineSkeleton to compare with a skeleton's length all at once.
	lens [skeletonWays]uint8
	// used has bit i set when way i hit since the clock hand (next) last
	// passed it: a skeleton learnt goes to the first way from next whose
	// bit is clear, clearing bits on the way (the clock policy, close to
	// keeping the ways used last).
	used uint16
	next int
	// noDigits tells that no skeleton known has a digit: lineSkeleton may
	// leave digits uncut.
	noDigits bool
	// credit is what the code's lines may still lose on misses before
	// they go to the walker alone; below 0, for how many more lines they
	// do.
	credit int
	// hits counts the lines found valid by their skeleton, for the tests
	// that show the skeletons are used.
	hits int
	// first is lineSkeleton256's memory of the first block of a line of
	// the code (firstBlock).
	first firstBlock
}

// firstBlock is what lineSkeleton256 remembers of the first 64 bytes of
// a code's last line whose skeleton fit in 64 bytes: the bytes it kept
// (kept, a bit each; 0 for none: a value's first byte is always kept), the
// 64 bytes it gathered them from (digits made '1' where it cut them), and
// the skeleton's first 64 bytes. The skeleton's bytes from a block depend
// only on which bytes are kept and what they are: where the next line's
// first block keeps the same bytes, its skeleton starts with the same
// popcount(kept) bytes, copied rather than gathered. The lines of a code
// often share their first 64 bytes but for the content of their strings
// (the SDK's tool parts: their key names and the tool call's id).
//
// A code whose first blocks keep changing (numbers of varying length early
// in its lines) would pay on most lines for the compare, its mispredicted
// branch and the learning: credit, as a code's (Skeletons), is what its
// lines may still lose: a hit adds one, up to firstCreditMax, a miss costs
// firstMissCost, and below 0 the next firstRest lines gather without
// trying (a miss at 0 or above is learnt; one that goes below is too, so
// that the try after the rest compares with a recent line).
type firstBlock struct {
	kept     uint64
	credit   int32
	bytes    [64]byte
	skeleton [64]byte
}

// The first block's credits (firstBlock): lineSkeleton256 reads them.
const (
	firstCreditMax = 16
	firstMissCost  = 4
	firstRest      = 32
)

type knownSkeleton struct {
	b [skeletonMax]byte // zeros past its length (lens)
}

// Credits: a hit restores skeletonCreditMax; a miss costs
// skeletonMissCost; below 0 the code's next skeletonRest lines skip the
// attempt.
const (
	skeletonCreditMax = 16
	skeletonMissCost  = 4
	skeletonRest      = 8
)

// Ready tells whether the class's next line tries its skeleton, and
// counts a line of the rest when it does not.
func (c *codeSkeletons) Ready() bool {
	if c.credit < 0 {
		c.credit++
		return false
	}
	return true
}

// Digits tells whether the class's lines have their digit runs cut: false
// while no skeleton known has a digit outside strings.
func (c *codeSkeletons) Digits() bool { return !c.noDigits }

// Hit records that the line just read matched the class's way way.
func (c *codeSkeletons) Hit(way int) {
	c.credit = skeletonCreditMax
	c.used |= 1 << way
	c.hits++
}

// Hits returns how many lines of the class were found valid by their
// skeleton (a hit), since the class was made.
func (c *codeSkeletons) Hits() int { return c.hits }

// Miss reads the value at buf[start] with the walker when its skeleton is
// none of the class's: [LineSkeleton] gave size and e, the index of the
// line's '\n' from buf[start] (when size >= 0), reading buf, of which the
// first lfEnd bytes are the lines read (their '\n's known); out is where it
// wrote the skeleton. It returns the index of the '\n' when the value is
// valid, compact and ends the line, or -1; a line it accepts becomes one
// of the class's skeletons. (Nine integer arguments, the receiver's
// included: all in registers.)
func (c *codeSkeletons) Miss(buf []byte, lfEnd, start int, out *Out, size, e int) int {
	b := buf[:lfEnd]
	end, ok := scanCompact(b, start, true)
	if !ok || end >= len(b) || b[end] != '\n' {
		return -1
	}
	if size >= 0 && c.noDigits {
		// Read without digits: read again with them.
		size, e, _ = lineSkeleton(&buf[start], len(buf)-start, (*[skeletonOut]byte)(out), c, true)
		e += start
	}
	if size > 0 && e == end {
		for c.used&(1<<c.next) != 0 {
			c.used &^= 1 << c.next
			c.next = (c.next + 1) % skeletonWays
		}
		w := &c.ways[c.next]
		w.b = [skeletonMax]byte{}
		c.lens[c.next] = uint8(copy(w.b[:], out[:size]))
		c.next = (c.next + 1) % skeletonWays
		c.noDigits = true
		for i := range c.ways {
			if bytes.IndexByte(c.ways[i].b[:c.lens[i]], '1') >= 0 {
				c.noDigits = false
			}
		}
	}
	if c.credit -= skeletonMissCost; c.credit < 0 {
		c.credit = -skeletonRest
	}
	return end
}

// LineSkeleton reads the line whose value starts at p, n bytes readable
// from there (the rest of the decoder's buffer), and compares its skeleton
// with c's: it returns the skeleton's size (written to out), the index of
// the line's '\n' from p, and the way of c that matched, or -1 (see
// lineSkeleton, in vector_amd64.go). Call it only where [HaveSkeleton]
// holds. It is inlined: the decoder calls the assembly directly.
func LineSkeleton(p *byte, n int, out *Out, c *Skeletons) (size, end, way int) {
	return lineSkeleton(p, n, (*[skeletonOut]byte)(out), c, !c.noDigits)
}

// goodEscape tells whether b[i], the byte after a backslash, makes a valid
// escape: a two-byte one's, or a \u followed by four hex digits (which
// then read as any other bytes).
func goodEscape(b []byte, i int) bool {
	if escapeKinds[b[i]] == escapeShort {
		return true
	}
	if b[i] != 'u' || i+4 >= len(b) {
		return false
	}
	for _, c := range b[i+1 : i+5] {
		if hexVal(c) < 0 {
			return false
		}
	}
	return true
}

// skeletonOf is the reference for lineSkeleton, byte by byte: the
// skeleton of the value that starts at b[0], to the line's end, and the
// index of its '\n'; ok is false where lineSkeleton's size is -1 for the
// line's content (not for the readable length or the blocks, which only
// lineSkeleton knows).
func skeletonOf(b []byte, digits bool) (sk []byte, end int, ok bool) {
	inString, escaped := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch {
			case escaped:
				escaped = false
				if !goodEscape(b, i) {
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
			if i+1 == len(b) || !goodEscape(b, i+1) {
				return nil, 0, false
			}
			sk = append(sk, c, b[i+1])
			i++
		case c == '\n':
			return sk, i, len(sk) <= skeletonMax
		case c < 0x20:
			return nil, 0, false
		case c == '"':
			inString = true
			sk = append(sk, c)
		case digits && isDigit(c):
			if i > 0 && isDigit(b[i-1]) {
				continue
			}
			if c == '0' && i+1 < len(b) && isDigit(b[i+1]) && (i == 0 || b[i-1] != '.') {
				return nil, 0, false
			}
			sk = append(sk, '1')
		default:
			sk = append(sk, c)
		}
	}
	return nil, 0, false
}
