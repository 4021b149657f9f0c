package texteditor

import (
	"fmt"
	"strings"

	"github.com/git-edit/git-edit/ops/codeedit"
	"github.com/git-edit/git-edit/ops/match"
	"github.com/git-edit/git-edit/ops/text"
)

// Limits of the dialect, from its spec.
const (
	// MaxViewBytes is the largest file that view shows whole (400 KiB).
	MaxViewBytes = 400 * 1024
	// MaxViewChars is the most characters (runes) a view shows, whole file or range.
	MaxViewChars = 400_000
	// MaxWriteChars is the most characters (runes) write/create accept in file_text.
	MaxWriteChars = 400_000
	// LanguageHeadBytes is how much of a file language detection looks at.
	LanguageHeadBytes = 16 * 1024
)

// Planned is a planned str_replace or insert: the spans over the content,
// and for str_replace what they replace.
type Planned struct {
	// Edits are spans over the content, for text.ApplyEdits; none when the
	// change would not alter a byte.
	Edits   []text.Edit
	Offset  int    // byte offset of the replaced text in the content
	Line    int    // 1-based line where the replaced text starts
	Old     string // the replaced text as it is in the file (old_str, CRLF-converted if that is how it matched)
	New     string // the text written in its place (new_str, CRLF-converted in a CRLF file)
	CRLFFix bool   // old_str matched only after converting its "\n" to "\r\n"
	// Stage is the ladder's stage old_str matched at (match.Exact unless a
	// tolerance was needed), and Forgave what that stage forgave there.
	Stage   match.Stage
	Forgave string
	// Hinted: old_str occurs Occurrences times and the line hint picked
	// the one at Line.
	Hinted      bool
	Occurrences []int // the first line of every occurrence, when Hinted
	// AfterLine is where insert inserts: insert_line, a negative one
	// counted from the end.
	AfterLine int
}

// Matched is the plan's dialect.Plan.Matched: "<stage>: <what it forgave>"
// when old_str matched other than exactly, else nil.
func (p Planned) Matched() []string {
	if p.Stage == match.Exact {
		return nil
	}
	return []string{p.Stage.String() + ": " + p.forgiven()}
}

// forgiven is what the match forgave, for the agent: the place's own words
// ("trailing whitespace on 2 lines"), or the stage's name when the place
// has none (a line ending or final newline the file has otherwise).
func (p Planned) forgiven() string {
	if p.Forgave != "" {
		return p.Forgave
	}
	return p.Stage.String() + " differences"
}

// Stages are the ladder's stages str_replace climbs when old_str is not in
// the file exactly: the tolerances that cannot pick text other than the one
// the agent copied. Similarity (a block with a line changed) is left out:
// the seed asks for the exact text, and a near block may be the wrong one.
var Stages = match.Of(match.TrailingSpace, match.Unicode, match.Indentation, match.InnerSpace, match.Escapes)

// PlanStrReplace plans replacing the one occurrence of oldStr in content by
// newStr: PlanStrReplaceAt without a line hint.
func PlanStrReplace(path string, content []byte, oldStr, newStr string) (Planned, error) {
	return PlanStrReplaceAt(path, content, oldStr, newStr, 0)
}

