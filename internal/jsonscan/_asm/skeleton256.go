package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// gather gathers the kept bytes of group g (bits 8g to 8g+7 of AX, shifted
// down to AL) of the block, from the register src that holds them (its
// low 8 bytes for an even g, its high 8 for an odd one), and stores them at
// the skeleton's length in out, zeros past them to the group's eighth
// byte; the length grows by their number; AX shifts to the next group, ZF
// set when no kept byte is left. Groups past the line's end, or its last
// string, are skipped only after groups 3 and 5 (gatherExits): that spares
// most of the gathers of a line under two blocks long, while a test after
// every group is hard to predict where line lengths vary (the SDK's finish
// steps and tool-call deltas), and its mispredicted branches cost more than
// the empty groups they skip. Gathering from the registers rather than from
// a copy of the block on the stack spares the copy's two stores and eight
// loads (the first of which waits for the stores).
func gather(g int, src VecPhysical) {
	MOVBLZX(AL, ECX)
	VPSHUFB(Mem{Disp: g % 2 * 2048, Base: R14, Index: RCX, Scale: 8}, src, X4)
	VMOVQ(X4, Mem{Base: RDI, Index: R9, Scale: 1})
	POPCNTL(ECX, ECX)
	ADDQ(RCX, R9)
	SHRQ(Imm(8), RAX)
}

// gatherExits are the groups after which the gather stops when no kept
// byte is left (gather).
var gatherExits = [8]bool{3: true, 5: true}

// wayEq64 sets ZF when the 64 bytes of way r (its offset in c, CX) are
// those of Y0 and Y1, the skeleton (zeros past it): the skeleton is that
// way's (a way's bytes are zeros past its length, and a skeleton has no
// zero byte). Uses Y2, Y3, AX.
func wayEq64(r GPPhysical) {
	ways := lay.offset("codeSkeletons", "ways")
	VPCMPEQB(Mem{Disp: ways, Base: RCX, Index: r, Scale: 1}, Y0, Y2)
	VPCMPEQB(Mem{Disp: ways + 32, Base: RCX, Index: r, Scale: 1}, Y1, Y3)
	VPAND(Y2, Y3, Y2)
	VPMOVMSKB(Y2, EAX)
	CMPL(EAX, I8(-1))
}

