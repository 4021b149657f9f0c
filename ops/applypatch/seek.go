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
// first needed, their keys at each tolerance as small integers (equal keys,
// equal numbers), so that locating many hunks in a large file keys each
// line once per tolerance, and a hunk is located by comparing numbers.
type fileLines struct {
	lines []string
	ids   [len(ladder)][]int
	dict  [len(ladder)]map[string]int
}

// interned returns the lines' keys at tolerance t as numbers, and the
// number of each key.
func (f *fileLines) interned(t tolerance) ([]int, map[string]int) {
	if f.dict[t] == nil {
		dict := map[string]int{}
		ids := make([]int, len(f.lines))
		for i, l := range f.lines {
			k := t.key(l)
			id, ok := dict[k]
			if !ok {
				id = len(dict)
				dict[k] = id
			}
			ids[i] = id
		}
		f.ids[t], f.dict[t] = ids, dict
	}
	return f.ids[t], f.dict[t]
}

// seek returns the 0-based index of the first place, at or after start,
// where pattern occurs in the file's lines, and whether there is one. It
// tries each tolerance of the ladder over the whole range before the next,
// as Codex does, so an exact match anywhere wins over a tolerant one
// earlier. With atEnd the only place tried is the end of the file ("***
// End of File"). An empty pattern matches at start.
//
// Each tolerance costs time linear in the lines searched plus the
// pattern's (Codex compares the pattern at every place: a hunk of m lines
// in a file of n costs n×m, hours for a large patch under the edit lock).
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
	start = max(start, 0)
	if start > last {
		return 0, false
	}
	want := make([]int, len(pattern))
rungs:
	for _, t := range ladder {
		ids, dict := f.interned(t)
		for j, p := range pattern {
			id, ok := dict[t.key(p)]
			if !ok {
				continue rungs // a line the file does not have at t
			}
			want[j] = id
		}
		if i := indexInts(ids[start:], want); i >= 0 {
			return start + i, true
		}
	}
	return 0, false
}

// indexInts returns the index of the first occurrence of pattern (not
// empty) in s, or -1, in time linear in len(s)+len(pattern)
// (Knuth–Morris–Pratt; the standard library searches only bytes and
// strings).
func indexInts(s, pattern []int) int {
	// border[i] is the length of the longest proper prefix of
	// pattern[:i+1] that is also its suffix.
	border := make([]int, len(pattern))
	for i, k := 1, 0; i < len(pattern); i++ {
		for k > 0 && pattern[i] != pattern[k] {
			k = border[k-1]
		}
		if pattern[i] == pattern[k] {
			k++
		}
		border[i] = k
	}
	for i, k := 0, 0; i < len(s); i++ {
		for k > 0 && s[i] != pattern[k] {
			k = border[k-1]
		}
		if s[i] == pattern[k] {
			k++
		}
		if k == len(pattern) {
			return i - k + 1
		}
	}
	return -1
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
