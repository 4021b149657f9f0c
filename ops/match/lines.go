package match

import (
	"bytes"
	"strings"

	"github.com/git-edit/git-edit/ops/text"
)

// fileView is content split into lines (the line model of text.LineIndex:
// the BOM belongs to no line) with, computed once per normalization when
// first needed, each line's key as a small integer, so the needle is
// located by comparing numbers. A fileView serves one Find of one needle:
// the numbers are the needle's keys' (equal keys, equal numbers), and a
// line whose key no needle line has is -1, so a 20,000-line file costs
// one key per line and a lookup in a map of the needle's few keys.
//
// Its memory is one copy of the content, one int per line and, per
// normalization used (and for Unicode keys), one int32 per line: a 10 MB
// file of empty lines costs about 130 MB, not the gigabyte a string per
// line would.
type fileView struct {
	content []byte
	all     string // content, once copied; lines are its substrings
	eol     string // text.DetectEOL(content)
	starts  []int  // each line's start, then len(content)
	needle  []string
	uniIdx  []int32  // per line, the index in uni of its uniKey, -1 when it is the line
	uni     []string // uniKey of the lines it changes, once computed
	ids     map[norms][]int32
	dict    map[norms]map[string]int32
}

func newFileView(content []byte, needle []string) *fileView {
	f := &fileView{content: content, all: string(content), eol: text.DetectEOL(content), needle: needle,
		ids: map[norms][]int32{}, dict: map[norms]map[string]int32{}}
	f.starts = make([]int, 0, text.LineCount(content)+1)
	for off := text.BOMLen(content); off < len(content); {
		f.starts = append(f.starts, off)
		i := bytes.IndexByte(content[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
	}
	f.starts = append(f.starts, len(content))
	return f
}

// count is the number of lines.
func (f *fileView) count() int { return len(f.starts) - 1 }

// bounds returns line i's (0-based) start, the end of its text (before
// "\n" or "\r\n") and its end (after its line ending).
func (f *fileView) bounds(i int) (start, textEnd, end int) {
	start, end = f.starts[i], f.starts[i+1]
	textEnd = end
	if textEnd > start && f.all[textEnd-1] == '\n' {
		textEnd--
		if textEnd > start && f.all[textEnd-1] == '\r' {
			textEnd--
		}
	}
	return start, textEnd, end
}

// line is line i's text, without its line ending.
func (f *fileView) line(i int) string {
	s, te, _ := f.bounds(i)
	return f.all[s:te]
}

// uniLine is line i's uniKey.
func (f *fileView) uniLine(i int) string {
	if f.uniIdx == nil {
		f.uniIdx = make([]int32, f.count())
		for j := range f.uniIdx {
			f.uniIdx[j] = -1
			if l := f.line(j); !isASCII(l) {
				if u := uniKey(l); u != l {
					f.uniIdx[j] = int32(len(f.uni))
					f.uni = append(f.uni, u)
				}
			}
		}
	}
	if k := f.uniIdx[i]; k >= 0 {
		return f.uni[k]
	}
	return f.line(i)
}

// key is line i's key under n.
func (f *fileView) key(i int, n norms) string {
	if n&nUni != 0 {
		return n.keyAfterUni(f.uniLine(i))
	}
	return n.key(f.line(i))
}

// forNeedle is f with its keys numbered for another needle's lines.
func (f *fileView) forNeedle(needle []string) *fileView {
	g := *f
	g.needle, g.ids, g.dict = needle, map[norms][]int32{}, map[norms]map[string]int32{}
	return &g
}

// interned returns the lines' keys under n as numbers (-1 for a key no
// needle line has), and the number of each needle line's key.
func (f *fileView) interned(n norms) ([]int32, map[string]int32) {
	if d, ok := f.dict[n]; ok {
		return f.ids[n], d
	}
	d := make(map[string]int32, len(f.needle))
	for _, l := range f.needle {
		k := n.key(l)
		if _, ok := d[k]; !ok {
			d[k] = int32(len(d))
		}
	}
	ids := make([]int32, f.count())
	for i := range ids {
		id, ok := d[f.key(i, n)]
		if !ok {
			id = -1
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
	eol   bool   // the needle ended with a line ending
	crlf  []bool // per line, whether it ended with "\r\n"
}

func splitLines(s string) needleLines {
	var nl needleLines
	nl.lines = strings.Split(s, "\n")
	if len(nl.lines) > 1 && nl.lines[len(nl.lines)-1] == "" {
		nl.lines = nl.lines[:len(nl.lines)-1]
		nl.eol = true
	}
	nl.crlf = make([]bool, len(nl.lines))
	for i, l := range nl.lines {
		if strings.HasSuffix(l, "\r") && (i < len(nl.lines)-1 || nl.eol) {
			nl.lines[i] = l[:len(l)-1]
			nl.crlf[i] = true
		}
	}
	return nl
}

// findLines returns the index of the first file line of every place (in
// order, overlapping ones included, the first MaxPlaces of them) where the
// needle's lines equal consecutive file lines under n, and how many places
// there are.
func (f *fileView) findLines(nl needleLines, n norms) ([]int, int) {
	if len(nl.lines) > f.count() {
		return nil, 0
	}
	ids, dict := f.interned(n)
	want := make([]int32, len(nl.lines))
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
// all of them (Occurrences).
func indexAllInts(s, pattern []int32) ([]int, int) {
	var at []int
	count := 0
	for i := range Occurrences(s, pattern) {
		if count < MaxPlaces {
			at = append(at, i)
		}
		count++
	}
	return at, count
}

// leadingSpace returns s's leading spaces and tabs.
func leadingSpace(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}
