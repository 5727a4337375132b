// Package utf8rule is the UTF-8 rule of chatwire's generated assembly,
// written once for the avo programs that use it: internal/jsvalue/_asm
// (textVector, which copies only well-formed UTF-8) and uistream/_asm
// (utf8Blocks, which finds what the SDK's TextDecoder replaces with
// U+FFFD). Each imports it through a replace directive in its go.mod; the
// directory's leading underscore keeps it out of the chatwire module.
//
// The rule is well-formed UTF-8 as the Unicode Standard's Table 3-7 has it
// (no overlong form, no surrogate D800–DFFF, nothing past U+10FFFF, no
// character cut short), checked by the lookup of Keiser and Lemire
// ("Validating UTF-8 in less than one instruction per byte", 2021, the
// lookup simdjson uses): each byte is judged with the byte before it by
// three lookups of 16 entries ([Lookups], computed from [Pairs]), ANDed,
// and the bit [TwoConts] flipped where the byte must be a character's
// third or fourth (the byte two before is at least [LeadMin](3), or the
// byte three before at least LeadMin(4)); a byte is right where every bit
// is 0. [WellFormed] is that check in Go, which the tests run against
// unicode/utf8. The instructions that apply it are each generator's own.
//
// Files:
//
//	rule.go       LeadMin, Pairs, Lookups, WellFormed: the rule and its tables
//	rule_test.go  the tables against unicode/utf8
package utf8rule

// LeadMin returns the least byte that starts a character of n bytes or
// more (n = 2, 3, 4): C0, E0, F0. C0, C1 and F5–FF start none; the check
// finds each wrong with the byte after it.
func LeadMin(n int) byte { return byte(0xFF << (8 - n)) }

// Nibbles is a set of the 16 values of a nibble, bit v for value v.
type Nibbles uint16

// Span returns the set of the values lo to hi.
func Span(lo, hi int) Nibbles { return Nibbles(1<<(hi+1) - 1<<lo) }

// The high nibbles of the classes of bytes.
var (
	anyNibble = Span(0x0, 0xF)
	asciiHi   = Span(0x0, 0x7) // 00–7F
	contHi    = Span(0x8, 0xB) // 80–BF, the continuation bytes
	leadHi    = Span(0xC, 0xF) // C0–FF
)

// A Pair is one way a byte is wrong with the byte before it, a bit of its
// own: the byte before has its high nibble in PrevHi and its low nibble in
// PrevLo, the byte its high nibble in CurHi.
type Pair struct {
	Bit                   byte
	PrevHi, PrevLo, CurHi Nibbles
}

// TwoConts is the bit of a continuation byte after a continuation byte:
// wrong unless the byte is a character's third or fourth, which the pair
// alone does not tell.
const TwoConts = 0x80

// Pairs are the pairs of bytes that make UTF-8 ill-formed; with the check
// of third and fourth bytes they find every ill-formed sequence.
var Pairs = []Pair{
	{0x01, leadHi, anyNibble, asciiHi | leadHi},                             // a lead byte, then no continuation byte: too short
	{0x02, asciiHi, anyNibble, contHi},                                      // ASCII, then a continuation byte: too long
	{0x04, Span(0xE, 0xE), Span(0x0, 0x0), Span(0x8, 0x9)},                  // E0 80–9F: overlong
	{0x08, Span(0xF, 0xF), Span(0x4, 0xF), Span(0x9, 0xB)},                  // F4–FF 90–BF: past U+10FFFF
	{0x10, Span(0xE, 0xE), Span(0xD, 0xD), Span(0xA, 0xB)},                  // ED A0–BF: a surrogate
	{0x20, Span(0xC, 0xC), Span(0x0, 0x1), contHi},                          // C0, C1: overlong
	{0x40, Span(0xF, 0xF), Span(0x0, 0x0) | Span(0x5, 0xF), Span(0x8, 0x8)}, // F0 80–8F overlong, F5–FF 80–8F
	{TwoConts, contHi, anyNibble, contHi},                                   // a continuation byte after one
}

// Lookups returns the check's three tables, indexed by the byte before's
// high nibble, its low nibble and the byte's high nibble: each holds, for
// each value, the bits of the pairs whose set has it. A bit set in all
// three lookups of two bytes names what is wrong with them.
func Lookups() (prevHi, prevLo, curHi [16]byte) {
	for _, p := range Pairs {
		for v := range 16 {
			if p.PrevHi&(1<<v) != 0 {
				prevHi[v] |= p.Bit
			}
			if p.PrevLo&(1<<v) != 0 {
				prevLo[v] |= p.Bit
			}
			if p.CurHi&(1<<v) != 0 {
				curHi[v] |= p.Bit
			}
		}
	}
	return prevHi, prevLo, curHi
}

// WellFormed runs the check in Go over s, with zeros before it and after
// it (so that a character the end cuts is wrong): it reports whether the
// check finds nothing wrong with any byte.
func WellFormed(s []byte) bool {
	prevHi, prevLo, curHi := Lookups()
	b := append(append(make([]byte, 3, len(s)+6), s...), 0, 0, 0)
	for i := 3; i < len(b); i++ {
		p := b[i-1]
		errs := prevHi[p>>4] & prevLo[p&0x0F] & curHi[b[i]>>4]
		if b[i-2] >= LeadMin(3) || b[i-3] >= LeadMin(4) {
			errs ^= TwoConts
		}
		if errs != 0 {
			return false
		}
	}
	return true
}
