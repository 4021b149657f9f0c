package positional

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/git-edit/git-edit/ops/text"
)

// locator resolves requested positions against one content. It indexes line
// starts once (text.LineIndex) and counts characters only inside the lines it
// needs, so resolving a position in a large file costs one pass at most and
// copies nothing.
type locator struct {
	path    string // for messages only
	content []byte
	bom     int
	lines   *text.LineIndex
}

func newLocator(path string, content []byte) *locator {
	return &locator{path: path, content: content, bom: text.BOMLen(content), lines: text.NewLineIndex(content)}
}

// resolve returns the byte offset in the content of p. With both forms it
// resolves line+column and checks that offset names the same place. Errors
// wrap ErrPosition; label ("range start: ") prefixes the message.
func (l *locator) resolve(label string, p Point) (int, error) {
	b, err := l.point(p)
	if err != nil {
		return 0, fmt.Errorf("%w: %s%v", ErrPosition, label, err)
	}
	return b, nil
}

// point, lineColumn, linePastEnd and offset return bare messages, which
// resolve labels and wraps.
func (l *locator) point(p Point) (int, error) {
	// Parse rules these out; a Point built by hand must not resolve anyway.
	switch {
	case p.Line < 0 || p.Column < 0 || (p.Line > 0) != (p.Column > 0):
		return 0, fmt.Errorf("line %d, column %d is not a position; lines and columns are numbered from 1", p.Line, p.Column)
	case !p.hasLineColumn() && !p.HasOffset:
		return 0, errors.New(`the position gives neither "line" and "column" nor "offset"`)
	case p.HasOffset && p.Offset < 0:
		return 0, fmt.Errorf("offset %d is before the start of the file; offsets are numbered from 0", p.Offset)
	}
	if !p.hasLineColumn() {
		return l.offset(p.Offset)
	}
	b, err := l.lineColumn(p.Line, p.Column)
	if err != nil {
		return 0, err
	}
	if p.HasOffset {
		if at := utf8.RuneCount(l.content[l.bom:b]); at != p.Offset {
			return 0, fmt.Errorf("line %d, column %d is offset %d, but offset %d was given; give one form or make them agree",
				p.Line, p.Column, at, p.Offset)
		}
	}
	return b, nil
}

// lineColumn returns the byte offset of a 1-based line and column.
func (l *locator) lineColumn(line, col int) (int, error) {
	n := l.lines.Count()
	if line > n {
		// Past the last line there is one more position, the empty end of
		// a file that ends with a newline (or is empty).
		if line > n+1 || (n > 0 && !text.EndsWithNewline(l.content)) {
			return 0, l.linePastEnd(line)
		}
		if col != 1 {
			return 0, fmt.Errorf("column %d is past the end of line %d, which is empty; use column 1", col, line)
		}
		return len(l.content), nil
	}
	start, textEnd, _, _ := l.lines.Bounds(line, l.content)
	text := l.content[start:textEnd]
	if i, ok := advance(text, col-1); ok {
		return start + i, nil
	}
	chars := utf8.RuneCount(text)
	if chars == 0 {
		return 0, fmt.Errorf("column %d is past the end of line %d, which is empty; use column 1", col, line)
	}
	return 0, fmt.Errorf("column %d is past the end of line %d, which has %s; use a column from 1 to %d",
		col, line, plural(chars, "character"), chars+1)
}

func (l *locator) linePastEnd(line int) error {
	n := l.lines.Count()
	if n == 0 {
		return fmt.Errorf("line %d is past the end of %s, which is empty; use line 1, column 1 (or offset 0)", line, l.path)
	}
	if text.EndsWithNewline(l.content) {
		return fmt.Errorf("line %d is past the end of %s, which has %s; use a line from 1 to %d, or line %d, column 1 for the end of the file",
			line, l.path, plural(n, "line"), n, n+1)
	}
	start, textEnd, _, _ := l.lines.Bounds(n, l.content)
	return fmt.Errorf("line %d is past the end of %s, which has %s; use a line from 1 to %d (the end of the file is line %d, column %d)",
		line, l.path, plural(n, "line"), n, n, utf8.RuneCount(l.content[start:textEnd])+1)
}

// offset returns the byte offset of a 0-based character offset. It counts
// characters a whole line at a time and decodes only inside the line where
// the offset lands.
func (l *locator) offset(off int) (int, error) {
	rem := off
	for line := 1; line <= l.lines.Count(); line++ {
		start, _, end, _ := l.lines.Bounds(line, l.content)
		seg := l.content[start:end]
		chars := utf8.RuneCount(seg)
		if rem >= chars {
			rem -= chars
			continue
		}
		i, _ := advance(seg, rem) // rem < chars: always ok
		b := start + i
		if i > 0 && seg[i-1] == '\r' && seg[i] == '\n' {
			return 0, fmt.Errorf(`offset %d is between the "\r" and "\n" that end line %d, which would split that line ending; use offset %d (the end of line %d) or %d (the start of line %d)`,
				off, line, off-1, line, off+1, line+1)
		}
		return b, nil
	}
	if rem == 0 {
		return len(l.content), nil
	}
	total := off - rem
	if total == 0 {
		return 0, fmt.Errorf("offset %d is past the end of %s, which is empty; use offset 0", off, l.path)
	}
	return 0, fmt.Errorf("offset %d is past the end of %s, which has %s; use an offset from 0 to %d",
		off, l.path, plural(total, "character"), total)
}

// span resolves a range to byte offsets, start <= end.
func (l *locator) span(s Span) (start, end int, err error) {
	if start, err = l.resolve("range start: ", s.Start); err != nil {
		return 0, 0, err
	}
	if end, err = l.resolve("range end: ", s.End); err != nil {
		return 0, 0, err
	}
	if start > end {
		return 0, 0, fmt.Errorf(`%w: range start (%s) is after its end (%s); give the earlier position as "start" and the later as "end"`,
			ErrPosition, s.Start, s.End)
	}
	return start, end, nil
}

// advance returns the byte index in b after n characters, and false when b
// has fewer than n characters. ASCII steps without decoding.
func advance(b []byte, n int) (int, bool) {
	i := 0
	for ; n > 0 && i < len(b); n-- {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, w := utf8.DecodeRune(b[i:])
		i += w
	}
	return i, n == 0
}

// cursor turns increasing byte offsets of one content into Positions,
// counting only the bytes between consecutive offsets, so converting every
// match of a search is linear in the content.
type cursor struct {
	content          []byte
	pos              int // byte offset reached
	line, col, chars int // its Position
}

func newCursor(content []byte) *cursor {
	return &cursor{content: content, pos: text.BOMLen(content), line: 1, col: 1}
}

// at returns the Position of byte offset b, which must not be before the
// previous call's.
func (c *cursor) at(b int) Position {
	seg := c.content[c.pos:b]
	n := utf8.RuneCount(seg)
	if i := bytes.LastIndexByte(seg, '\n'); i >= 0 {
		c.line += bytes.Count(seg, []byte(text.LF))
		c.col = utf8.RuneCount(seg[i+1:]) + 1
	} else {
		c.col += n
	}
	c.chars += n
	c.pos = b
	return Position{Line: c.line, Column: c.col, Offset: c.chars}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
