package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/reg"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/gotypes"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
)

// arg returns the address of c, an argument or result of the function
// being written.
func arg(c gotypes.Component) Mem {
	b, err := c.Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// goSym returns the address of jsonscan's Go symbol name (a variable or
// a function).
func goSym(name string) Mem {
	return NewDataAddr(Symbol{Name: "·" + name}, 0)
}

// tailJMP jumps to the function at target, a tail call: the function's
// arguments and results are the target's. (avo's JMP takes a label only.)
func tailJMP(target Mem) {
	Instruction(&ir.Instruction{Opcode: "JMP", Operands: []Op{target}, IsTerminal: true})
}

// call calls the function at target. (avo's CALL takes a relative offset
// only.)
func call(target Mem) {
	Instruction(&ir.Instruction{Opcode: "CALL", Operands: []Op{target}})
}

// labels counts the labels newLabel made, by name.
var labels = map[string]int{}

// newLabel places nothing: it returns a label named after name that no other
// call returns, for a step written more than once in a function to have
// labels of its own at each place.
func newLabel(name string) LabelRef {
	labels[name]++
	return LabelRef(fmt.Sprintf("%s%d", name, labels[name]))
}

// gp is a general-purpose register, physical or virtual (avo's
// allocator chooses it).
type gp interface {
	reg.Register
	reg.GP
}

// vec is a vector register, physical or virtual.
type vec interface {
	reg.Register
	reg.Vec
}
