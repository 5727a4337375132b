package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// tables are the read-only tables textVector reads, each 32 bytes (one
// YMM register) but firstBytes; their words are those of the hand-written
// file.
type tables struct {
	backslashes Mem // '\\' in every byte: VPCMPEQB finds the backslashes
	lowNibbles  Mem // 0x0F in every byte: a byte's low nibble, for VPSHUFB
	twoConts    Mem // 0x80 in every byte: see utf8Check
	// belowLead[n] is C0-1, E0-1, F0-1 in every byte (n = 2, 3, 4): a byte
	// minus it, saturated at 0 (VPSUBUSB), is not 0 exactly when the
	// byte starts a character of n bytes or more.
	belowLead [5]Mem
	// The three lookups of the UTF-8 check (see utf8Check), each 16
	// bytes in each 128-bit lane.
	prev1Hi, prev1Lo, curHi Mem
	firstBytes              Mem // 32 bytes 0xFF, then 32 bytes 0
	cutAtEnd                Mem // see backToLead
}

func declareTables() *tables {
	t := &tables{
		backslashes: words("backslashes", 0x5c5c5c5c5c5c5c5c, 0x5c5c5c5c5c5c5c5c, 0x5c5c5c5c5c5c5c5c, 0x5c5c5c5c5c5c5c5c),
		lowNibbles:  words("lowNibbles", 0x0f0f0f0f0f0f0f0f, 0x0f0f0f0f0f0f0f0f, 0x0f0f0f0f0f0f0f0f, 0x0f0f0f0f0f0f0f0f),
		twoConts:    words("twoConts", 0x8080808080808080, 0x8080808080808080, 0x8080808080808080, 0x8080808080808080),
	}
	t.belowLead[2] = words("belowC0", 0xbfbfbfbfbfbfbfbf, 0xbfbfbfbfbfbfbfbf, 0xbfbfbfbfbfbfbfbf, 0xbfbfbfbfbfbfbfbf)
	t.belowLead[3] = words("belowE0", 0xdfdfdfdfdfdfdfdf, 0xdfdfdfdfdfdfdfdf, 0xdfdfdfdfdfdfdfdf, 0xdfdfdfdfdfdfdfdf)
	t.belowLead[4] = words("belowF0", 0xefefefefefefefef, 0xefefefefefefefef, 0xefefefefefefefef, 0xefefefefefefefef)
	t.prev1Hi = words("utf8Prev1Hi", 0x0202020202020202, 0x4915012180808080, 0x0202020202020202, 0x4915012180808080)
	t.prev1Lo = words("utf8Prev1Lo", 0xcbcbcb8b8383a3e7, 0xcbcbdbcbcbcbcbcb, 0xcbcbcb8b8383a3e7, 0xcbcbdbcbcbcbcbcb)
	t.curHi = words("utf8CurHi", 0x0101010101010101, 0x01010101babaaee6, 0x0101010101010101, 0x01010101babaaee6)
	t.firstBytes = words("firstBytes", 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0, 0, 0, 0)
	t.cutAtEnd = words("cutAtEnd", 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xbfdfefffffffffff)
	return t
}

// words declares the read-only table name holding the 8-byte words w.
func words(name string, w ...uint64) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for i, x := range w {
		DATA(8*i, U64(x))
	}
	return m
}