// PlanStrReplaceAt plans replacing the one occurrence of oldStr in content
// by newStr. path is used in error messages only. hint, when > 0, is the
// 1-based line the agent says oldStr is at: among several occurrences it
// picks the one match.PickByHint picks (containing it, else the nearest
// within match.HintWindow lines); with one occurrence it is not needed.
//
// Matching climbs match.Find's ladder over Stages: exact first
// (text.FindExact's: overlapping occurrences included, a match never starts
// inside a "\r\n", and in a CRLF file oldStr's lone "\n" match "\r\n"),
// then, only when that finds nothing, each tolerance in ladder order; the
// first stage that matches decides. newStr is adapted to the place the way
// oldStr was matched (match.Match.Replacement: the file's line endings,
// indentation re-applied, escapes undone). When the matched text equals the
// text to write, it returns no edits and a nil error: the caller reports
// "no change".
//
// Errors: oldStr empty (ErrInvalidArgs), not found (ErrNotFound; the
// message then shows the lines of the file most like oldStr and the first
// difference, codeedit.Nearest), more than one occurrence and no hint that
// picks one (ErrAmbiguous, listing their line numbers), newStr a
// placeholder for the code it would delete (match.ErrOmission, see
// match.CheckOmission).
func PlanStrReplaceAt(path string, content []byte, oldStr, newStr string, hint int) (Planned, error) {
	if oldStr == "" {
		return Planned{}, invalid(`"old_str" is empty, and empty text cannot be located; to add text use "insert" with "insert_line", or "write" to replace the whole file`)
	}
	m, err := match.Find(content, oldStr, Stages)
	if err != nil {
		msg := fmt.Errorf("%w in %s; view the file and copy the exact text to replace, including whitespace, indentation and line breaks", ErrNotFound, path)
		if near := codeedit.Nearest(content, oldStr, "old_str"); near != "" {
			msg = fmt.Errorf("%w\n%s", msg, near)
		}
		return Planned{}, msg
	}
	i, hinted, err := pick(path, m, hint)
	if err != nil {
		return Planned{}, err
	}
	at := m.Places[i]
	old := string(content[at.Start:at.End])
	repl := m.Replacement(i, newStr)
	if err := match.CheckOmission("new_str", old, repl); err != nil {
		return Planned{}, err
	}
	pl := Planned{Offset: at.Start, Line: at.Line, Old: old, New: repl, Stage: m.Stage, Forgave: at.Forgave,
		CRLFFix: m.Stage == match.Exact && old != oldStr}
	if hinted {
		pl.Hinted = true
		for _, p := range m.Places {
			pl.Occurrences = append(pl.Occurrences, p.Line)
		}
	}
	if old != repl {
		pl.Edits = []text.Edit{{Start: at.Start, End: at.End, New: repl}}
	}
	return pl, nil
}

// pick chooses the place to replace: the only one, or the one hint picks.
func pick(path string, m *match.Match, hint int) (i int, hinted bool, err error) {
	if m.Unique() {
		return 0, false, nil
	}
	lines := make([]int, len(m.Places))
	for k, p := range m.Places {
		lines[k] = p.Line
	}
	how := ""
	if m.Stage != match.Exact {
		how = " (matched ignoring " + m.Stage.String() + ")"
	}
	refuse := func(why string) error {
		return fmt.Errorf("%w in %s: found %d occurrences of old_str%s%s, at %s; %s",
			ErrAmbiguous, path, m.Count, overlapNote(m.Places), how, text.DescribeLines(lines), why)
	}
	// Beyond match.MaxPlaces the places are not all known, so the nearest
	// to the hint cannot be told: such a hint is not used.
	if hint <= 0 || m.Count > len(m.Places) {
		return 0, false, refuse("include more surrounding lines in old_str to make it unique")
	}
	i, miss := match.PickByHint(len(m.Places), func(k int) (int, int) { return m.Places[k].Line, m.Places[k].EndLine }, hint)
	switch miss {
	case match.HintTooFar:
		return 0, false, refuse(fmt.Sprintf(`"line" %d is more than %d lines from every one of them; give the line where the one to replace starts, or include more surrounding lines in old_str`, hint, match.HintWindow))
	case match.HintTie:
		return 0, false, refuse(fmt.Sprintf(`"line" %d is as near to two of them; give the line where the one to replace starts, or include more surrounding lines in old_str`, hint))
	}
	return i, true, nil
}

// overlapNote explains a count that surprises: occurrences that overlap.
func overlapNote(places []match.Place) string {
	for k := 1; k < len(places); k++ {
		if places[k].Start < places[k-1].End {
			return " (some of them overlap)"
		}
	}
	return ""
}

