#!/bin/sh
# objdiff.sh compares the object code of jsonscan's assembly in the work
# tree with that at a git revision (HEAD by default):
#
#	internal/jsonscan/_asm/objdiff.sh [rev]
#
# It assembles the package's .s files at both (go build -asmflags=-S) and
# compares each symbol they define, functions and data: its size and
# attributes, its bytes, and its relocations (the symbols its code refers
# to, by name, so addresses that the linker assigns play no part). It
# prints "same object code" and exits 0 when every symbol is the same; else
# it prints the differences, bytes first, then the assembler's listing of
# the instructions (offsets kept, source lines dropped), and exits 1.
set -eu

rev=${1:-HEAD}
root=$(git rev-parse --show-toplevel)
pkg=./internal/jsonscan
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# listing writes the assembler's listing of the package in the module at $1.
listing() {
	(cd "$1" && go build -asmflags=-S -o /dev/null "$pkg" 2>&1 >/dev/null) |
		sed -e '/^#/d' -e 's/github\.com\/chatwire\/chatwire\/[a-z/]*\.//g'
}

# code keeps the symbols' headers, bytes (without the ASCII column) and
# relocations; instrs the instructions, without their source lines. Both
# list the symbols by name, whatever their order in the file.
code() {
	sed -n -e '/^[^	]/p' -e '/^	rel /p' \
		-e 's/^\(	0x[0-9a-f]\{4\}\( [0-9a-f][0-9a-f]\)*\)  .*/\1/p' "$1" | bysymbol
}
instrs() {
	sed -n -e '/^[^	]/p' -e 's/^	\(0x[0-9a-f]*\) [0-9]* ([^)]*)	/	\1 /p' "$1" | bysymbol
}
bysymbol() {
	awk '/^[^	]/ { sym = $1 } { printf "%s %08d %s\n", sym, NR, $0 }' |
		sort -k1,1 -k2,2n | cut -d' ' -f3-
}

mkdir "$tmp/before"
git -C "$root" archive "$rev" | tar -x -C "$tmp/before"
listing "$tmp/before" >"$tmp/before.s"
listing "$root" >"$tmp/after.s"
code "$tmp/before.s" >"$tmp/before.code"
code "$tmp/after.s" >"$tmp/after.code"
if diff -u "$tmp/before.code" "$tmp/after.code" >"$tmp/code.diff"; then
	n=$(grep -c '^[^	]' "$tmp/after.code")
	echo "same object code: $n symbols, their bytes and relocations, the same at $rev and in the work tree"
	exit 0
fi
cat "$tmp/code.diff"
instrs "$tmp/before.s" >"$tmp/before.instrs"
instrs "$tmp/after.s" >"$tmp/after.instrs"
diff -u "$tmp/before.instrs" "$tmp/after.instrs" || true
exit 1
