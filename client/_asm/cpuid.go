package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// cpuid writes cpuid, for the feature check of client/vector_amd64.go: the
// registers CPUID leaves for leaf eax, subleaf ecx. It is linestream's,
// copied: client imports no more of linestream than its API.
func cpuid() {
	TEXT("cpuid", NOSPLIT, "func(eax, ecx uint32) (a, b, c, d uint32)")
	Load(Param("eax"), EAX)
	Load(Param("ecx"), ECX)
	CPUID()
	Store(EAX, Return("a"))
	Store(EBX, Return("b"))
	Store(ECX, Return("c"))
	Store(EDX, Return("d"))
	RET()
}

// xgetbv writes xgetbv: the low 32 bits of the extended control register
// XCR0.
func xgetbv() {
	TEXT("xgetbv", NOSPLIT, "func() uint32")
	MOVL(U32(0), ECX)
	XGETBV()
	Store(EAX, ReturnIndex(0))
	RET()
}
