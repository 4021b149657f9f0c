package texteditor

import (
	"fmt"
	"strings"

	"github.com/git-edit/git-edit/ops/codeedit"
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
}

// PlanStrReplace plans replacing the one occurrence of oldStr in content by
// newStr. path is used in error messages only.
//
// Matching is text.FindExact's: exact, overlapping occurrences included, except
// that in a CRLF file a match may not start in the middle of a "\r\n"; when
// oldStr is not found, the file's EOL (text.DetectEOL) is CRLF and oldStr has
// lone "\n", it retries with those converted to "\r\n" (agents usually write
// "\n"). In a CRLF file newStr's lone "\n" become "\r\n". When the matched
// text equals the text to write, it returns no edits and a nil error: the
// caller reports "no change".
//
// Errors: oldStr empty (ErrInvalidArgs), not found (ErrNotFound; the message
// then shows the lines of the file most like oldStr and the first
// difference, codeedit.Nearest), more than
// one occurrence (ErrAmbiguous, listing their line numbers).
func PlanStrReplace(path string, content []byte, oldStr, newStr string) (Planned, error) {
	if oldStr == "" {
		return Planned{}, invalid(`"old_str" is empty, and empty text cannot be located; to add text use "insert" with "insert_line", or "write" to replace the whole file`)
	}
	offs, old, fixed := text.FindExact(content, oldStr)
	switch {
	case len(offs) == 0:
		msg := fmt.Errorf("%w in %s; view the file and copy the exact text to replace, including whitespace, indentation and line breaks", ErrNotFound, path)
		if near := codeedit.Nearest(content, oldStr, "old_str"); near != "" {
			msg = fmt.Errorf("%w\n%s", msg, near)
		}
		return Planned{}, msg
	case len(offs) > 1:
		return Planned{}, fmt.Errorf("%w in %s: found %d occurrences of old_str%s, at %s; include more surrounding lines in old_str to make it unique",
			ErrAmbiguous, path, len(offs), overlapNote(offs, len(old)), text.DescribeLines(text.OccurrenceLines(content, offs)))
	}
	repl := text.ToEOL(newStr, text.DetectEOL(content))
	pl := Planned{Offset: offs[0], Line: text.OccurrenceLines(content, offs)[0], Old: old, New: repl, CRLFFix: fixed}
	if old != repl {
		pl.Edits = []text.Edit{{Start: offs[0], End: offs[0] + len(old), New: repl}}
	}
	return pl, nil
}

// overlapNote explains a count that surprises: occurrences that overlap.
func overlapNote(offs []int, n int) string {
	if text.Overlapping(offs, n) {
		return " (some of them overlap)"
	}
	return ""
}

// PlanInsert plans inserting newStr as whole lines after line insertLine
// (1-based; 0 inserts before the first line, after any BOM). path is used in
// error messages only.
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
// Errors: empty newStr (ErrInvalidArgs), insertLine < 0 or greater than the
// line count (ErrOutOfRange, naming the count and the valid range).
func PlanInsert(path string, content []byte, insertLine int, newStr string) (Planned, error) {
	if newStr == "" {
		return Planned{}, invalid(`"new_str" is empty, so there is nothing to insert; give the lines to insert in "new_str"`)
	}
	n := text.LineCount(content)
	if insertLine < 0 || insertLine > n {
		return Planned{}, fmt.Errorf("%w: insert_line %d is outside %s, which has %s; use a number from 0 (before the first line) to %d (after the last line)",
			ErrOutOfRange, insertLine, path, plural(n, "line"), n)
	}
	eol := text.DetectEOL(content)
	body, _ := text.TrimEOL(text.ToEOL(newStr, eol))

	if insertLine == n && n > 0 && !text.EndsWithNewline(content) {
		if body == "" || strings.HasSuffix(body, "\n") {
			// The last inserted line is empty, and an empty last line exists
			// only with a terminator: the file gains a final newline.
			return Planned{Edits: []text.Edit{{Start: len(content), End: len(content), New: eol + body + eol}}}, nil
		}
		return Planned{Edits: []text.Edit{{Start: len(content), End: len(content), New: eol + body}}}, nil
	}
	// insertLine+1 is in [1, n+1]; for an empty or BOM-only file that is the
	// end of the content, i.e. after the BOM.
	off, _ := text.LineStart(content, insertLine+1)
	return Planned{Edits: []text.Edit{{Start: off, End: off, New: body + eol}}}, nil
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
