package main

import (
	"fmt"
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/packages"
)

// layout is what the assembly needs to know of jsonscan's Go types and
// constants, read from the package's source (as go_asm.h would give them
// to hand-written assembly): a change to them shows as a change of the
// generated file.
type layout struct {
	pkg   *types.Package
	sizes types.Sizes
}

// loadLayout type-checks the package at path.
func loadLayout(path string) (*layout, error) {
	cfg := &packages.Config{
		Mode: packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo,
	}
	pkgs, err := packages.Load(cfg, path)
	if err != nil {
		return nil, err
	}
	if len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		return nil, fmt.Errorf("load %s: %v", path, pkgs[0].Errors)
	}
	return &layout{pkg: pkgs[0].Types, sizes: types.SizesFor("gc", "amd64")}, nil
}

// constant returns the value of the integer constant name.
func (l *layout) constant(name string) int {
	c, ok := l.pkg.Scope().Lookup(name).(*types.Const)
	if !ok {
		panic(fmt.Sprintf("%s is not a constant of %s", name, l.pkg.Path()))
	}
	v, ok := constant.Int64Val(c.Val())
	if !ok {
		panic(fmt.Sprintf("%s is not an integer", name))
	}
	return int(v)
}

// size returns the size of the type name, as unsafe.Sizeof.
func (l *layout) size(name string) int {
	return int(l.sizes.Sizeof(l.typ(name)))
}

// offset returns the offset of field in the struct type name, as
// unsafe.Offsetof.
func (l *layout) offset(name, field string) int {
	s, ok := l.typ(name).Underlying().(*types.Struct)
	if !ok {
		panic(fmt.Sprintf("%s is not a struct", name))
	}
	fields := make([]*types.Var, s.NumFields())
	for i := range fields {
		fields[i] = s.Field(i)
	}
	offsets := l.sizes.Offsetsof(fields)
	for i, f := range fields {
		if f.Name() == field {
			return int(offsets[i])
		}
	}
	panic(fmt.Sprintf("%s has no field %s", name, field))
}

func (l *layout) typ(name string) types.Type {
	t, ok := l.pkg.Scope().Lookup(name).(*types.TypeName)
	if !ok {
		panic(fmt.Sprintf("%s is not a type of %s", name, l.pkg.Path()))
	}
	return t.Type()
}
