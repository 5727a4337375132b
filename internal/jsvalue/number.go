package jsvalue

// Numbers as JavaScript prints them.

import (
	"errors"
	"math"
	"math/bits"
	"strconv"
)

// appendNumber appends the valid JSON number tok as JavaScript prints the
// double it parses to (Number.prototype.toString, which JSON.stringify
// uses; Infinity prints as null).
func appendNumber(dst, tok []byte) []byte {
	// Small integers print as they are written (but -0 as 0).
	if len(tok) <= 15 {
		digits := tok
		if digits[0] == '-' {
			digits = digits[1:]
		}
		plain := len(digits) > 0
		for _, c := range digits {
			if c < '0' || c > '9' {
				plain = false
				break
			}
		}
		if plain {
			if string(tok) == "-0" {
				return append(dst, '0')
			}
			return append(dst, tok...)
		}
	}
	f, err := strconv.ParseFloat(string(tok), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return append(dst, "null"...)
	}
	return AppendFloat(dst, f)
}

// AppendFloat appends f as JavaScript's Number.prototype.toString writes it
// (the ES6 shortest round-trip form, as encoding/json also uses), with NaN
// and ±Infinity as null, as JSON.stringify writes them.
func AppendFloat(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	if f == 0 {
		return append(dst, '0') // also -0
	}
	format := byte('f')
	if abs := math.Abs(f); abs < 1e-6 || abs >= 1e21 {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// 1e-07 → 1e-7, as JavaScript writes exponents without padding.
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

// pow10u holds the powers of ten that fit in a uint64.
var pow10u = func() (p [20]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// isShortest reports whether the decimal m×10^-k (m with 16 to 18 digits,
// the last not 0, k ≤ 19) is what JavaScript prints for the double it parses
// to, x: whether no decimal of fewer digits parses to x and m is the
// nearest of its length to x (Number::toString's choice). It computes in
// exact 128-bit integers, without printing x; ok is false where it does
// not decide (x of 2^52 or more, at a power of two, a tie), for the caller
// to print x.
//
// Scaled by 10^k·2^s (x = mant·2^-s), x is A = mant·10^k, a decimal q (in
// units of 10^-k) is q·2^s, and the decimals that parse to x are those
// within half an ulp, 10^k/2, of A.
func isShortest(m uint64, k int) (shortest, ok bool) {
	x := float64(m) / float64(pow10u[k]) // within an ulp or two of the double m×10^-k parses to
	// within reports whether q is within half an ulp of the double c.
	within := func(c float64, q uint64) (in, decided bool) {
		b := math.Float64bits(c)
		mant, e := b&(1<<52-1), int(b>>52&0x7FF)
		if e == 0 || mant == 0 || c >= 1<<52 {
			return false, false // subnormal, a power of two (its lower neighbour is nearer), or past the integers
		}
		mant |= 1 << 52
		shift := 1075 - e // c = mant·2^-shift
		if bits.Len64(q)+shift > 127 {
			return false, false
		}
		diff := absDiff128(shl128(q, shift), mul128(mant, pow10u[k]))
		half := pow10u[k] / 2
		if diff.hi != 0 || diff.lo > half {
			return false, true
		}
		if diff.lo == half {
			return mant&1 == 0, true // round half to even: the even one takes the tie
		}
		return true, true
	}
	// Find x: the double whose interval holds m.
	found := false
	for _, step := range [...]int64{0, -1, 1, -2, 2} { // x and its neighbours (x > 0)
		c := math.Float64frombits(uint64(int64(math.Float64bits(x)) + step))
		in, decided := within(c, m)
		if !decided {
			return false, false
		}
		if in {
			x, found = c, true
			break
		}
	}
	if !found {
		return false, false
	}
	// m is the nearest decimal of its length to x: |m·2^s − A| < 2^s/2.
	b := math.Float64bits(x)
	mant, shift := b&(1<<52-1)|1<<52, 1075-int(b>>52&0x7FF)
	diff := absDiff128(shl128(m, shift), mul128(mant, pow10u[k]))
	halfUnit := shl128(1, shift-1)
	if diff == halfUnit {
		return false, false
	}
	if diff.hi > halfUnit.hi || (diff.hi == halfUnit.hi && diff.lo > halfUnit.lo) {
		return false, true
	}
	// No decimal with a digit fewer parses to x: the two nearest to m.
	lo := m - m%10
	for _, q := range [...]uint64{lo, lo + 10} {
		in, decided := within(x, q)
		if !decided {
			return false, false
		}
		if in {
			return false, true
		}
	}
	return true, true
}

// u128 is an unsigned 128-bit integer.
type u128 struct{ hi, lo uint64 }

func mul128(a, b uint64) u128 {
	hi, lo := bits.Mul64(a, b)
	return u128{hi, lo}
}

// shl128 returns q<<s for 0 < s < 128 (the caller keeps it below 2^128).
func shl128(q uint64, s int) u128 {
	if s >= 64 {
		return u128{q << (s - 64), 0}
	}
	return u128{q >> (64 - s), q << s}
}

func absDiff128(a, b u128) u128 {
	if a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo) {
		a, b = b, a
	}
	lo, borrow := bits.Sub64(a.lo, b.lo, 0)
	hi, _ := bits.Sub64(a.hi, b.hi, borrow)
	return u128{hi, lo}
}
