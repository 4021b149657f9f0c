package match

import (
	"bytes"
	"strings"

	"github.com/git-edit/git-edit/ops/text"
	"golang.org/x/text/unicode/norm"
)

// In-line matching: a needle without a line ending is usually part of a
// line, so the line-based stages (which compare whole lines) miss it. At
// Unicode and InnerSpace (and Escapes, for a needle that is one line once
// unescaped) such a needle is also searched in a normalized view of the
// content, with a map from each byte of the view back to the content:
// a place is then any run of content bytes whose view equals the
// needle's. TrailingSpace and Indentation have nothing to forgive inside
// a line, so they stay whole-line.

// inlineNorms are the normalizations that apply inside a line.
const inlineNorms = nUni | nInner

// view is content under some normalizations, with from[i] the content
// offset where view byte i's source starts (from[len(b)] == len(content)).
type view struct {
	b    []byte
	from []int
}

// newView normalizes content under n (only nUni and nInner apply).
func newView(content []byte, n norms) *view {
	v := &view{b: content, from: make([]int, len(content)+1)}
	for i := range v.from {
		v.from[i] = i
	}
	if n&nUni != 0 {
		v = v.unicode()
	}
	if n&nInner != 0 {
		v = v.inner()
	}
	return v
}

// unicode is v with each NFC segment normalized and its punctuation read
// as ASCII; every byte of a segment's output maps to the segment's start.
func (v *view) unicode() *view {
	out := &view{b: make([]byte, 0, len(v.b)), from: make([]int, 0, len(v.b)+1)}
	var it norm.Iter
	it.Init(norm.NFC, v.b)
	for !it.Done() {
		pos := it.Pos()
		seg := it.Next()
		if bytes.ContainsFunc(seg, func(r rune) bool { return r >= 0x80 }) {
			seg = []byte(ASCIIPunctuation(string(seg)))
		}
		for range seg {
			out.from = append(out.from, v.from[pos])
		}
		out.b = append(out.b, seg...)
	}
	out.from = append(out.from, v.from[len(v.b)])
	return out
}

// inner is v with each run of spaces and tabs read as one space.
func (v *view) inner() *view {
	out := &view{b: make([]byte, 0, len(v.b)), from: make([]int, 0, len(v.b)+1)}
	for i := 0; i < len(v.b); i++ {
		c := v.b[i]
		if c == ' ' || c == '\t' {
			if i > 0 && (v.b[i-1] == ' ' || v.b[i-1] == '\t') {
				continue
			}
			c = ' '
		}
		out.b = append(out.b, c)
		out.from = append(out.from, v.from[i])
	}
	out.from = append(out.from, v.from[len(v.b)])
	return out
}

// span maps view bytes [s, e) back to content bytes, widened to whole
// source segments (a collapsed run of spaces, a composed character).
func (v *view) span(s, e int) (start, end int) {
	start, end = v.from[s], v.from[e]
	for k := e; k < len(v.from) && v.from[k] == v.from[e-1]; k++ {
		end = v.from[k+1]
	}
	return start, end
}

// findInline is the in-line search of needle (no line ending) under n's
// in-line normalizations, at the stages that add one (Unicode,
// InnerSpace, and Escapes past them); nil when it matches nowhere.
func findInline(content []byte, needle string, n norms, stage Stage, esc *escapes) *Match {
	n &= inlineNorms
	if n == 0 || strings.Contains(needle, "\n") {
		return nil
	}
	key := needle
	if n&nUni != 0 {
		key = ASCIIPunctuation(norm.NFC.String(key))
	}
	if n&nInner != 0 {
		key = collapseSpace(key)
	}
	if key == "" {
		return nil
	}
	v := newView(content, n)
	m := &Match{Stage: stage}
	eol := text.DetectEOL(content)
	line, pos := 1, 0
	prevStart, prevEnd := -1, -1
	for off := range text.OccurrencesSeq(v.b, key) {
		start, end := v.span(off, off+len(key))
		if start == prevStart && end == prevEnd {
			continue // two view offsets inside one source segment: one place
		}
		prevStart, prevEnd = start, end
		m.Count++
		if len(m.Places) >= MaxPlaces {
			continue
		}
		line += bytes.Count(content[pos:start], newline)
		pos = start
		found := string(content[start:end])
		im := &inlineMatch{needle: needle, found: found, esc: esc, eol: eol}
		m.Places = append(m.Places, Place{Start: start, End: end, Line: line, EndLine: line + strings.Count(found, "\n"),
			Forgave: im.forgave(n, line), Score: 1, adapt: im.adapt})
	}
	if m.Count == 0 {
		return nil
	}
	return m
}

// inlineMatch is one in-line place.
type inlineMatch struct {
	needle, found string
	esc           *escapes
	eol           string
}

// adapt is Match.Replacement for an in-line place: r unescaped as the
// needle was; a replacement equal to the needle (nothing changed) is the
// file's own bytes; any other is written as sent.
func (im *inlineMatch) adapt(r string) string {
	if im.esc != nil {
		r = im.esc.unescape(r)
	}
	if r == im.needle {
		return im.found
	}
	return text.ToEOL(r, im.eol)
}

// forgave words what differs between the needle and the file's bytes.
func (im *inlineMatch) forgave(n norms, line int) string {
	var parts []string
	if im.esc != nil {
		parts = append(parts, im.esc.describe())
	}
	a, b := im.needle, im.found
	at := text.DescribeLines([]int{line})
	if n&nUni != 0 {
		if norm.NFC.String(a) != a || norm.NFC.String(b) != b {
			parts = append(parts, "NFD text read as NFC on "+at)
		}
		q1, d1, s1 := punctKinds(a)
		q2, d2, s2 := punctKinds(b)
		if q1 || q2 {
			parts = append(parts, "curly quotes on "+at)
		}
		if d1 || d2 {
			parts = append(parts, "typographic dashes on "+at)
		}
		if s1 || s2 {
			parts = append(parts, "Unicode spaces on "+at)
		}
		a, b = nUni.key(a), nUni.key(b)
	}
	if n&nInner != 0 && a != b {
		parts = append(parts, "runs of spaces inside 1 line")
	}
	return strings.Join(parts, ", ")
}
