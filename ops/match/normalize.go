package match

import (
	"strings"

	"golang.org/x/text/unicode/norm"
)

// norms is a set of line normalizations: the cumulative view of a line
// that the line-based stages compare. A stage compares lines under its own
// normalization and those of every enabled stage before it.
type norms uint8

const (
	nTrail  norms = 1 << iota // TrailingSpace: trailing spaces and tabs dropped
	nUni                      // Unicode: NFC, typographic punctuation as ASCII
	nIndent                   // Indentation: leading spaces and tabs dropped
	nInner                    // InnerSpace: runs of spaces and tabs read as one space
)

// normOf is the normalization each line-based stage adds.
var normOf = map[Stage]norms{TrailingSpace: nTrail, Unicode: nUni, Indentation: nIndent, InnerSpace: nInner}

// key is line's form under n: two lines are equal under n when their keys
// are. Unicode comes first so that a non-breaking space read as a space is
// then trimmed or collapsed like one.
func (n norms) key(line string) string {
	if n&nUni != 0 {
		line = ASCIIPunctuation(norm.NFC.String(line))
	}
	if n&nTrail != 0 {
		line = strings.TrimRight(line, " \t\r")
	}
	if n&nIndent != 0 {
		line = strings.TrimLeft(line, " \t")
	}
	if n&nInner != 0 {
		line = collapseSpace(line)
	}
	return line
}

// collapseSpace returns s with each run of spaces and tabs as one space.
func collapseSpace(s string) string {
	if !strings.Contains(s, "  ") && !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\t' {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteByte(c)
	}
	return b.String()
}

// asciiPunctuation maps the typographic characters agents and editors
// substitute for ASCII ones: dashes and the minus sign, curly single and
// double quotes, and the non-breaking and other Unicode spaces (the table
// Codex's apply_patch reads as ASCII, moved here from ops/applypatch).
var asciiPunctuation = strings.NewReplacer(
	"\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2014", "-", "\u2015", "-", "\u2212", "-",
	"\u2018", "'", "\u2019", "'", "\u201A", "'", "\u201B", "'",
	"\u201C", `"`, "\u201D", `"`, "\u201E", `"`, "\u201F", `"`,
	"\u00A0", " ", "\u2002", " ", "\u2003", " ", "\u2004", " ", "\u2005", " ", "\u2006", " ",
	"\u2007", " ", "\u2008", " ", "\u2009", " ", "\u200A", " ", "\u202F", " ", "\u205F", " ", "\u3000", " ",
)

// ASCIIPunctuation returns s with typographic dashes (and the minus sign),
// curly quotes, and non-breaking and other Unicode spaces read as their
// ASCII characters. It is the table Codex's apply_patch uses; s is
// returned unchanged (no allocation) when it has none of them.
func ASCIIPunctuation(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return asciiPunctuation.Replace(s)
		}
	}
	return s
}

// punctKinds says which kinds of typographic characters s has, for
// Forgave: curly quotes, dashes, Unicode spaces.
func punctKinds(s string) (quotes, dashes, spaces bool) {
	for _, r := range s {
		switch {
		case r >= '\u2018' && r <= '\u201F':
			quotes = true
		case r >= '\u2010' && r <= '\u2015', r == '\u2212':
			dashes = true
		case r == '\u00A0', r >= '\u2002' && r <= '\u200A', r == '\u202F', r == '\u205F', r == '\u3000':
			spaces = true
		}
	}
	return
}
