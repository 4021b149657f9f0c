package exactedit

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/git-edit/git-edit/ops/jsonargs"
	"github.com/git-edit/git-edit/ops/text"
)

// MaxLineChars is the most characters (runes) of one line that Read shows;
// longer lines are cut and end with a marker (" [... line cut: 1,234 more
// characters]"), as Claude Code's Read cuts them, so one minified line cannot
// flood the agent's context.
const MaxLineChars = 2000

// EmptyFileNote is what Read shows for a file with no lines (empty, or only
// a BOM).
const EmptyFileNote = "<empty file>"

// numberWidth is the width the line number is right-aligned in, as `cat -n`.
const numberWidth = 6

// RenderRead returns lines offset to offset+limit-1 (1-based, inclusive) of
// content in the `cat -n` form: each line's number right-aligned in 6
// columns (wider when it needs more digits), a tab, and the line's text
// without its line ending ("\r\n" or "\n"); lines are separated by "\n",
// with none after the last. The BOM is not shown. A last line without a
// final newline is shown like any other. Lines longer than MaxLineChars
// characters are cut (see MaxLineChars). When lines remain after the last
// one shown, a final line says how many and which offset reads them:
// "... 1,234 more lines; read them with offset 2001".
//
// A file with no lines renders as EmptyFileNote (for offset 1). Errors,
// *Failure: offset or limit below 1 (MsgInvalidArgs), offset past the last
// line (MsgOffsetPastEnd, ErrOutOfRange, naming the line count).
func RenderRead(content []byte, offset, limit int) (string, error) {
	switch {
	case offset < 1:
		return "", errOffset(offset)
	case limit < 1:
		return "", errLimit(limit)
	}
	x := text.NewLineIndex(content)
	n := x.Count()
	switch {
	case n == 0 && offset == 1:
		return EmptyFileNote, nil
	case n == 0:
		return "", &Failure{Message: MsgOffsetPastEnd, Err: ErrOutOfRange,
			Details: fmt.Sprintf("offset is %d, but the file is empty (0 lines); leave out offset to read it", offset)}
	case offset > n:
		return "", &Failure{Message: MsgOffsetPastEnd, Err: ErrOutOfRange,
			Details: fmt.Sprintf("offset is %d, but the file has %s; use an offset from 1 to %d", offset, lines(n), n)}
	}
	last := n
	if limit <= n-offset { // not offset+limit-1 < n: that could overflow
		last = offset + limit - 1
	}

	var b strings.Builder
	for line := offset; line <= last; line++ {
		start, textEnd, _, _ := x.Bounds(line, content)
		if line > offset {
			b.WriteByte('\n')
		}
		num := strconv.Itoa(line)
		for range numberWidth - len(num) {
			b.WriteByte(' ')
		}
		b.WriteString(num)
		b.WriteByte('\t')
		writeCut(&b, content[start:textEnd])
	}
	if rest := n - last; rest > 0 {
		it, them := "them", "lines"
		if rest == 1 {
			it, them = "it", "line"
		}
		fmt.Fprintf(&b, "\n... %s more %s; read %s with offset %d", jsonargs.Thousands(rest), them, it, last+1)
	}
	return b.String(), nil
}

// writeCut writes text, cut after MaxLineChars characters with a marker.
// Invalid UTF-8 bytes count as one character each and are written as they
// are.
func writeCut(b *strings.Builder, text []byte) {
	if len(text) <= MaxLineChars { // at most as many runes as bytes
		b.Write(text)
		return
	}
	total := utf8.RuneCount(text)
	if total <= MaxLineChars {
		b.Write(text)
		return
	}
	cut := 0
	for range MaxLineChars {
		_, size := utf8.DecodeRune(text[cut:])
		cut += size
	}
	b.Write(text[:cut])
	fmt.Fprintf(b, " [... line cut: %s more characters]", jsonargs.Thousands(total-MaxLineChars))
}

func errOffset(offset int) *Failure {
	return invalid(`"offset" is %d, but lines are numbered from 1; use 1 (or leave "offset" out) to start at the first line`, offset)
}

func errLimit(limit int) *Failure {
	return invalid(`"limit" is %d; it is the number of lines to show, at least 1 (leave it out for %d)`, limit, DefaultReadLimit)
}

func lines(n int) string {
	if n == 1 {
		return "1 line"
	}
	return jsonargs.Thousands(n) + " lines"
}
