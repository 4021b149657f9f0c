package applypatch

import (
	"strings"
)

// indentMap re-indents lines written with a needle's indentation to the
// indentation the needle was found with in the file. It is pure over
// strings (no patch types), so that ops/match can share it.
//
// It is built from the pairs (needle line, file line) of a match and
// applied to each added line with the index of the needle line nearest
// before it:
//
//   - one offset for the whole block (every file line's indentation is the
//     needle line's with the same prefix added, or the same prefix
//     removed): that offset, for every added line, so relative
//     indentation is kept;
//   - a block indented in another unit (a 2-space block in a 4-space or a
//     tab file): every needle and file line's indentation in levels
//     agrees, so an added line's levels are scaled to the file's unit;
//   - otherwise (offsets differ per line): each added line gets the offset
//     of the nearest needle line before it (after it, for added lines
//     before the first), so it keeps its indentation relative to that line.
//
// Blank lines are never re-indented, and never count as pairs.
type indentMap struct {
	pairs   []indentPair // per needle line; blank lines have ok false
	uniform *indentPair  // the one offset, when there is one
	scale   *indentScale // the unit change, when there is one
}

// indentPair is one needle line's leading whitespace and its file line's.
type indentPair struct {
	needle, file string
	ok           bool
}

// indentScale says that the needle is indented in units of from spaces and
// the file in units of to (to.n copies of to.char).
type indentScale struct {
	from int
	char string
	to   int
}

// newIndentMap builds the map from a match's needle lines and the file
// lines they matched (same length).
func newIndentMap(needle, file []string) indentMap {
	m := indentMap{pairs: make([]indentPair, len(needle))}
	for i := range needle {
		if strings.TrimSpace(needle[i]) == "" || i >= len(file) || strings.TrimSpace(file[i]) == "" {
			continue
		}
		m.pairs[i] = indentPair{needle: leading(needle[i]), file: leading(file[i]), ok: true}
	}
	m.uniform = m.uniformOffset()
	if m.uniform == nil {
		m.scale = m.unitScale()
	}
	return m
}

// uniformOffset is the single offset of every pair, if they share one: a
// pair {needle: "", file: D} means "add D", {needle: D, file: ""} means
// "remove D".
func (m indentMap) uniformOffset() *indentPair {
	var off *indentPair
	for _, p := range m.pairs {
		if !p.ok {
			continue
		}
		o, ok := offset(p)
		if !ok {
			return nil
		}
		if off == nil {
			off = &o
		} else if *off != o {
			return nil
		}
	}
	return off
}

// offset is pair p as a prefix added or removed, if it is one.
func offset(p indentPair) (indentPair, bool) {
	if d, ok := strings.CutSuffix(p.file, p.needle); ok {
		return indentPair{file: d, ok: true}, true
	}
	if d, ok := strings.CutSuffix(p.needle, p.file); ok {
		return indentPair{needle: d, ok: true}, true
	}
	return indentPair{}, false
}

// unitScale finds a change of indentation unit that explains every pair:
// needle indented with spaces in units of u, file with one character c in
// units of v, each pair's levels equal.
func (m indentMap) unitScale() *indentScale {
	u, v, char := 0, 0, ""
	for _, p := range m.pairs {
		if !p.ok {
			continue
		}
		if strings.Trim(p.needle, " ") != "" || !sameChar(p.file) {
			return nil
		}
		if p.file != "" {
			if char == "" {
				char = p.file[:1]
			} else if p.file[:1] != char {
				return nil
			}
		}
		u, v = gcd(u, len(p.needle)), gcd(v, len(p.file))
	}
	if u == 0 || v == 0 || char == "" {
		return nil
	}
	for _, p := range m.pairs {
		if p.ok && len(p.needle)/u != len(p.file)/v {
			return nil
		}
	}
	return &indentScale{from: u, char: char, to: v}
}

// apply re-indents line, an added line whose nearest needle line before it
// is needle line near (-1: none before it).
//
// With anchor given, it is the pair used instead of the nearest.
func (m indentMap) apply(line string, near int, anchor ...indentPair) string {
	if strings.TrimSpace(line) == "" {
		return line
	}
	ind, rest := leading(line), line[len(leading(line)):]
	if m.uniform != nil && len(anchor) == 0 {
		return shift(*m.uniform, ind) + rest
	}
	if s := m.scale; s != nil && len(anchor) == 0 && strings.Trim(ind, " ") == "" && len(ind)%s.from == 0 {
		return strings.Repeat(s.char, len(ind)/s.from*s.to) + rest
	}
	p, ok := m.nearest(near)
	if len(anchor) > 0 {
		p, ok = anchor[0], true
	}
	if !ok {
		return line
	}
	if o, ok := offset(p); ok {
		return shift(o, ind) + rest
	}
	// The file indents this line with other characters than the needle:
	// keep the added line's depth relative to it in columns, written in
	// the file's characters.
	col := max(columns(ind)-columns(p.needle)+columns(p.file), 0)
	if strings.HasPrefix(p.file, "\t") {
		return strings.Repeat("\t", col/tabWidth) + strings.Repeat(" ", col%tabWidth) + rest
	}
	return strings.Repeat(" ", col) + rest
}

// applyRun re-indents line, an added line of a run that replaces needle
// line removed (the run's first non-blank removed line; -1 for a pure
// insertion) and whose first non-blank added line is first. With one
// offset or one unit change for the whole block it is apply. Otherwise the
// run's first added line takes the removed line's indentation in the file,
// and the run's other added lines keep their indentation relative to it:
// an agent that sent the removed line at another depth than the file has
// it still meant its replacement to stand where the line stood.
func (m indentMap) applyRun(line string, near, removed int, first string) string {
	if m.uniform != nil || m.scale != nil && strings.Trim(leading(line), " ") == "" && len(leading(line))%m.scale.from == 0 ||
		removed < 0 || removed >= len(m.pairs) || !m.pairs[removed].ok || strings.TrimSpace(line) == "" {
		return m.apply(line, near)
	}
	p := m.pairs[removed]
	return m.apply(line, -1, indentPair{needle: leading(first), file: p.file, ok: true})
}

// nearest is the non-blank pair at or before near, or else the first after.
func (m indentMap) nearest(near int) (indentPair, bool) {
	for i := min(near, len(m.pairs)-1); i >= 0; i-- {
		if m.pairs[i].ok {
			return m.pairs[i], true
		}
	}
	for _, p := range m.pairs {
		if p.ok {
			return p, true
		}
	}
	return indentPair{}, false
}

// shift applies offset o (a prefix to add, or to remove) to indentation
// ind; a prefix to remove that ind lacks removes what of it ind has.
func shift(o indentPair, ind string) string {
	if o.file != "" {
		return o.file + ind
	}
	if r, ok := strings.CutPrefix(ind, o.needle); ok {
		return r
	}
	return strings.TrimPrefix(ind, commonPrefix(ind, o.needle))
}

// tabWidth is the columns a tab counts for when two indentations in
// different characters are compared.
const tabWidth = 4

func columns(ind string) int {
	return len(strings.ReplaceAll(ind, "\t", strings.Repeat(" ", tabWidth)))
}

func leading(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}

func sameChar(s string) bool {
	return s == "" || strings.Trim(s, s[:1]) == ""
}

func commonPrefix(a, b string) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return a[:n]
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
