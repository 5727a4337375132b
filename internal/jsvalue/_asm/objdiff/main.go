// Command objdiff makes the output of go tool objdump comparable between
// two builds, for objdiff.sh: it reads the disassembly on standard input
// and the binary it came from (the argument), and prints each instruction
// line's bytes and text without its source line and address, the four
// bytes of each RIP-relative reference to a data symbol replaced by the
// symbol's name, and after each function the contents of the data symbols
// it references. Two builds of the same code and the same tables print the
// same, wherever the linker put them.
//
// go tool objdump decodes some VEX instructions wrongly and so splits the
// bytes into lines that are not instructions: the references are found in
// the function's bytes, not in the text, as the four bytes that point, from
// the address after them, to the start of a data symbol (a static one, as
// the tables are, or one of the package's, as escapeByte is).
package main

import (
	"bufio"
	"debug/elf"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go tool objdump -s REGEXP BINARY | objdiff BINARY")
		os.Exit(2)
	}
	if err := run(os.Stdin, os.Stdout, os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "objdiff:", err)
		os.Exit(1)
	}
}

// line is one line of go tool objdump's output within a function.
type line struct {
	addr  uint64
	bytes []byte
	text  string
}

// function is one TEXT symbol's disassembly.
type function struct {
	name  string
	lines []line
}

func run(in io.Reader, out io.Writer, binary string) error {
	f, err := elf.Open(binary)
	if err != nil {
		return err
	}
	defer f.Close()
	syms, err := dataSymbols(f)
	if err != nil {
		return fmt.Errorf("%s: %w", binary, err)
	}
	funcs, err := parse(in)
	if err != nil {
		return err
	}
	if len(funcs) == 0 {
		return fmt.Errorf("no function in the disassembly")
	}
	w := bufio.NewWriter(out)
	for _, fn := range funcs {
		if err := print(w, f, syms, fn); err != nil {
			return err
		}
	}
	return w.Flush()
}

// dataSymbols returns the symbols a reference may point to, by address:
// the static data symbols and the jsvalue package's.
func dataSymbols(f *elf.File) (map[uint64]elf.Symbol, error) {
	all, err := f.Symbols()
	if err != nil {
		return nil, err
	}
	syms := make(map[uint64]elf.Symbol)
	for _, s := range all {
		if elf.ST_TYPE(s.Info) != elf.STT_OBJECT || s.Size == 0 {
			continue
		}
		if elf.ST_BIND(s.Info) == elf.STB_LOCAL || strings.HasPrefix(s.Name, "github.com/chatwire/chatwire/internal/jsvalue.") {
			syms[s.Value] = s
		}
	}
	return syms, nil
}

// parse reads go tool objdump's output: "TEXT name(SB) file" starts a
// function, "file:line\taddress\t\tbytes\t\ttext" is an instruction line.
func parse(in io.Reader) ([]function, error) {
	var funcs []function
	sc := bufio.NewScanner(in)
	for n := 1; sc.Scan(); n++ {
		s := sc.Text()
		if strings.TrimSpace(s) == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(s, "TEXT "); ok {
			name, _, _ := strings.Cut(rest, " ")
			funcs = append(funcs, function{name: name})
			continue
		}
		fields := strings.Split(strings.TrimSpace(s), "\t")
		var kept []string
		for _, f := range fields {
			if f = strings.TrimSpace(f); f != "" {
				kept = append(kept, f)
			}
		}
		if len(kept) < 3 || len(funcs) == 0 {
			return nil, fmt.Errorf("line %d: not an instruction line: %q", n, s)
		}
		addr, err := strconv.ParseUint(strings.TrimPrefix(kept[1], "0x"), 16, 64)
		if err != nil {
			return nil, fmt.Errorf("line %d: address: %w", n, err)
		}
		b, err := hex.DecodeString(kept[2])
		if err != nil {
			return nil, fmt.Errorf("line %d: bytes: %w", n, err)
		}
		text := ""
		if len(kept) > 3 {
			text = strings.Join(kept[3:], " ")
		}
		fn := &funcs[len(funcs)-1]
		fn.lines = append(fn.lines, line{addr: addr, bytes: b, text: text})
	}
	return funcs, sc.Err()
}

// inFunction matches the numbers a branch target may be written as.
var inFunction = regexp.MustCompile(`0x[0-9a-f]+`)

// print writes fn with its references masked, then the data it references.
func print(w io.Writer, f *elf.File, syms map[uint64]elf.Symbol, fn function) error {
	if len(fn.lines) == 0 {
		return fmt.Errorf("%s: no instructions", fn.name)
	}
	start := fn.lines[0].addr
	var code []byte
	for _, l := range fn.lines {
		if l.addr != start+uint64(len(code)) {
			return fmt.Errorf("%s: a gap before %#x", fn.name, l.addr)
		}
		code = append(code, l.bytes...)
	}
	// ref[i] names the symbol that the reference covering byte i points to.
	ref := make([]string, len(code))
	var used []elf.Symbol
	seen := make(map[string]bool)
	for i := 0; i+4 <= len(code); i++ {
		disp := int32(uint32(code[i]) | uint32(code[i+1])<<8 | uint32(code[i+2])<<16 | uint32(code[i+3])<<24)
		target := start + uint64(i) + 4 + uint64(int64(disp))
		s, ok := syms[target]
		if !ok {
			continue
		}
		for k := i; k < i+4; k++ {
			ref[k] = s.Name
		}
		if !seen[s.Name] {
			seen[s.Name] = true
			used = append(used, s)
		}
		i += 3
	}
	fmt.Fprintf(w, "TEXT %s\n", fn.name)
	at := 0
	for _, l := range fn.lines {
		var hexes, names []string
		for k := range l.bytes {
			if name := ref[at+k]; name != "" {
				hexes = append(hexes, "..")
				if len(names) == 0 || names[len(names)-1] != name {
					names = append(names, name)
				}
				continue
			}
			hexes = append(hexes, fmt.Sprintf("%02x", l.bytes[k]))
		}
		at += len(l.bytes)
		text := inFunction.ReplaceAllStringFunc(l.text, func(h string) string {
			// A branch shows its target's address: the offset in fn.
			a, err := strconv.ParseUint(h[2:], 16, 64)
			if err != nil || a < start || a >= start+uint64(len(code)) {
				return h
			}
			return fmt.Sprintf("fn+%#x", a-start)
		})
		if len(names) > 0 {
			// The text may show the reference's address or, decoded
			// wrongly, its bytes as a number.
			text = "refers to " + strings.Join(names, ", ")
		}
		fmt.Fprintf(w, "\t%s\t%s\n", strings.Join(hexes, ""), text)
	}
	for _, s := range used {
		data, err := symbolData(f, s)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Name, err)
		}
		fmt.Fprintf(w, "DATA %s %d\n", s.Name, s.Size)
		for k := 0; k < len(data); k += 32 {
			fmt.Fprintf(w, "\t%x\n", data[k:min(k+32, len(data))])
		}
	}
	return nil
}

// symbolData returns the bytes of s.
func symbolData(f *elf.File, s elf.Symbol) ([]byte, error) {
	if int(s.Section) >= len(f.Sections) {
		return nil, fmt.Errorf("no section %d", s.Section)
	}
	sec := f.Sections[s.Section]
	if sec.Type == elf.SHT_NOBITS {
		return make([]byte, s.Size), nil
	}
	data := make([]byte, s.Size)
	if _, err := sec.ReadAt(data, int64(s.Value-sec.Addr)); err != nil {
		return nil, err
	}
	return data, nil
}
