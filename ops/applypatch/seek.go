package applypatch

import (
	"strings"
	"unicode"
)

// tolerance is one rung of the ladder Codex's seek_sequence climbs: how two
// lines are compared when locating a hunk.
type tolerance int

const (
	exact       tolerance = iota // byte for byte
	trailingWS                   // trailing whitespace ignored
	surroundWS                   // leading and trailing whitespace ignored
	punctuation                  // and Unicode dashes, quotes and spaces read as ASCII
)

// ladder is the order seek tries the tolerances in.
var ladder = [...]tolerance{exact, trailingWS, surroundWS, punctuation}

// key is the form of a line that tolerance t compares: two lines are
// equal at t when their keys are.
func (t tolerance) key(line string) string {
	switch t {
	case exact:
		return line
	case trailingWS:
		return strings.TrimRightFunc(line, unicode.IsSpace)
	case surroundWS:
		return strings.TrimSpace(line)
	}
	return normalize(line)
}

// fileLines are a file's lines (without line endings) and, computed when
// first needed, their keys at each tolerance, so that locating many hunks
// in a large file keys each line once per tolerance.
type fileLines struct {
	lines []string
	keys  [len(ladder)][]string
}

// keyed returns the lines' keys at tolerance t.
func (f *fileLines) keyed(t tolerance) []string {
	if f.keys[t] == nil {
		k := make([]string, len(f.lines))
		for i, l := range f.lines {
			k[i] = t.key(l)
		}
		f.keys[t] = k
	}
	return f.keys[t]
}

// seek returns the 0-based index of the first place, at or after start,
// where pattern occurs in the file's lines, and whether there is one. It
// tries each tolerance of the ladder over the whole range before the next,
// as Codex does, so an exact match anywhere wins over a tolerant one
// earlier. With atEnd the only place tried is the end of the file ("***
// End of File"). An empty pattern matches at start.
func (f *fileLines) seek(pattern []string, start int, atEnd bool) (int, bool) {
	if len(pattern) == 0 {
		return start, true
	}
	last := len(f.lines) - len(pattern) // the last index where pattern fits
	if last < 0 {
		return 0, false
	}
	if atEnd {
		start = last
	}
	want := make([]string, len(pattern))
	for _, t := range ladder {
		lines := f.keyed(t)
		for j, p := range pattern {
			want[j] = t.key(p)
		}
	next:
		for i := max(start, 0); i <= last; i++ {
			for j, w := range want {
				if lines[i+j] != w {
					continue next
				}
			}
			return i, true
		}
	}
	return 0, false
}

// asciiPunctuation maps the typographic characters Codex reads as ASCII:
// dashes and the minus sign, curly single and double quotes, and the
// non-breaking and other Unicode spaces.
var asciiPunctuation = strings.NewReplacer(
	"\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2014", "-", "\u2015", "-", "\u2212", "-",
	"\u2018", "'", "\u2019", "'", "\u201A", "'", "\u201B", "'",
	"\u201C", `"`, "\u201D", `"`, "\u201E", `"`, "\u201F", `"`,
	"\u00A0", " ", "\u2002", " ", "\u2003", " ", "\u2004", " ", "\u2005", " ", "\u2006", " ",
	"\u2007", " ", "\u2008", " ", "\u2009", " ", "\u200A", " ", "\u202F", " ", "\u205F", " ", "\u3000", " ",
)

// normalize is the last rung's view of a line: trimmed, then typographic
// punctuation read as ASCII.
func normalize(s string) string {
	return asciiPunctuation.Replace(strings.TrimSpace(s))
}
