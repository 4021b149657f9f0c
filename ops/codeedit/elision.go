package codeedit

import (
	"fmt"
	"strings"

	"github.com/git-edit/git-edit/ops/jsonargs"
	"github.com/git-edit/git-edit/ops/text"
)

// matchElision matches a search with "..." lines, which stand for lines
// left out. search and replace must have the same number of them; the
// parts between them pair up in order (search part j becomes replace part
// j). Each search part is matched on its own at stages 1-3 (exact, trailing
// whitespace, indentation; with its own re-indentation), retried without
// blank lines at its ends (those next to a "..." are usually spacing, not
// content), and must occur exactly once at the stage where it matches
// (first-match-wins would be a guess between far-apart places). The parts
// must lie in the file in order, without overlapping. A part that is empty
// or blank in search is skipped when its replace part is blank too, and
// refused otherwise: it does not say where its replacement would go.
func (f *file) matchElision(S, R []string) (Planned, error) {
	ds, dr := countDots(S), countDots(R)
	if ds != dr {
		return Planned{}, fmt.Errorf("%w: search has %s but replace has %d; give both the same number of `...` lines, each standing for the same lines left out of both (or write the lines out in full)",
			ErrElision, plural(ds, "`...` line"), dr)
	}
	sp, rp := splitDots(S), splitDots(R)
	k := len(sp)

	type placed struct {
		m    match
		S, R []string
	}
	var parts []placed
	prevEnd := 0 // last line of the previous part
	for j := range sp {
		blk := newBlock(sp[j], rp[j])
		if blk.anchor < 0 {
			if !allBlank(rp[j]) {
				return Planned{}, fmt.Errorf("%w: %s is empty, so it does not say where the lines of the matching part of replace go; put lines from the file there, or move those lines into a part that has some",
					ErrElision, partName(j, k))
			}
			continue
		}
		m, others, ok := f.find(blk, stIndent)
		S2, R2 := sp[j], rp[j]
		if !ok {
			if S2, R2 = dropBlankEnds(sp[j], rp[j]); len(S2) < len(sp[j]) {
				blk2 := newBlock(S2, R2)
				m, others, ok = f.find(blk2, stIndent)
			}
		}
		if !ok {
			nm := f.noMatch(blk, rp[j])
			nm.Part = partName(j, k)
			return Planned{}, nm
		}
		if len(others) > 0 {
			return Planned{}, fmt.Errorf("%w: %s (%s) occurs %d times in the file, at %s; add lines to it, or move a `...` line, so that it occurs once",
				ErrAmbiguous, partName(j, k), quoteLines(S2), len(others)+1, lineList(append([]int{m.line}, others...)))
		}
		if m.line <= prevEnd {
			return Planned{}, fmt.Errorf("%w: the parts of search must be in the file in order: %s matches at line %d, which is not after the part before it (it ends at line %d); check the order of the parts, or write the lines out in full",
				ErrElision, partName(j, k), m.line, prevEnd)
		}
		prevEnd = m.line + len(m.spans) - 1
		parts = append(parts, placed{m, S2, R2})
	}
	if len(parts) == 0 { // every part blank: cannot happen, search has a non-blank line
		return Planned{}, fmt.Errorf("%w: search has no text to find between its `...` lines", ErrEmptySearch)
	}

	var edits []text.Edit
	var where, ways []string
	low := f.bom
	for i, p := range parts {
		edits = append(edits, f.edits(p.m, p.S, p.R, low)...)
		last := p.m.spans[len(p.m.spans)-1]
		low = last.end
		where = append(where, lineRange(p.m.line, p.m.line+len(p.m.spans)-1))
		switch p.m.stage {
		case stTrailing:
			ways = append(ways, fmt.Sprintf("part %d ignoring trailing whitespace", i+1))
		case stIndent:
			ways = append(ways, fmt.Sprintf("part %d re-indented, %s", i+1, p.m.ri.short()))
		}
	}
	first, lastPart := parts[0].m, parts[len(parts)-1].m
	r := Planned{Edits: edits, Stage: StageElision, Line: first.line, EndLine: lastPart.line + len(lastPart.spans) - 1}
	verb := "Replaced"
	if len(edits) == 0 {
		verb = "Nothing changed: replace is the same text as search in"
	}
	r.Message = fmt.Sprintf("%s the %s of search around its `...` lines, at %s", verb, plural(len(parts), "part"), jsonargs.AndList(where))
	if len(ways) > 0 {
		r.Message += " (matched " + strings.Join(ways, "; ") + ")"
	}
	r.Message += "; the lines in between were left as they are."
	return r, nil
}

// splitDots splits lines at the "..." lines into len(dots)+1 parts.
func splitDots(lines []string) [][]string {
	var parts [][]string
	from := 0
	for i, l := range lines {
		if isDots(l) {
			parts = append(parts, lines[from:i])
			from = i + 1
		}
	}
	return append(parts, lines[from:])
}

// dropBlankEnds drops the blank lines at both ends of S, and as many blank
// lines (at most) at the same ends of R.
func dropBlankEnds(S, R []string) ([]string, []string) {
	if allBlank(S) {
		return S, R
	}
	lead, trail := blankRun(S, false), blankRun(S, true)
	S = S[lead : len(S)-trail]
	R = R[min(lead, blankRun(R, false)):]
	R = R[:len(R)-min(trail, blankRun(R, true))]
	return S, R
}

func allBlank(lines []string) bool {
	for _, l := range lines {
		if !isBlank(l) {
			return false
		}
	}
	return true
}

// partName names part j of k parts of an elided search.
func partName(j, k int) string {
	switch {
	case k == 2 && j == 0:
		return "the part of search before the `...` line"
	case k == 2:
		return "the part of search after the `...` line"
	case j == 0:
		return "the part of search before the first `...` line"
	case j == k-1:
		return "the part of search after the last `...` line"
	}
	return fmt.Sprintf("the part of search between `...` lines %d and %d", j, j+1)
}

// quoteLines shows a part's first line, and how many more it has.
func quoteLines(lines []string) string {
	first := ""
	for _, l := range lines {
		if !isBlank(l) {
			first = l
			break
		}
	}
	s := fmt.Sprintf("%q", clip(trimSpace(first), 80))
	if len(lines) > 1 {
		s += fmt.Sprintf(" and %s after it", plural(len(lines)-1, "more line"))
	}
	return "starting " + s
}
