package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// cpuid writes cpuid (vector_amd64.go).
func cpuid() {
	Implement("cpuid")
	Attributes(NOSPLIT)
	Load(Param("eax"), EAX)
	Load(Param("ecx"), ECX)
	CPUID()
	Store(EAX, Return("a"))
	Store(EBX, Return("b"))
	Store(ECX, Return("c"))
	Store(EDX, Return("d"))
	RET()
}

// xgetbv writes xgetbv (vector_amd64.go).
func xgetbv() {
	Implement("xgetbv")
	Attributes(NOSPLIT)
	MOVL(U32(0), ECX)
	XGETBV()
	Store(EAX, ReturnIndex(0))
	RET()
}