// PlanInsert plans inserting newStr as whole lines after line insertLine
// (1-based; 0 inserts before the first line, after any BOM; a negative one
// counts from the end: -1 inserts after the last line, -2 before it, and
// -(count+1) before the first line). Planned.AfterLine is the line it
// inserts after, counted from the start. path is used in error messages
// only.
//
// newStr's text forms whole lines: one trailing line ending is optional (it
// terminates the last line, it is not an extra empty line), so "x" and "x\n"
// insert the same line, and "x\n\n" inserts "x" and an empty line. The
// inserted lines take the file's EOL (text.DetectEOL; "\n" for a file without
// line endings); lone "\n" in newStr are converted. After the last line of a
// file without a final newline, the line ending goes before the inserted text
// and the file still ends without one, unless the last inserted line is
// empty (newStr "\n" or "x\n\n"): an empty last line needs its terminator, so
// then the file gains a final newline. Into an empty file the inserted lines
// end with a line ending ("c" into "" gives "c\n").
//
// Errors: empty newStr (ErrInvalidArgs), insertLine greater than the line
// count or below -(count+1) (ErrOutOfRange, naming the count and the valid
// range).
func PlanInsert(path string, content []byte, insertLine int, newStr string) (Planned, error) {
	if newStr == "" {
		return Planned{}, invalid(`"new_str" is empty, so there is nothing to insert; give the lines to insert in "new_str"`)
	}
	n := text.LineCount(content)
	if insertLine > n {
		return Planned{}, fmt.Errorf("%w: insert_line %d is outside %s, which has %s; use a number from 0 (before the first line) to %d (after the last line)",
			ErrOutOfRange, insertLine, path, plural(n, "line"), n)
	}
	if insertLine < -(n + 1) {
		return Planned{}, fmt.Errorf("%w: insert_line %d is outside %s, which has %s; counting from the end, -1 inserts after the last line and %d before the first, or use a number from 0 (before the first line) to %d (after the last line)",
			ErrOutOfRange, insertLine, path, plural(n, "line"), -(n + 1), n)
	}
	if insertLine < 0 {
		insertLine += n + 1
	}
	eol := text.DetectEOL(content)
	body, _ := text.TrimEOL(text.ToEOL(newStr, eol))

	if insertLine == n && n > 0 && !text.EndsWithNewline(content) {
		if body == "" || strings.HasSuffix(body, "\n") {
			// The last inserted line is empty, and an empty last line exists
			// only with a terminator: the file gains a final newline.
			return Planned{AfterLine: n, Edits: []text.Edit{{Start: len(content), End: len(content), New: eol + body + eol}}}, nil
		}
		return Planned{AfterLine: n, Edits: []text.Edit{{Start: len(content), End: len(content), New: eol + body}}}, nil
	}
	// insertLine+1 is in [1, n+1]; for an empty or BOM-only file that is the
	// end of the content, i.e. after the BOM.
	off, _ := text.LineStart(content, insertLine+1)
	return Planned{AfterLine: insertLine, Edits: []text.Edit{{Start: off, End: off, New: body + eol}}}, nil
}

// PlanWrite returns the new content of a file written with fileText. A new
// file (exists false) gets fileText byte for byte. An existing file keeps its
// conventions: its BOM, unless fileText starts with one, and its CRLF line
// endings (text.DetectEOL), by converting fileText's lone "\n" to "\r\n".
func PlanWrite(old []byte, exists bool, fileText string) []byte {
	if !exists {
		return []byte(fileText)
	}
	written := text.ToEOL(fileText, text.DetectEOL(old))
	if text.HasBOM(old) && !strings.HasPrefix(written, text.BOM) {
		return append([]byte(text.BOM), written...)
	}
	return []byte(written)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return thousands(n) + " " + word + "s"
}
