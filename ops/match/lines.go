package match

import (
	"strings"

	"github.com/git-edit/git-edit/ops/text"
)

// fileView is content split into lines (the line model of text.LineIndex:
// the BOM belongs to no line) with, computed once per normalization when
// first needed, each line's key as a small integer (equal keys, equal
// numbers), so a needle is located by comparing numbers.
type fileView struct {
	content []byte
	eol     string   // text.DetectEOL(content)
	lines   []string // each line's text, without its line ending
	start   []int    // byte offset of each line's start
	textEnd []int    // byte offset of the end of each line's text
	end     []int    // byte offset after each line's line ending
	ids     map[norms][]int
	dict    map[norms]map[string]int
}

func newFileView(content []byte) *fileView {
	idx := text.NewLineIndex(content)
	n := idx.Count()
	f := &fileView{content: content, eol: text.DetectEOL(content),
		lines: make([]string, n), start: make([]int, n), textEnd: make([]int, n), end: make([]int, n),
		ids: map[norms][]int{}, dict: map[norms]map[string]int{}}
	for i := range n {
		s, te, e, _ := idx.Bounds(i+1, content)
		f.lines[i], f.start[i], f.textEnd[i], f.end[i] = string(content[s:te]), s, te, e
	}
	return f
}

// interned returns the lines' keys under n as numbers, and each key's number.
func (f *fileView) interned(n norms) ([]int, map[string]int) {
	if d, ok := f.dict[n]; ok {
		return f.ids[n], d
	}
	d := map[string]int{}
	ids := make([]int, len(f.lines))
	for i, l := range f.lines {
		k := n.key(l)
		id, ok := d[k]
		if !ok {
			id = len(d)
			d[k] = id
		}
		ids[i] = id
	}
	f.ids[n], f.dict[n] = ids, d
	return ids, d
}

// needleLines is a needle split into lines: its line endings ("\n" or
// "\r\n") removed, and whether it ended with one (then a match takes the
// file's line ending of its last line too).
type needleLines struct {
	lines []string
	eol   bool // the needle ended with a line ending
	crlf  bool // the needle had "\r\n" line endings
}

func splitLines(s string) needleLines {
	var nl needleLines
	nl.lines = strings.Split(s, "\n")
	if len(nl.lines) > 1 && nl.lines[len(nl.lines)-1] == "" {
		nl.lines = nl.lines[:len(nl.lines)-1]
		nl.eol = true
	}
	for i, l := range nl.lines {
		if strings.HasSuffix(l, "\r") && (i < len(nl.lines)-1 || nl.eol) {
			nl.lines[i] = l[:len(l)-1]
			nl.crlf = true
		}
	}
	return nl
}

// findLines returns the index of the first file line of every place (in
// order, overlapping ones included, the first MaxPlaces of them) where the
// needle's lines equal consecutive file lines under n, and how many places
// there are.
func (f *fileView) findLines(nl needleLines, n norms) ([]int, int) {
	if len(nl.lines) > len(f.lines) {
		return nil, 0
	}
	ids, dict := f.interned(n)
	want := make([]int, len(nl.lines))
	for j, l := range nl.lines {
		id, ok := dict[n.key(l)]
		if !ok {
			return nil, 0 // a line the file does not have under n
		}
		want[j] = id
	}
	return indexAllInts(ids, want)
}

// indexAllInts returns the index of the first MaxPlaces occurrences of
// pattern (not empty) in s, overlapping ones included, and the number of
// all of them, in time linear in len(s)+len(pattern) (Knuth–Morris–Pratt).
func indexAllInts(s, pattern []int) ([]int, int) {
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
	var at []int
	count := 0
	for i, k := 0, 0; i < len(s); i++ {
		for k > 0 && s[i] != pattern[k] {
			k = border[k-1]
		}
		if s[i] == pattern[k] {
			k++
		}
		if k == len(pattern) {
			if count < MaxPlaces {
				at = append(at, i-k+1)
			}
			count++
			k = border[k-1]
		}
	}
	return at, count
}

// leadingSpace returns s's leading spaces and tabs.
func leadingSpace(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}
