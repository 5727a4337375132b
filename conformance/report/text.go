package report

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// visible returns s with every character that could act on a terminal or
// that XML 1.0 cannot carry written as a Go-style escape: C0 controls other
// than tab and newline, DEL, C1 controls, U+FFFE and U+FFFF, the
// bidirectional embedding, override and isolate characters, and bytes that
// are not UTF-8. Newlines are kept; [oneLine] escapes them too. It returns s
// itself when nothing needs escaping.
func visible(s string) string { return escapeText(s, true) }

// oneLine is [visible] with newlines escaped as \n, for text that must stay
// on one line.
func oneLine(s string) string { return escapeText(s, false) }

func escapeText(s string, keepNewline bool) string {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if mustEscape(r, size, keepNewline) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case !mustEscape(r, size, keepNewline):
			b.WriteString(s[i : i+size])
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += size
	}
	return b.String()
}

func mustEscape(r rune, size int, keepNewline bool) bool {
	switch {
	case r == utf8.RuneError:
		return size == 1
	case r == '\t':
		return false
	case r == '\n':
		return !keepNewline
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0xfffe, r == 0xffff:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// indentLines returns s with every line after the first prefixed by indent.
func indentLines(s, indent string) string {
	return strings.ReplaceAll(s, "\n", "\n"+indent)
}
