package applypatch

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/git-edit/git-edit/ops/match"
)

// tolerance is one rung of the ladder Codex's seek_sequence climbs: how two
// lines are compared when locating a hunk.
type tolerance int

const (
	exact       tolerance = iota // byte for byte
	trailingWS                   // trailing whitespace ignored
	surroundWS                   // leading and trailing whitespace ignored
	punctuation                  // and Unicode dashes, quotes and spaces read as ASCII
	// The rungs below are git-edit's, after Codex's: they apply only to a
	// hunk Codex would refuse as not found.
	composed // and NFC-equal (an é sent decomposed, e + U+0301, or composed)
	escapes  // and a literal `\t` in the patch line read as the file's tab
)

// ladder is the order seek tries the tolerances in: Codex's four, then
// git-edit's.
var ladder = [...]tolerance{exact, trailingWS, surroundWS, punctuation, composed, escapes}

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
	case punctuation:
		return normalize(line)
	case composed:
		return normalize(norm.NFC.String(line))
	}
	// A tab and a literal `\t` are one: the model escaped the file's tabs
	// (or, sending real tabs, matches a file's literal ones: equal either
	// way, as only a hunk found nowhere else gets here).
	return normalize(norm.NFC.String(strings.ReplaceAll(line, "\t", `\t`)))
}

// stageName is the ladder stage (ops/match's names) tolerance t is: what a
// result and the Edit-Match trailer call it.
func (t tolerance) stageName() string {
	switch t {
	case exact:
		return "exact"
	case trailingWS:
		return "trailing whitespace"
	case surroundWS:
		return "indentation"
	case punctuation, composed:
		return "unicode"
	}
	return "escapes"
}

// forgave says what a line equal only at t differs in, for a result.
func (t tolerance) forgave() string {
	switch t {
	case trailingWS:
		return "trailing whitespace"
	case surroundWS:
		return "leading whitespace"
	case punctuation:
		return "typographic punctuation (curly quotes, dashes, Unicode spaces)"
	case composed:
		return "Unicode normalization (composed or decomposed accents)"
	}
	return "a literal \\t written for a tab"
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
	at, _, ok := f.seekAt(pattern, start, atEnd)
	return at, ok
}

// seekAt is seek, also returning the tolerance the place was found at.
func (f *fileLines) seekAt(pattern []string, start int, atEnd bool) (int, tolerance, bool) {
	if len(pattern) == 0 {
		return start, exact, true
	}
	last := len(f.lines) - len(pattern) // the last index where pattern fits
	if last < 0 {
		return 0, exact, false
	}
	if atEnd {
		start = last
	}
	start = max(start, 0)
	if start > last {
		return 0, exact, false
	}
	for _, t := range ladder {
		want, ok := f.wanted(pattern, t)
		if !ok {
			continue // a line the file does not have at t
		}
		ids, _ := f.interned(t)
		if i := indexInts(ids[start:], want); i >= 0 {
			return start + i, t, true
		}
	}
	return 0, exact, false
}

// wanted is pattern as the file's key numbers at t, and false when a line
// of pattern is no line of the file at t.
func (f *fileLines) wanted(pattern []string, t tolerance) ([]int, bool) {
	_, dict := f.interned(t)
	want := make([]int, len(pattern))
	for j, p := range pattern {
		id, ok := dict[t.key(p)]
		if !ok {
			return nil, false
		}
		want[j] = id
	}
	return want, true
}

// others lists up to limit further places, after at, where pattern occurs
// at tolerance t (0-based), for a result that says a hunk's lines were
// found more than once. The search costs time linear in the lines after
// at for each place found.
func (f *fileLines) others(pattern []string, at int, t tolerance, limit int) []int {
	want, ok := f.wanted(pattern, t)
	if !ok || len(want) == 0 {
		return nil
	}
	ids, _ := f.interned(t)
	var out []int
	for from := at + 1; len(out) < limit && from < len(ids); {
		i := indexInts(ids[from:], want)
		if i < 0 {
			break
		}
		out = append(out, from+i)
		from += i + 1
	}
	return out
}

// lowest is the first tolerance at which the patch line p and the file
// line l are equal (exact when they are; escapes when none is lower).
func lowest(p, l string) tolerance {
	for _, t := range ladder {
		if t.key(p) == t.key(l) {
			return t
		}
	}
	return escapes
}

// indexInts returns the index of the first occurrence of pattern (not
// empty) in s, or -1, in time linear in len(s)+len(pattern).
func indexInts(s, pattern []int) int {
	for i := range match.Occurrences(s, pattern) {
		return i
	}
	return -1
}

// normalize is the last rung's view of a line: trimmed, then typographic
// punctuation read as ASCII.
func normalize(s string) string {
	return match.ASCIIPunctuation(strings.TrimSpace(s))
}
