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
	first    int
	ind      reindent
	esc      *escapes // the escapes read unescaped, when Escapes matched
	stage    Stage
	restKeys []string // each needle line's key under n, its indentation removed
}

func newLineMatch(f *fileView, nl needleLines, n norms, first int, stage Stage, esc *escapes) *lineMatch {
	m := &lineMatch{f: f, nl: nl, n: n, first: first, stage: stage, esc: esc}
	if n&nIndent != 0 {
		m.ind = classifyIndent(nl.lines, f.lines[first:first+len(nl.lines)])
	}
	m.restKeys = make([]string, len(nl.lines))
	for i, l := range nl.lines {
		m.restKeys[i] = (n &^ nIndent).key(strings.TrimLeft(l, " \t"))
	}
	return m
}

// last is the index of the last file line matched.
func (m *lineMatch) last() int { return m.first + len(m.nl.lines) - 1 }

// place is the Place of m: whole lines, with the last line's line ending
// when the needle ended with one.
func (m *lineMatch) place() Place {
	end := m.f.textEnd[m.last()]
	if m.nl.eol {
		end = m.f.end[m.last()]
	}
	return Place{Start: m.f.start[m.first], End: end, Line: m.first + 1, EndLine: m.last() + 1,
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
	file := m.f.lines[m.first : m.last()+1]
	nk := m.n &^ nIndent
	out := make([]string, len(rl.lines))
	cursor := 0
	for j, line := range rl.lines {
		ri := leadingSpace(line)
		rest := line[len(ri):]
		i := m.needleLine(nk.key(rest), cursor)
		switch {
		case i < 0:
			out[j] = m.ind.apply(line)
		case ri == leadingSpace(m.nl.lines[i]):
			out[j] = file[i]
			cursor = i + 1
		default:
			out[j] = m.ind.indent(ri) + strings.TrimLeft(file[i], " \t")
			cursor = i + 1
		}
	}
	s := strings.Join(out, m.f.eol)
	if rl.eol && (!m.nl.eol || m.f.end[m.last()] > m.f.textEnd[m.last()]) {
		s += m.f.eol
	}
	return s
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
		b := m.f.lines[m.first+i]
		if a == b {
			continue
		}
		line := m.first + i + 1
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
