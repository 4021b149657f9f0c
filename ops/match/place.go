package match

import (
	"strings"

	"github.com/git-edit/git-edit/ops/text"
	"golang.org/x/text/unicode/norm"
)

// lineMatch is one place where the line-based stages matched: the needle's
// lines equal, under n, the file's lines from first on. It builds the
// Place, says what was forgiven there, and adapts a replacement to it.
type lineMatch struct {
	f        *fileView
	nl       needleLines // the needle as matched (unescaped when esc != nil)
	n        norms
	first    int   // the first file line of the place
	last     int   // the last file line of the place
	fileOf   []int // the file line each needle line matched, -1 for none (Similar)
	ind      reindent
	esc      *escapes // the escapes read unescaped, when Escapes matched
	stage    Stage
	restKeys []string // each needle line's key under n, its indentation removed
}

func newLineMatch(f *fileView, nl needleLines, n norms, first int, stage Stage, esc *escapes) *lineMatch {
	fileOf := make([]int, len(nl.lines))
	for i := range fileOf {
		fileOf[i] = first + i
	}
	return newAlignedMatch(f, nl, n, fileOf, first, first+len(nl.lines)-1, stage, esc)
}

// newAlignedMatch is newLineMatch for a place whose lines pair with the
// needle's as fileOf says, from file line first to last.
func newAlignedMatch(f *fileView, nl needleLines, n norms, fileOf []int, first, last int, stage Stage, esc *escapes) *lineMatch {
	m := &lineMatch{f: f, nl: nl, n: n, first: first, last: last, fileOf: fileOf, stage: stage, esc: esc}
	if n&nIndent != 0 {
		var ns, fs []string
		for i, j := range fileOf {
			if j >= 0 {
				ns, fs = append(ns, nl.lines[i]), append(fs, f.lines[j])
			}
		}
		m.ind = classifyIndent(ns, fs)
	}
	m.restKeys = make([]string, len(nl.lines))
	for i, l := range nl.lines {
		m.restKeys[i] = (n &^ nIndent).key(strings.TrimLeft(l, " \t"))
	}
	return m
}

// place is the Place of m: whole lines, with the last line's line ending
// when the needle ended with one.
func (m *lineMatch) place() Place {
	end := m.f.textEnd[m.last]
	if m.nl.eol {
		end = m.f.end[m.last]
	}
	return Place{Start: m.f.start[m.first], End: end, Line: m.first + 1, EndLine: m.last + 1,
		Forgave: m.forgave(), Score: 1, adapt: m.adapt}
}

// adapt is Match.Replacement for m: r unescaped as the needle was; each
// line of r whose text (indentation aside) equals a needle line's under
// the stage's normalization written as the file has that line (so a curly
// quote or trailing space the agent did not change stays); other lines
// re-indented as the needle's indentation was forgiven; lines joined with
// the file's line ending; a final line ending kept only where the file had
// one at the end of the place.
func (m *lineMatch) adapt(r string) string {
	if m.esc != nil {
		r = m.esc.unescape(r)
	}
	if r == "" {
		return ""
	}
	rl := splitLines(r)
	nk := m.n &^ nIndent
	out := make([]string, 0, len(rl.lines))
	cursor := 0
	prev := -1 // the file line the previous replacement line was written as
	for _, line := range rl.lines {
		ri := leadingSpace(line)
		rest := line[len(ri):]
		i := m.needleLine(nk.key(rest), cursor)
		if i < 0 || m.fileOf[i] < 0 {
			out = append(out, m.ind.apply(line))
			prev = -1
			continue
		}
		j := m.fileOf[i]
		if prev >= 0 && m.stage == Similar {
			// File lines the needle skipped (Similar) between two lines the
			// replacement keeps are kept too: the agent never saw them.
			for k := prev + 1; k < j; k++ {
				if !m.paired(k) {
					out = append(out, m.f.lines[k])
				}
			}
		}
		if ri == leadingSpace(m.nl.lines[i]) {
			out = append(out, m.f.lines[j])
		} else {
			out = append(out, m.ind.indent(ri)+strings.TrimLeft(m.f.lines[j], " \t"))
		}
		cursor, prev = i+1, j
	}
	s := strings.Join(out, m.f.eol)
	if rl.eol && (!m.nl.eol || m.f.end[m.last] > m.f.textEnd[m.last]) {
		s += m.f.eol
	}
	return s
}

// paired reports whether file line j is paired with a needle line.
func (m *lineMatch) paired(j int) bool {
	for _, k := range m.fileOf {
		if k == j {
			return true
		}
	}
	return false
}

// needleLine returns the index of a needle line whose key (indentation
// aside) is key, the first at or after cursor if any, else the first
// before it; -1 when none is.
func (m *lineMatch) needleLine(key string, cursor int) int {
	for i := cursor; i < len(m.restKeys); i++ {
		if m.restKeys[i] == key {
			return i
		}
	}
	for i := 0; i < cursor && i < len(m.restKeys); i++ {
		if m.restKeys[i] == key {
			return i
		}
	}
	return -1
}

// forgave words what the needle differs from the file in at m.
func (m *lineMatch) forgave() string {
	var parts []string
	if m.esc != nil {
		parts = append(parts, m.esc.describe())
	}
	if m.nl.crlf && m.f.eol == text.LF {
		parts = append(parts, "CRLF line endings read as the file's LF")
	}
	var trail, inner int
	var quotes, dashes, spaces, nfd []int
	for i, a := range m.nl.lines {
		if m.fileOf[i] < 0 {
			continue
		}
		b := m.f.lines[m.fileOf[i]]
		if a == b || m.n.key(a) != m.n.key(b) {
			continue // equal, or one Similar tells of
		}
		line := m.fileOf[i] + 1
		if m.n&nUni != 0 {
			if norm.NFC.String(a) != a || norm.NFC.String(b) != b {
				nfd = append(nfd, line)
			}
			q1, d1, s1 := punctKinds(a)
			q2, d2, s2 := punctKinds(b)
			if q1 || q2 {
				quotes = append(quotes, line)
			}
			if d1 || d2 {
				dashes = append(dashes, line)
			}
			if s1 || s2 {
				spaces = append(spaces, line)
			}
			a, b = nUni.key(a), nUni.key(b)
		}
		if m.n&nTrail != 0 && trailingSpace(a) != trailingSpace(b) {
			trail++
		}
		if m.n&nInner != 0 {
			ta, tb := strings.Trim(a, " \t\r"), strings.Trim(b, " \t\r")
			if ta != tb && collapseSpace(ta) == collapseSpace(tb) {
				inner++
			}
		}
	}
	if trail > 0 {
		parts = append(parts, "trailing whitespace on "+nLines(trail))
	}
	for _, u := range []struct {
		what  string
		lines []int
	}{{"NFD text read as NFC", nfd}, {"curly quotes", quotes}, {"typographic dashes", dashes}, {"Unicode spaces", spaces}} {
		if u.lines != nil {
			parts = append(parts, u.what+" on "+text.DescribeLines(u.lines))
		}
	}
	if d := m.ind.describe(); d != "" {
		parts = append(parts, d)
	}
	if inner > 0 {
		parts = append(parts, "runs of spaces inside "+nLines(inner))
	}
	return strings.Join(parts, ", ")
}

// trailingSpace returns s's trailing spaces and tabs (and a stray "\r").
func trailingSpace(s string) string {
	return s[len(strings.TrimRight(s, " \t\r")):]
}
