package codeedit

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/git-edit/git-edit/ops/dialect"
	"github.com/git-edit/git-edit/ops/jsonargs"
	"github.com/git-edit/git-edit/ops/text"
)

// Planned.Stage values: how a search was matched (or that it was appended).
const (
	StageExact              = "exact"
	StageTrailingWhitespace = "trailing whitespace"
	StageIndentation        = "indentation"
	StageBlankFirstLine     = "blank first line"
	StageBlankLastLine      = "blank last line"
	StageElision            = "elision"
	StageAppend             = "append"
	StageCreate             = "create"
)

var stageNames = [...]string{stExact: StageExact, stTrailing: StageTrailingWhitespace, stIndent: StageIndentation}

// Sentinels wrapped (with %w) by this package's errors.
var (
	// ErrInvalidArgs: the arguments are malformed (every Parse error).
	ErrInvalidArgs = jsonargs.ErrInvalid
	// ErrNoMatch: the search text matches no lines of the file. Errors
	// wrapping it are *NoMatch values, which carry the closest lines.
	ErrNoMatch = errors.New("search text not found")
	// ErrEmptySearch: Match was given a search with no text to find (Plan
	// appends instead).
	ErrEmptySearch = errors.New("empty search")
	// ErrElision: the `...` lines of search and replace do not line up.
	ErrElision = errors.New("cannot apply `...` elision")
	// ErrAmbiguous: a part of an elided search occurs more than once.
	ErrAmbiguous = errors.New("search part is not unique")
	// ErrFileNotFound: a non-empty search names a file that does not exist.
	ErrFileNotFound = dialect.ErrFileNotFound
)

// Planned describes one matched (or appended) edit.
type Planned struct {
	// Edits are spans over the content given to Match or Plan, in order and
	// disjoint, ready for text.ApplyEdits. They cover only the lines that
	// change (lines that search and replace share at their start and end
	// are left as the file has them), and are empty when the replacement
	// equals the matched text.
	Edits []text.Edit
	// Stage is how the search matched: StageExact, StageTrailingWhitespace,
	// StageIndentation, StageBlankFirstLine, StageBlankLastLine,
	// StageElision; a stage of the shared ladder these lack, by its name
	// (ops/match's Stage.String: "unicode", "inner whitespace", "escapes",
	// "similarity"); or StageAppend / StageCreate for an empty search. For
	// StageCreate the caller must create the file even when Edits is empty.
	Stage string
	// Line and EndLine are the first and last matched lines (1-based; for
	// elision, of the first and last part). For an append, Line is the
	// line where the appended text starts and EndLine its last line.
	Line, EndLine int
	// OtherLines are the first lines of the other places that matched at
	// the same stage (the first one, Line, was used), in file order.
	OtherLines []int
	// Message is a one-paragraph human summary.
	Message string
	// Matched is "<stage>: <what was forgiven>" when the search matched
	// other than exactly, for the Edit-Match trailer; "" otherwise.
	Matched string
}

// block is a search text prepared for matching.
type block struct {
	lines   []string // the agent's lines, without line endings
	trimmed []string // each line trimmed of whitespace
	blank   []bool
	anchor  int  // index of the longest trimmed line, the rarest to look for; -1 if all blank
	unit    int  // the agent's space indentation unit, from search and replace (0: unknown)
	tabsIn  bool // some replace line is indented with a tab
}

func newBlock(lines, replace []string) *block {
	b := &block{lines: lines, trimmed: make([]string, len(lines)), blank: make([]bool, len(lines)), anchor: -1}
	var u unitCounter
	for i, l := range lines {
		b.trimmed[i] = trimSpace(l)
		b.blank[i] = b.trimmed[i] == ""
		if !b.blank[i] && (b.anchor < 0 || len(b.trimmed[i]) > len(b.trimmed[b.anchor])) {
			b.anchor = i
		}
		u.add(l)
	}
	for _, l := range replace {
		u.add(l)
		b.tabsIn = b.tabsIn || strings.Contains(lead(l), "\t")
	}
	b.unit = u.unit()
	return b
}

