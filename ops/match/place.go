package match

import (
	"strings"

	"github.com/git-edit/git-edit/ops/text"
	"golang.org/x/text/unicode/norm"
)

// lineMatch is one place where the line-based stages matched: the needle's
// lines equal, under n, the file's lines from first on. It builds the
// Place, says what was forgiven there, and adapts a replacement to it.
// What costs a pass over the needle (the indentation's classification,
// the needle's keys) is computed when first needed, so that thousands of
// places cost little until one is described or adapted.
type lineMatch struct {
	f        *fileView
	nl       needleLines // the needle as matched (unescaped when esc != nil)
	n        norms
	first    int      // the first file line of the place
	last     int      // the last file line of the place
	aligned  []int    // the file line each needle line matched, -1 for none (Similar); nil: first+i
	esc      *escapes // the escapes read unescaped, when Escapes matched
	stage    Stage
	ind      *reindent
	restKeys []string // each needle line's key under n, its indentation removed
}

func newLineMatch(f *fileView, nl needleLines, n norms, first int, stage Stage, esc *escapes) *lineMatch {
	return &lineMatch{f: f, nl: nl, n: n, first: first, last: first + len(nl.lines) - 1, stage: stage, esc: esc}
}

// newAlignedMatch is newLineMatch for a place whose lines pair with the
// needle's as aligned says, from file line first to last.
func newAlignedMatch(f *fileView, nl needleLines, n norms, aligned []int, first, last int, stage Stage, esc *escapes) *lineMatch {
	return &lineMatch{f: f, nl: nl, n: n, first: first, last: last, aligned: aligned, stage: stage, esc: esc}
}

// fileOf is the file line needle line i matched, -1 for none.
func (m *lineMatch) fileOf(i int) int {
	if m.aligned == nil {
		return m.first + i
	}
	return m.aligned[i]
}

// indent is how the needle's indentation relates to the file's at m.
func (m *lineMatch) indent() *reindent {
	if m.ind == nil {
		m.ind = &reindent{}
		if m.n&nIndent != 0 {
			var ns, fs []string
			for i := range m.nl.lines {
				if j := m.fileOf(i); j >= 0 {
					ns, fs = append(ns, m.nl.lines[i]), append(fs, m.f.line(j))
				}
			}
			*m.ind = classifyIndent(ns, fs)
		}
	}
	return m.ind
}

// maxDescribed is how many places of a match get their Forgave: a
// caller names what was forgiven for the place it edits, or refuses
// several naming their lines; describing 10,000 overlapping places of a
// long needle would cost a pass over the needle each.
const maxDescribed = 100

// place is the Place of m: whole lines, with the last line's line ending
// when the needle ended with one; Forgave only when describe.
func (m *lineMatch) place(describe bool) Place {
	start, _, _ := m.f.bounds(m.first)
	_, end, lineEnd := m.f.bounds(m.last)
	if m.nl.eol {
		end = lineEnd
	}
	p := Place{Start: start, End: end, Line: m.first + 1, EndLine: m.last + 1, Score: 1, adapt: m.adapt}
	if describe {
		p.Forgave = m.forgave()
	}
	return p
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
	var rl needleLines
	switch {
	case r != "":
		rl = splitLines(r)
	case m.stage != Similar:
		return ""
	default:
		// Deleting a Similar place still keeps the lines the needle
		// skipped (keepSkipped), ended as the needle was.
		rl.eol = m.nl.eol
	}
	nk := m.n &^ nIndent
	if m.restKeys == nil {
		m.restKeys = make([]string, len(m.nl.lines))
		for i, l := range m.nl.lines {
			m.restKeys[i] = nk.key(strings.TrimLeft(l, " \t"))
		}
	}
	ind := m.indent()
	// A needle and a replacement both sent without their indentation say
	// nothing of nesting: a line of the agent's then takes the file's
	// indentation of the needle line it stands in place of (the next one
	// not yet repeated), not the first line's (review of issue 25: a
	// changed line inside an if was written outside it).
	positional := ind.mode == indPerLine && sameIndent(m.nl.lines) && sameIndent(rl.lines) &&
		leadingSpace(firstText(rl.lines)) == leadingSpace(firstText(m.nl.lines))
	out := make([]string, 0, len(rl.lines))
	src := make([]int, 0, len(rl.lines)) // the file line each out line is, -1 for none
	cursor := 0
	prev := -1 // the file line the previous replacement line was written as
	for _, line := range rl.lines {
		ri := leadingSpace(line)
		rest := line[len(ri):]
		i := m.needleLine(nk.key(rest), cursor)
		if i < 0 || m.fileOf(i) < 0 {
			if k := min(cursor, len(m.nl.lines)-1); positional && strings.TrimSpace(line) != "" && m.fileOf(k) >= 0 {
				out = append(out, leadingSpace(m.f.line(m.fileOf(k)))+rest)
			} else {
				out = append(out, ind.apply(line))
			}
			src = append(src, -1)
			prev = -1
			continue
		}
		j := m.fileOf(i)
		if prev >= 0 && m.stage == Similar {
			// File lines the needle skipped (Similar) between two lines the
			// replacement keeps are kept too: the agent never saw them.
			for k := prev + 1; k < j; k++ {
				if !m.paired(k) {
					out, src = append(out, m.f.line(k)), append(src, k)
				}
			}
		}
		if ri == leadingSpace(m.nl.lines[i]) {
			out = append(out, m.f.line(j))
		} else {
			out = append(out, ind.indent(ri)+strings.TrimLeft(m.f.line(j), " \t"))
		}
		src = append(src, j)
		cursor, prev = i+1, j
	}
	if m.stage == Similar {
		out, src = m.keepSkipped(out, src)
	}
	if len(out) == 0 {
		return ""
	}
	var b strings.Builder
	for k, l := range out {
		b.WriteString(l)
		if k+1 < len(out) {
			b.WriteString(m.eolAfter(src[k]))
		}
	}
	if _, te, e := m.f.bounds(m.last); rl.eol && (!m.nl.eol || e > te) {
		b.WriteString(m.eolAfter(src[len(src)-1]))
	}
	return b.String()
}

