package main

import (
	"bytes"
	"encoding/binary"
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"

	utf8rule "github.com/chatwire/chatwire/internal/utf8rule/_asm"
)

// tables are the read-only tables textVector reads, each 32 bytes (one
// YMM register) but firstBytes, each computed from what it means.
type tables struct {
	backslashes Mem // '\\' in every byte: VPCMPEQB finds the backslashes
	lowNibbles  Mem // 0x0F in every byte: a byte's low nibble, for VPSHUFB
	twoConts    Mem // utf8rule.TwoConts in every byte: see utf8Check
	// belowLead[n] is utf8rule.LeadMin(n)-1 in every byte (n = 2, 3, 4): a byte
	// minus it, saturated at 0 (VPSUBUSB), is not 0 exactly when the
	// byte starts a character of n bytes or more.
	belowLead [5]Mem
	// The three lookups of the UTF-8 check (see utf8rule.Lookups), each 16
	// bytes in each 128-bit lane.
	prev1Hi, prev1Lo, curHi Mem
	firstBytes              Mem // 32 bytes 0xFF, then 32 bytes 0
	cutAtEnd                Mem // see backToLead
}

func declareTables() *tables {
	t := &tables{
		backslashes: table("backslashes", splat('\\')),
		lowNibbles:  table("lowNibbles", splat(0x0F)),
		twoConts:    table("twoConts", splat(utf8rule.TwoConts)),
	}
	for n := 2; n <= 4; n++ {
		t.belowLead[n] = table(fmt.Sprintf("below%02X", utf8rule.LeadMin(n)), splat(utf8rule.LeadMin(n)-1))
	}
	prev1Hi, prev1Lo, curHi := utf8rule.Lookups()
	t.prev1Hi = table("utf8Prev1Hi", lanes(prev1Hi))
	t.prev1Lo = table("utf8Prev1Lo", lanes(prev1Lo))
	t.curHi = table("utf8CurHi", lanes(curHi))
	// From firstBytes+32-n, 32 bytes are a mask of the first n.
	t.firstBytes = table("firstBytes", append(splat(0xFF), make([]byte, 32)...))
	t.cutAtEnd = table("cutAtEnd", cutAtEnd())
	return t
}

// table declares the read-only table name holding b, whose length is a
// multiple of 8.
func table(name string, b []byte) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for i := 0; i < len(b); i += 8 {
		DATA(i, U64(binary.LittleEndian.Uint64(b[i:])))
	}
	return m
}

// splat returns 32 bytes c.
func splat(c byte) []byte { return bytes.Repeat([]byte{c}, 32) }

// lanes returns the 16-byte table t twice: VPSHUFB looks up each 128-bit
// lane's bytes in that lane's 16 bytes.
func lanes(t [16]byte) []byte { return append(t[:], t[:]...) }