// match is one place where a block matched.
type match struct {
	line  int    // 1-based first line
	spans []span // the matched lines
	stage int
	ri    reindent
}

// Match matches search against the lines of content and returns the edits
// that put replace in their place. It never modifies content.
//
// Both texts are read as lines (splitLines: a final "\n" ends the last
// line, a "\r" before "\n" is dropped) and compared with the file's lines
// without their line endings, so a CRLF file matches a "\n" search. A BOM is
// never part of line 1. Stages, in order; the first that matches anywhere
// wins, and within it the earliest place in the file (the others are listed
// in Planned.OtherLines):
//
//  1. exact: every line equal;
//  2. trailing whitespace: equal once trailing whitespace is trimmed;
//  3. indentation: a uniform indentation offset, or tabs against spaces
//     (see offsetIndent and columnIndent); replace is re-indented alike;
//  4. blank first line, then blank last line: stages 1-3 again without the
//     search's leading blank lines, then also without its trailing ones
//     (and as many leading/trailing blank lines of replace, if it has them);
//  5. elision: when search has lines that are exactly "..." (trimmed), the
//     parts between them (see matchElision).
//
// The replacement is replace's lines, re-indented at stage 3, joined with
// the file's line ending (text.DetectEOL); the last replaced line keeps its
// own ending, so a block that ends a file without a final newline still
// does. Lines that search and replace share at their start and end are not
// rewritten: the file keeps its bytes there (its trailing whitespace too).
//
// Errors: ErrEmptySearch when search has no non-blank line; *NoMatch
// (wrapping ErrNoMatch) when no stage matches, with the closest lines of the
// file and whether replace is already there; ErrElision and ErrAmbiguous for
// elided searches whose parts do not line up or repeat.
func Match(content []byte, search, replace string) (Planned, error) {
	f := newFile(content)
	return f.match(splitLines(strings.TrimPrefix(search, text.BOM)), splitLines(replace))
}

func newFile(content []byte) *file {
	return &file{b: content, bom: text.BOMLen(content), eol: text.DetectEOL(content)}
}

// match runs all the stages; see Match.
func (f *file) match(S, R []string) (Planned, error) {
	blk := newBlock(S, R)
	if blk.anchor < 0 {
		return Planned{}, fmt.Errorf("%w: search has no text to find (it is empty or only blank lines); give the lines to replace, or send an empty search to append to the file", ErrEmptySearch)
	}
	if m, others, ok := f.find(blk, stIndent); ok {
		return f.result(m, others, S, R, stageNames[m.stage], ""), nil
	}

	// Stage 4: spurious blank lines at the ends of search.
	lead, trail := blankRun(S, false), blankRun(S, true)
	if lead > 0 {
		S2, R2 := S[lead:], R[min(lead, blankRun(R, false)):]
		if m, others, ok := f.find(newBlock(S2, R2), stIndent); ok {
			return f.result(m, others, S2, R2, StageBlankFirstLine, "after dropping "+plural(lead, "blank line")+" at the start of search"), nil
		}
	}
	if trail > 0 {
		S2, R2 := S[lead:len(S)-trail], R[min(lead, blankRun(R, false)):]
		R2 = R2[:len(R2)-min(trail, blankRun(R2, true))]
		if m, others, ok := f.find(newBlock(S2, R2), stIndent); ok {
			what := plural(trail, "blank line") + " at the end of search"
			if lead > 0 {
				what = plural(lead+trail, "blank line") + " at the start and end of search"
			}
			return f.result(m, others, S2, R2, StageBlankLastLine, "after dropping "+what), nil
		}
	}

	// Stage 5: `...` elision.
	if countDots(S) > 0 {
		return f.matchElision(S, R)
	}
	// Then the shared ladder's stages that aider's lack.
	if r, ok, err := f.matchLater(S, R); ok || err != nil {
		return r, err
	}
	return Planned{}, f.noMatch(blk, R)
}

// blankRun counts the blank lines at the start (or end) of lines. A text
// that is all blank lines has no run worth dropping: nothing would be left.
func blankRun(lines []string, fromEnd bool) int {
	n := 0
	for n < len(lines) {
		i := n
		if fromEnd {
			i = len(lines) - 1 - n
		}
		if !isBlank(lines[i]) {
			return n
		}
		n++
	}
	return 0
}