// sameIndent reports whether every non-blank line has the same leading
// whitespace.
func sameIndent(lines []string) bool {
	first := leadingSpace(firstText(lines))
	for _, l := range lines {
		if strings.TrimSpace(l) != "" && leadingSpace(l) != first {
			return false
		}
	}
	return true
}

// firstText is the first non-blank line ("" when there is none).
func firstText(lines []string) string {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return l
		}
	}
	return ""
}

// eolAfter is the line ending to write after an out line that is file
// line j (-1: a line of the agent's): a file line keeps its own line
// ending (a mixed file keeps its bytes), any other line gets the file's
// usual one.
func (m *lineMatch) eolAfter(j int) string {
	if j >= 0 {
		if _, te, e := m.f.bounds(j); e > te {
			return m.f.all[te:e]
		}
	}
	return m.f.eol
}

// paired reports whether file line j is paired with a needle line.
func (m *lineMatch) paired(j int) bool {
	for i := range m.nl.lines {
		if m.fileOf(i) == j {
			return true
		}
	}
	return false
}

// keepSkipped adds to out (with src, the file line each out line is, -1
// for none) every file line of a Similar place that the needle skipped and
// out does not already keep: the agent never saw those lines, so replacing
// the block must not delete them (review of issue 25: a 12-line function
// quoted without its 4th line lost that line). Each goes after the last
// out line that is an earlier file line, or first when there is none.
func (m *lineMatch) keepSkipped(out []string, src []int) ([]string, []int) {
	kept := map[int]bool{}
	for _, k := range src {
		kept[k] = true
	}
	for k := m.first; k <= m.last; k++ {
		if kept[k] || m.paired(k) {
			continue
		}
		at := 0
		for x, f := range src {
			if f >= 0 && f < k {
				at = x + 1
			}
		}
		out = append(out[:at], append([]string{m.f.line(k)}, out[at:]...)...)
		src = append(src[:at], append([]int{k}, src[at:]...)...)
		kept[k] = true
	}
	return out, src
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
	parts = append(parts, m.lineEndings()...)
	var trail, inner int
	var quotes, dashes, spaces, nfd []int
	for i, a := range m.nl.lines {
		if m.fileOf(i) < 0 {
			continue
		}
		b := m.f.line(m.fileOf(i))
		if a == b || m.n.key(a) != m.n.key(b) {
			continue // equal, or one Similar tells of
		}
		line := m.fileOf(i) + 1
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
	if d := m.indent().describe(); d != "" {
		parts = append(parts, d)
	}
	if inner > 0 {
		parts = append(parts, "runs of spaces inside "+nLines(inner))
	}
	return strings.Join(parts, ", ")
}

// lineEndings words the line endings the needle differs from the file
// in at m: CRLF where the file has LF, LF where a file of mostly LF has
// CRLF (LF for CRLF in a CRLF file is the allowance Exact makes too, not
// worth saying), and a final line ending the file lacks.
func (m *lineMatch) lineEndings() []string {
	var crlfForLF, lfForCRLF []int
	for i := range m.nl.lines {
		j := m.fileOf(i)
		if j < 0 || (i == len(m.nl.lines)-1 && !m.nl.eol) {
			continue
		}
		_, te, e := m.f.bounds(j)
		switch fileCRLF := e-te == 2; {
		case e == te: // the file's last line, without a line ending
		case m.nl.crlf[i] && !fileCRLF:
			crlfForLF = append(crlfForLF, j+1)
		case !m.nl.crlf[i] && fileCRLF && m.f.eol == text.LF:
			lfForCRLF = append(lfForCRLF, j+1)
		}
	}
	var parts []string
	switch {
	case crlfForLF == nil:
	case m.f.eol == text.LF:
		parts = append(parts, "CRLF line endings read as the file's LF")
	default:
		parts = append(parts, "mixed line endings: CRLF read as the file's LF on "+text.DescribeLines(crlfForLF))
	}
	if lfForCRLF != nil {
		parts = append(parts, "mixed line endings: LF read as the file's CRLF on "+text.DescribeLines(lfForCRLF))
	}
	if _, te, e := m.f.bounds(m.last); m.nl.eol && e == te {
		parts = append(parts, "a final line break the file lacks")
	}
	return parts
}

// trailingSpace returns s's trailing spaces and tabs (and a stray "\r").
func trailingSpace(s string) string {
	return s[len(strings.TrimRight(s, " \t\r")):]
}
