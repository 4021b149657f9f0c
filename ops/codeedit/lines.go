package codeedit

import (
	"bytes"
	"strings"
)

// isSpace reports the whitespace that trimming removes: spaces, tabs and the
// other ASCII blanks except "\n". "\r" is among them so that a stray "\r"
// (the agent's CRLF, or "\r\r\n" in the file) never decides a match.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

// trimSpace trims isSpace bytes from both ends.
func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

// trimRight trims isSpace bytes from the end.
func trimRight(s string) string {
	j := len(s)
	for j > 0 && isSpace(s[j-1]) {
		j--
	}
	return s[:j]
}

func trimSpaceBytes(b []byte) []byte {
	i, j := 0, len(b)
	for i < j && isSpace(b[i]) {
		i++
	}
	for j > i && isSpace(b[j-1]) {
		j--
	}
	return b[i:j]
}

func blankBytes(b []byte) bool { return len(trimSpaceBytes(b)) == 0 }

func isBlank(s string) bool { return trimSpace(s) == "" }

// lead returns s's indentation: its leading run of spaces and tabs.
func lead(s string) string {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return s[:i]
}

// splitLines splits an agent's text into lines without line endings: one
// final "\n" ends the last line rather than starting an empty one, and a
// "\r" before each "\n" (the agent's CRLF) is dropped. "" has no lines;
// "\n" is one empty line.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// isDots reports an elision line: exactly "..." once trimmed.
func isDots(line string) bool { return trimSpace(line) == "..." }

func countDots(lines []string) int {
	n := 0
	for _, l := range lines {
		if isDots(l) {
			n++
		}
	}
	return n
}

// span is one file line: its text is b[start:textEnd], its line ending
// b[textEnd:end] ("\n", "\r\n", or "" for a last line without one).
type span struct{ start, textEnd, end int }

// file is the content being matched. It walks lines on demand instead of
// indexing them all, so a match costs little more than a bytes.Index scan.
type file struct {
	b    []byte
	bom  int    // the BOM's length; line 1 starts after it
	eol  string // the line ending for new lines (text.DetectEOL)
	unit int    // the file's space indentation unit; 0 until computed, -1 for none
}

// lineAt returns the line starting at start (start < len(f.b)).
func (f *file) lineAt(start int) span {
	i := bytes.IndexByte(f.b[start:], '\n')
	if i < 0 {
		return span{start, len(f.b), len(f.b)}
	}
	s := span{start, start + i, start + i + 1}
	if s.textEnd > start && f.b[s.textEnd-1] == '\r' {
		s.textEnd--
	}
	return s
}

// prevStart returns the start of the line before the one starting at start;
// ok is false for the first line.
func (f *file) prevStart(start int) (int, bool) {
	if start <= f.bom {
		return 0, false
	}
	j := bytes.LastIndexByte(f.b[f.bom:start-1], '\n')
	return f.bom + j + 1, true
}

// lineStart returns the start of line n (1-based; n may be one past the last
// line, whose start is len(f.b)).
func (f *file) lineStart(n int) int {
	off := f.bom
	for line := 1; line < n && off < len(f.b); line++ {
		off = f.lineAt(off).end
	}
	return off
}

func (f *file) text(s span) string { return string(f.b[s.start:s.textEnd]) }

// fileUnit returns the number of spaces the file indents by, detected over
// the whole file (see detectUnit), or 0 when its lines do not say. It is
// computed once, and only when a spaces-indented block shows a single level.
func (f *file) fileUnit() int {
	if f.unit == 0 {
		var u unitCounter
		for off := f.bom; off < len(f.b); {
			s := f.lineAt(off)
			u.add(string(f.b[s.start:s.textEnd]))
			off = s.end
		}
		f.unit = u.unit()
		if f.unit == 0 {
			f.unit = -1
		}
	}
	return max(f.unit, 0)
}

// unitCounter detects an indentation unit in spaces: the most common
// increase of indentation between consecutive non-blank lines indented with
// spaces only (decreases when there is no increase; on a tie the smaller).
// Increases, because a dedent often closes several levels at once, and the
// most common one, because alignment adds odd amounts now and then.
type unitCounter struct {
	prev     int  // indentation of the previous counted line
	started  bool // prev is set
	up, down map[int]int
}

func (u *unitCounter) add(line string) {
	if isBlank(line) {
		return
	}
	l := lead(line)
	if strings.ContainsRune(l, '\t') {
		u.started = false // a tab-indented line breaks the chain
		return
	}
	n := len(l)
	if u.started && n != u.prev {
		if u.up == nil {
			u.up, u.down = map[int]int{}, map[int]int{}
		}
		if n > u.prev {
			u.up[n-u.prev]++
		} else {
			u.down[u.prev-n]++
		}
	}
	u.prev, u.started = n, true
}

func (u *unitCounter) unit() int {
	h := u.up
	if len(h) == 0 {
		h = u.down
	}
	best, count := 0, 0
	for d, c := range h {
		if c > count || (c == count && d < best) {
			best, count = d, c
		}
	}
	return best
}