// result builds the Planned of a whole-block match.
func (f *file) result(m match, others []int, S, R []string, stage, how string) Planned {
	edits := f.edits(m, S, R, f.bom)
	end := m.line + len(m.spans) - 1
	r := Planned{Edits: edits, Stage: stage, Line: m.line, EndLine: end, OtherLines: others}

	var sb strings.Builder
	if len(edits) == 0 {
		fmt.Fprintf(&sb, "The SEARCH block matched %s, and REPLACE is the same text there, so nothing changed", lineRange(m.line, end))
	} else {
		fmt.Fprintf(&sb, "Replaced %s", lineRange(m.line, end))
	}
	switch {
	case m.stage == stExact && how == "":
		sb.WriteString(" (exact match).")
	case m.stage == stExact:
		fmt.Fprintf(&sb, " (matched %s).", how)
	default:
		said, _ := forgiven(m, how)
		fmt.Fprintf(&sb, " (matched %s).", strings.Join(said, ", "))
	}
	if m.stage != stExact || how != "" {
		_, trailer := forgiven(m, how)
		r.Matched = stage + ": " + strings.Join(trailer, ", ")
	}
	if len(others) > 0 {
		fmt.Fprintf(&sb, " The SEARCH block also matches at %s; the first match (line %d) was used. To edit another one, include more surrounding lines in search.", lineList(others), m.line)
	}
	if countDots(R) > countDots(S) {
		sb.WriteString(" Note: replace has a `...` line that search does not have; it was written to the file as it is.")
	}
	r.Message = sb.String()
	return r
}

// forgiven says what a match of one of this format's own stages forgave:
// as the result's message words it, and as its Edit-Match trailer does.
func forgiven(m match, how string) (said, trailer []string) {
	if how != "" {
		said, trailer = append(said, how), append(trailer, how)
	}
	switch m.stage {
	case stTrailing:
		said, trailer = append(said, "ignoring trailing whitespace"), append(trailer, "trailing whitespace")
	case stIndent:
		said, trailer = append(said, "ignoring trailing whitespace and indentation: "+m.ri.describe()), append(trailer, m.ri.describe())
	}
	return said, trailer
}

// find looks for blk in the file at stages up to maxStage. It returns the
// earliest place at the best stage, and the first lines of the other places
// at that stage.
//
// Every stage requires each line's trimmed text to equal the search line's,
// so it looks only where the anchor (the longest trimmed search line)
// occurs: bytes.Index jumps between occurrences, each occurrence is checked
// to be a whole line (whitespace aside), and only then are the block's other
// lines read. Lines are counted as the scan goes, so there is no index of
// the file and nothing is allocated per file line.
func (f *file) find(blk *block, maxStage int) (best match, others []int, ok bool) {
	anchor := []byte(blk.trimmed[blk.anchor])
	scratch := make([]span, len(blk.lines))
	bestStage := maxStage + 1

	pos, line, lineStart := f.bom, 1, f.bom // line number and start of the line holding pos
	for from := f.bom; from < len(f.b); {
		k := bytes.Index(f.b[from:], anchor)
		if k < 0 {
			break
		}
		off := from + k
		if seg := f.b[pos:off]; len(seg) > 0 {
			if n := bytes.Count(seg, []byte{'\n'}); n > 0 {
				line += n
				lineStart = pos + bytes.LastIndexByte(seg, '\n') + 1
			}
		}
		s := f.lineAt(lineStart)
		// The first occurrence in a line is the only one that can be the
		// line's whole trimmed text (the anchor starts with a non-blank),
		// so either way the scan moves on to the next line.
		if off+len(anchor) <= s.textEnd && blankBytes(f.b[s.start:off]) && blankBytes(f.b[off+len(anchor):s.textEnd]) {
			if f.verify(blk, s.start, scratch) {
				if st, ri, ok := f.classify(blk, scratch, maxStage); ok {
					first := line - blk.anchor
					switch {
					case st < bestStage:
						bestStage = st
						best = match{line: first, spans: append([]span(nil), scratch...), stage: st, ri: ri}
						others = nil
					case st == bestStage:
						others = append(others, first)
					}
				}
			}
		}
		if s.end == s.textEnd { // the last line, without a line ending
			break
		}
		pos, line, lineStart, from = s.end, line+1, s.end, s.end
	}
	return best, others, bestStage <= maxStage
}