// lineSkeleton256 writes lineSkeleton256 (vector_amd64.go), the AVX2
// variant of lineSkeleton; Go reference: skeletonOf (the package's
// skeleton.go), byte by byte.
//
// Each block of 64 bytes is in Y0 (its first 32) and Y1 (its last 32), its
// masks made 32 bytes at a time (VPMOVMSKB) and joined: R8 the quotes, CX
// the backslashes, R13 the control bytes; from there the registers are
// lineSkeleton512's (skeleton512.go), but for the carry of digits
// (lineSkeleton512's K4), at 0(SP). With digits, Y2 and Y3 the digits, Y4
// and Y5 the bytes less '0'. The skeleton grows in out: each block's bytes,
// digits made '1', are gathered from Y0 and Y1 (their high lanes extracted
// to X6 and X7) 8 at a time (gather). The first block's are copied from
// c.first where that block keeps the bytes it kept (firstBlock in the
// package's skeleton.go), with R12 c; a line whose skeleton fits in 64
// bytes is remembered there at the end, its first block's kept bytes at
// 8(SP) (learn).
//
// Constants: Y8 '"', Y9 '\\', Y10 0x1f, Y11 escapeLo, Y12 escapeHi, Y13 the
// low nibble mask, Y14 all ones (X14 for the prefix XOR), Y15 zeros.
func lineSkeleton256() {
	ways := lay.offset("codeSkeletons", "ways")
	lens := lay.offset("codeSkeletons", "lens")
	Implement("lineSkeleton256")
	Attributes(NOSPLIT)
	fail := LabelRef("fail")
	AllocLocal(16)
	carry := Mem{Disp: 0, Base: RSP}
	// learn: the bytes the line's first block keeps, when its skeleton is
	// to be remembered (firstBlock) should it fit in 64 bytes; else 0.
	learn := Mem{Disp: 8, Base: RSP}
	first := lay.offset("codeSkeletons", "first")
	firstKept := first + lay.offset("firstBlock", "kept")
	credit := Mem{Disp: first + lay.offset("firstBlock", "credit"), Base: R12}
	firstBytes := first + lay.offset("firstBlock", "bytes")
	firstSkeleton := first + lay.offset("firstBlock", "skeleton")
	Load(Param("p"), RSI)
	Load(Param("out"), RDI)
	VMOVDQU(quotes, Y8)
	VMOVDQU(backslashes, Y9)
	VMOVDQU(controls, Y10)
	VMOVDQU(escapeLo, Y11)
	VMOVDQU(escapeHi, Y12)
	VMOVDQU(nibbles, Y13)
	VPCMPEQB(Y14, Y14, Y14)
	VPXOR(Y15, Y15, Y15)
	XORQ(RBX, RBX)
	XORQ(R9, R9)
	XORQ(R10, R10)
	XORQ(R11, R11)
	MOVQ(U32(0), carry)
	MOVQ(U32(0), learn)

	Label("block")
	LEAQ(Mem{Disp: 64, Base: RBX}, RAX)
	CMPQ(RAX, arg(Param("n")))
	JA(fail) // fewer than 64 readable bytes left
	VMOVDQU(Mem{Base: RSI, Index: RBX, Scale: 1}, Y0)
	VMOVDQU(Mem{Disp: 32, Base: RSI, Index: RBX, Scale: 1}, Y1)
	b := ymm{y: []vec{Y0, Y1}, nib: &nibbleTables{lo: Y11, hi: Y12, mask: Y13, zero: Y15}}
	b.eq(Y8, R8)
	b.eq(Y9, RCX)
	b.join(b.controls(Y10), R13)
	XORQ(RAX, RAX)
	XORQ(R12, R12)
	MOVQ(RCX, RDX)
	ORQ(R10, RDX)
	JZ(LabelRef("quotes"))

	escapedBytes(RCX, R10, RAX)
	badEscapes(b, RAX, R12)

	Label("quotes")
	ANDNQ(R8, RAX, R8)
	inStrings(R8, X14, R11, RDX)

	// The line ends at the first control byte.
	MOVQ(R13, RAX)
	lineEnd(fail)

	ANDNQ(RDX, R8, R8)
	XORQ(RCX, RCX)
	CMPB(arg(Param("digits")), Imm(0))
	JEQ(LabelRef("skeleton"))
	VPSUBB(zero32, Y0, Y4)
	VPSUBB(zero32, Y1, Y5)
	VPMINUB(nine32, Y4, Y2)
	VPCMPEQB(Y2, Y4, Y2) // '0' to '9'
	VPMINUB(nine32, Y5, Y3)
	VPCMPEQB(Y3, Y5, Y3)
	b.join([]vec{Y2, Y3}, R12)
	ANDNQ(R12, RDX, R12)
	XORL(EAX, EAX) // no digit carried to the next block
	ANDQ(R13, R12)
	JZ(LabelRef("dot"))
	MOVQ(carry, RAX)
	BTQ(Imm(2), RAX)
	JCC(LabelRef("starts"))
	BTQ(Imm(0), R12)
	JCS(fail)

	Label("starts")
	runs()
	VPCMPEQB(Y4, Y15, Y6) // '0'
	VPCMPEQB(Y5, Y15, Y7)
	b.join([]vec{Y6, Y7}, RAX)
	zeroRuns()
	JZ(LabelRef("ones"))
	VPCMPEQB(dot32, Y0, Y6)
	VPCMPEQB(dot32, Y1, Y7)
	b.join([]vec{Y6, Y7}, RDX)
	MOVQ(carry, R14)
	SHRQ(Imm(1), R14)
	ANDQ(Imm(1), R14)
	LEAQ(Mem{Base: R14, Index: RDX, Scale: 2}, RDX) // the bytes after a '.'
	ANDNQ(RAX, RDX, RAX)
	JNZ(fail)

	Label("ones")
	VPBLENDVB(Y2, one32, Y0, Y0)
	VPBLENDVB(Y3, one32, Y1, Y1)
	lastDigit(LabelRef("skeleton"))

	Label("dot")
	lastDot()
	MOVQ(RAX, carry)

	// The skeleton: the bytes outside strings and the quotes, digits
	// dropped, to the line's end, gathered into out at its length.
	Label("skeleton")
	MOVQ(R8, RAX)
	ORQ(RCX, RAX)
	ANDNQ(R13, RAX, RAX)
	POPCNTQ(RAX, RDX)
	JZ(LabelRef("appended")) // nothing from this block
	ADDQ(R9, RDX)
	CMPQ(RDX, Imm(uint64(lay.constant("skeletonMax"))))
	JA(fail)
	LEAQ(compress8, R14)

	// The first block: where it keeps the bytes the code's last line's
	// did (c.first), the skeleton's first bytes are that line's, copied;
	// else they are gathered, and remembered at the end.
	TESTQ(RBX, RBX)
	JNZ(LabelRef("gather"))
	Load(Param("c"), R12)
	CMPL(credit, Imm(0))
	JL(LabelRef("firstRest"))
	CMPQ(RAX, Mem{Disp: firstKept, Base: R12})
	JNE(LabelRef("firstMiss"))
	VPCMPEQB(Mem{Disp: firstBytes, Base: R12}, Y0, Y2)
	VPCMPEQB(Mem{Disp: firstBytes + 32, Base: R12}, Y1, Y3)
	b.join([]vec{Y2, Y3}, R8)
	ANDNQ(RAX, R8, R8) // the kept bytes that differ
	JNZ(LabelRef("firstMiss"))
	VMOVDQU(Mem{Disp: firstSkeleton, Base: R12}, Y2)
	VMOVDQU(Mem{Disp: firstSkeleton + 32, Base: R12}, Y3)
	VMOVDQU(Y2, Mem{Base: RDI})
	VMOVDQU(Y3, Mem{Disp: 32, Base: RDI})
	MOVQ(RDX, R9)
	MOVL(credit, R8L)
	INCL(R8L)
	MOVL(U32(lay.constant("firstCreditMax")), ECX)
	CMPL(R8L, ECX)
	CMOVLGT(ECX, R8L)
	MOVL(R8L, credit)
	// A line that ends in its first block has the skeleton copied, in Y2
	// and Y3 (zeros past it, as it was remembered): copiedDone compares it
	// from there.
	CMPQ(R13, I8(-1))
	JNE(LabelRef("copiedDone"))
	ADDQ(Imm(64), RBX)
	JMP(LabelRef("block"))

	Label("firstRest")
	INCL(credit)
	JMP(LabelRef("gather"))

	Label("firstMiss")
	SUBL(U32(lay.constant("firstMissCost")), credit)
	JNS(LabelRef("firstLearn"))
	MOVL(U32(-lay.constant("firstRest")), credit)

	Label("firstLearn")
	MOVQ(U32(0), Mem{Disp: firstKept, Base: R12}) // none until the end
	VMOVDQU(Y0, Mem{Disp: firstBytes, Base: R12})
	VMOVDQU(Y1, Mem{Disp: firstBytes + 32, Base: R12})
	MOVQ(RAX, learn)

	Label("gather")
	// A block with nothing kept in its first 32 bytes (a string's end in
	// the block after its start) starts at group 4.
	TESTL(EAX, EAX)
	JNZ(LabelRef("group0"))
	SHRQ(Imm(32), RAX)
	JMP(LabelRef("group4"))
	Label("group0")
	for g := range 8 {
		src := []VecPhysical{X0, X6, X1, X7}[g/2]
		switch g {
		case 2:
			VEXTRACTI128(Imm(1), Y0, X6)
		case 4:
			Label("group4")
		case 6:
			VEXTRACTI128(Imm(1), Y1, X7)
		}
		gather(g, src)
		if gatherExits[g] {
			JZ(LabelRef("appended"))
		}
	}

	Label("appended")
	CMPQ(R13, I8(-1))
	JNE(LabelRef("done"))
	ADDQ(Imm(64), RBX)
	JMP(LabelRef("block"))

	// copiedDone is done for a line that ends in its first block, whose
	// skeleton (1 to 64 bytes, nothing to learn) was copied from c.first
	// and is in Y2 and Y3: they are compared with the ways rather than
	// the skeleton read back from out, which the copy's stores and the
	// zeros' overlap (a load that no single store can forward waits for
	// them to reach the cache, which nearly doubles a one-block line's time).
	Label("copiedDone")
	results()
	VMOVDQU(Y15, Mem{Base: RDI, Index: R9, Scale: 1})
	VMOVDQU(Y15, Mem{Disp: 32, Base: RDI, Index: R9, Scale: 1})
	Load(Param("c"), RCX)
	VMOVDQA(Y2, Y0)
	VMOVDQA(Y3, Y1)
	JMP(LabelRef("learnt"))

	Label("done")
	// Zeros for the 64 bytes past the skeleton (out has room: the
	// skeleton is at most skeletonMax); then as lineSkeleton512, but from
	// out: first way 0, then the ways of its length, 64 bytes each (zeros
	// past both), or, longer than 64 bytes, 32 at a time, the last under
	// a mask.
	results()
	VMOVDQU(Y15, Mem{Base: RDI, Index: R9, Scale: 1})
	VMOVDQU(Y15, Mem{Disp: 32, Base: RDI, Index: R9, Scale: 1})
	TESTQ(R9, R9)
	JZ(LabelRef("ret"))
	Load(Param("c"), RCX)
	CMPQ(R9, Imm(64))
	JA(LabelRef("lens"))
	VMOVDQU(Mem{Base: RDI}, Y0)
	VMOVDQU(Mem{Disp: 32, Base: RDI}, Y1)
	// A skeleton of up to 64 bytes is remembered with its first block.
	MOVQ(learn, RAX)
	TESTQ(RAX, RAX)
	JZ(LabelRef("learnt"))
	VMOVDQU(Y0, Mem{Disp: firstSkeleton, Base: RCX})
	VMOVDQU(Y1, Mem{Disp: firstSkeleton + 32, Base: RCX})
	MOVQ(RAX, Mem{Disp: firstKept, Base: RCX})

	Label("learnt")
	CMPQ(R9, Imm(64))
	JEQ(LabelRef("lens")) // way 0 first only below 64 bytes (wayZeroFirst)
	XORL(EDX, EDX)
	wayEq64(RDX)
	JEQ(LabelRef("hit"))

	Label("lens")
	VMOVQ(R9, X2)
	VPBROADCASTB(X2, X2)
	VPCMPEQB(Mem{Disp: lens, Base: RCX}, X2, X2)
	VPMOVMSKB(X2, R12L) // the ways of its length
	TESTQ(R12, R12)
	JZ(LabelRef("ret"))
	CMPQ(R9, Imm(64))
	JA(LabelRef("long"))

	Label("short")
	wayAt()
	wayEq64(R14)
	JEQ(LabelRef("hit"))
	BLSRQ(R12, R12)
	JNZ(LabelRef("short"))
	JMP(LabelRef("ret"))

	Label("long")
	wayAt()
	LEAQ(Mem{Disp: ways, Base: RCX, Index: R14, Scale: 1}, R14)
	XORL(EAX, EAX)

	Label("chunk")
	VMOVDQU(Mem{Base: RDI, Index: RAX, Scale: 1}, Y2)
	VPCMPEQB(Mem{Base: R14, Index: RAX, Scale: 1}, Y2, Y2)
	VPMOVMSKB(Y2, R13L)
	MOVQ(R9, RBX)
	SUBQ(RAX, RBX) // the bytes left
	CMPQ(RBX, Imm(32))
	JAE(LabelRef("whole"))
	MOVL(I32(-1), R8L)
	BZHIL(EBX, R8L, R8L)
	NOTL(R8L)
	ORL(R8L, R13L) // past the skeleton: equal

	Label("whole")
	CMPL(R13L, I8(-1))
	JNE(LabelRef("longNext"))
	ADDQ(Imm(32), RAX)
	CMPQ(RAX, R9)
	JB(LabelRef("chunk"))
	JMP(LabelRef("hit"))

	skeletonEnd(fail)
}
