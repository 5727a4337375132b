package jsonscan

// This file is the package's API for the decoders: thin functions over the
// validator (scan.go), the walker (compact.go), the vector paths (vector.go)
// and the skeletons (skeleton.go), each inlined into its caller.

// ScanString checks the JSON string whose opening quote is b[i] and
// returns the index just past its closing quote. It reads eight bytes at a
// time, also past len(b) up to cap(b), and decides only on bytes before
// len(b).
func ScanString(b []byte, i int) (int, *Error) { return scanString(b, i) }

// ScanValue checks the JSON value, with optional whitespace around it, that
// starts at b[i], and returns its bounds and next, the index of the first
// byte after the whitespace that follows it. lf tells whether '\n' is
// whitespace; stack is scratch space for the open containers, returned
// grown where it had to grow.
func ScanValue(b []byte, i int, stack []byte, lf bool) (start, end, next int, _ []byte, err *Error) {
	return scanValue(b, i, stack, lf)
}

// Validate checks that b holds exactly one JSON value (RFC 8259) with
// optional whitespace around it, and returns the value's bounds; stack is
// as for ScanValue.
func Validate(b, stack []byte) (start, end int, _ []byte, err *Error) { return validate(b, stack) }

// ScanCompact checks the compact JSON value (no whitespace between tokens,
// as JSON.stringify writes) that starts at b[i], and returns the index just
// past it and true; false where the value is not valid, not compact, or
// nests deeper than 63: ScanValue then has the last word. masks tells
// whether it may use the vector scanner: pass [Vector]'s result.
func ScanCompact(b []byte, i int, masks bool) (int, bool) { return scanCompact(b, i, masks) }

// BlockMasks returns two masks of the 64 bytes from p, where no string is
// open at p[0]: bit k of quotes is set where p[k] is a '"' no backslash
// escapes, bit k of bad where p[k] is a control byte or a character a
// backslash escapes that makes no valid escape (neither a two-byte escape
// nor a \u with its four hex digits in the block). Bit k depends on p[k]
// and the bytes before it only, and for a 'u' after a backslash on the
// four bytes after it. Call it only where [Vector] holds, with 64 readable
// bytes at p.
func BlockMasks(p *byte) (quotes, bad uint64) { return blockMasks(p) }

// ScanCompactMasks is [ScanCompact] with the vector scanner, given
// [BlockMasks] of the bytes from b[i] (as ScanCompact would compute them
// first), or masks with bits missing at their top end only.
func ScanCompactMasks(b []byte, i int, quotes, bad uint64) (int, bool) {
	return scanCompactWith(b, i, true, quotes, bad)
}

// SkipValue returns the index just past the JSON value that starts at
// b[i], which must be valid (as Validate or ScanValue found it): a string
// to its closing quote, an object or array to its closing bracket, a
// number or literal to the delimiter after it. It validates nothing.
func SkipValue(b []byte, i int) int { return skipValue(b, i) }

// SkipWS returns the index of the first byte at or after b[i] that is not
// JSON whitespace.
func SkipWS(b []byte, i int) int { return skipWS(b, i) }

// IsWS reports whether c is JSON whitespace.
func IsWS(c byte) bool { return isWS(c) }

// HexVal returns the value of the hex digit c, or -1.
func HexVal(c byte) int { return hexVal(c) }

// Vector reports whether the vector paths run: the CPU has them (the avx2
// level of internal/cpu, in a build without the purego tag) and
// [SetVectorScan] has not turned them off.
func Vector() bool { return haveVector && vectorOn.Load() }

// HaveSkeleton reports whether the process can run [LineSkeleton].
func HaveSkeleton() bool { return haveSkeleton }

// StringSpecial returns a mask with the high bit set in every byte of x,
// eight bytes of a string read little-endian, that is '"', '\\' or below
// 0x20; bytes above the first such byte may be marked too, the lowest mark
// is exact.
func StringSpecial(x uint64) uint64 { return stringSpecial(x) }