// verify checks that the block, with its anchor line at the file line
// starting at anchorStart, fits in the file and that every line's trimmed
// text equals the search line's. It fills spans with the block's lines.
func (f *file) verify(blk *block, anchorStart int, spans []span) bool {
	start := anchorStart
	for range blk.anchor {
		s, ok := f.prevStart(start)
		if !ok {
			return false
		}
		start = s
	}
	for i := range blk.lines {
		if start >= len(f.b) {
			return false
		}
		s := f.lineAt(start)
		if string(trimSpaceBytes(f.b[s.start:s.textEnd])) != blk.trimmed[i] {
			return false
		}
		spans[i] = s
		start = s.end
	}
	return true
}

// edits builds the edits that put R in place of the matched lines. Lines
// that S and R share at their start and at their end are context: the file
// keeps them byte for byte, and only the lines between are rewritten. low is
// the lowest offset an edit may reach back to (see below).
func (f *file) edits(m match, S, R []string, low int) []text.Edit {
	a := 0
	for a < len(S) && a < len(R) && S[a] == R[a] {
		a++
	}
	b := 0
	for b < len(S)-a && b < len(R)-a && S[len(S)-1-b] == R[len(R)-1-b] {
		b++
	}
	old := m.spans[a : len(S)-b]
	repl := R[a : len(R)-b]
	lines := make([]string, len(repl))
	for i, l := range repl {
		lines[i] = m.ri.apply(l)
	}
	joined := strings.Join(lines, f.eol)

	var e text.Edit
	switch {
	case len(old) == 0 && len(repl) == 0:
		return nil
	case len(old) == 0: // pure insertion
		if a < len(m.spans) {
			at := m.spans[a].start
			e = text.Edit{Start: at, End: at, New: joined + f.eol}
		} else if last := m.spans[len(m.spans)-1]; last.end > last.textEnd {
			e = text.Edit{Start: last.end, End: last.end, New: joined + f.eol}
		} else { // after a last line without a line ending: keep it without
			e = text.Edit{Start: last.end, End: last.end, New: f.eol + joined}
		}
	case len(repl) == 0: // deletion of whole lines
		first, last := old[0], old[len(old)-1]
		e = text.Edit{Start: first.start, End: last.end}
		if last.end == last.textEnd && first.start > f.bom {
			// The deleted lines end the file without a final newline: take
			// the previous line's ending too, so the file still lacks one.
			// Not past low, where another edit (an elided part) ends.
			prev := first.start - 1
			if prev > f.bom && f.b[prev-1] == '\r' {
				prev--
			}
			if prev >= low {
				e.Start = prev
			}
		}
	default:
		first, last := old[0], old[len(old)-1]
		e = text.Edit{Start: first.start, End: last.end, New: joined + string(f.b[last.textEnd:last.end])}
	}
	if e.New == string(f.b[e.Start:e.End]) {
		return nil
	}
	return []text.Edit{e}
}

// lineRange renders "line 3" or "lines 3-7".
func lineRange(first, last int) string {
	if first == last {
		return fmt.Sprintf("line %d", first)
	}
	return fmt.Sprintf("lines %d-%d", first, last)
}

// maxListed caps the line numbers listed in one message.
const maxListed = 20

// lineList renders "line 4" or "lines 4, 9 and 17", at most maxListed.
func lineList(lines []int) string {
	var parts []string
	for i, l := range lines {
		if i == maxListed {
			parts = append(parts, plural(len(lines)-maxListed, "more line"))
			break
		}
		parts = append(parts, fmt.Sprint(l))
	}
	if len(lines) == 1 {
		return "line " + parts[0]
	}
	return "lines " + jsonargs.AndList(parts)
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
