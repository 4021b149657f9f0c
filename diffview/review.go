package diffview

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// The hunks of a diff as values, for reviewing a change hunk by hunk:
// FileHunks numbers them as FileChangeNumbered prints them, Split cuts one
// into smaller ones as `git add -p` does, and Revert takes chosen ones
// back out of the new content.

// A Line is one line of a hunk: Sign ' ' (context), '-' (old only) or '+'
// (new only), and its bytes with its line ending ("" for a last line
// without one).
type Line struct {
	Sign byte
	Text string
}

// A Hunk is one "@@" section of a diff. OldStart and NewStart are the
// 0-based indexes of its first line in old and new (for a side with no
// lines, the index of the line after the place); OldLines and NewLines
// count its lines on each side.
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	Lines              []Line
}

// HunkLabel is what follows a hunk header's closing "@@" in
// FileChangeNumbered: " hunk N", N 1-based.
func HunkLabel(n int) string { return " hunk " + strconv.Itoa(n) }

// Header is the hunk's "@@ -l,s +l,s @@" line, without a newline, as
// Unified writes it.
func (h Hunk) Header() string {
	var b strings.Builder
	b.WriteString("@@ -")
	writeRange(&b, h.OldStart, h.OldLines)
	b.WriteString(" +")
	writeRange(&b, h.NewStart, h.NewLines)
	b.WriteString(" @@")
	return b.String()
}

// String is the hunk as Unified writes it: its header line, then its
// lines, each after its sign, a last line without "\n" marked as git
// marks it.
func (h Hunk) String() string {
	var b strings.Builder
	b.WriteString(h.Header())
	b.WriteByte('\n')
	for _, l := range h.Lines {
		writeLines(&b, l.Sign, []byte(l.Text))
	}
	return b.String()
}

// FileHunks is the hunks of Unified(old, new, context), in order: hunk i
// is the one FileChangeNumbered labels HunkLabel(i+1). None when old and
// new are equal.
func FileHunks(old, new []byte, context int) []Hunk {
	if bytes.Equal(old, new) {
		return nil
	}
	planned := plan(old, new, context, maxMyersLines)
	out := make([]Hunk, len(planned))
	for i, h := range planned {
		x := Hunk{OldStart: h.oldStart, OldLines: h.oldLines, NewStart: h.newStart, NewLines: h.newLines}
		for _, r := range h.body {
			for _, l := range splitAfterNewline(r.text(old, new)) {
				x.Lines = append(x.Lines, Line{Sign: r.sign, Text: string(l)})
			}
		}
		out[i] = x
	}
	return out
}

// splitAfterNewline splits b after each "\n"; a last line without one is
// kept.
func splitAfterNewline(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		n := bytes.IndexByte(b, '\n') + 1
		if n == 0 {
			n = len(b)
		}
		out = append(out, b[:n])
		b = b[n:]
	}
	return out
}

// Split cuts h, as `git add -p` splits a hunk, at each stretch of context
// lines between two changes: each part holds one change (a run of removed
// and added lines) with the context lines on either side of it, so the
// context between two changes belongs to both parts. A hunk with a single
// change comes back as it is, alone.
func Split(h Hunk) []Hunk {
	type span struct{ from, to int } // a change: Lines[from:to]
	var changes []span
	for i := 0; i < len(h.Lines); {
		if h.Lines[i].Sign == ' ' {
			i++
			continue
		}
		j := i
		for j < len(h.Lines) && h.Lines[j].Sign != ' ' {
			j++
		}
		changes = append(changes, span{i, j})
		i = j
	}
	if len(changes) < 2 {
		return []Hunk{h}
	}
	var out []Hunk
	oldAt, newAt := h.OldStart, h.NewStart // at Lines[0]
	pos := 0
	for k := range changes {
		from := 0 // the context before the change: back to the change before
		if k > 0 {
			from = changes[k-1].to
		}
		to := len(h.Lines)
		if k+1 < len(changes) {
			to = changes[k+1].from
		}
		// Advance the line counters from pos to from.
		for ; pos < from; pos++ {
			if h.Lines[pos].Sign != '+' {
				oldAt++
			}
			if h.Lines[pos].Sign != '-' {
				newAt++
			}
		}
		part := Hunk{OldStart: oldAt, NewStart: newAt, Lines: append([]Line(nil), h.Lines[from:to]...)}
		for _, l := range part.Lines {
			if l.Sign != '+' {
				part.OldLines++
			}
			if l.Sign != '-' {
				part.NewLines++
			}
		}
		out = append(out, part)
	}
	return out
}

// ErrStale: a hunk given to Revert does not match the content it is to be
// taken out of (the content is not the new side the hunk was made from),
// or hunks overlap.
var ErrStale = errors.New("the hunk does not match the content")

// Revert takes the changes of hunks (made by FileHunks or Split from a diff
// whose new side is new) back out of new: each run of removed and added
// lines is replaced by its removed lines, byte for byte; the rest of new
// stays as it is. Parts of one split hunk may share context lines; their
// changes must not overlap, or Revert fails with ErrStale, as it does when
// a hunk's new lines are not in new where it says.
func Revert(new []byte, hunks []Hunk) ([]byte, error) {
	lines := splitAfterNewline(new)
	type change struct {
		at, n int // lines of new replaced
		old   []string
	}
	var changes []change
	for _, h := range hunks {
		at := h.NewStart
		i := 0
		for i < len(h.Lines) {
			l := h.Lines[i]
			if l.Sign == ' ' {
				if at >= len(lines) || string(lines[at]) != l.Text {
					return nil, fmt.Errorf("%w: line %d is not its context line", ErrStale, at+1)
				}
				at++
				i++
				continue
			}
			c := change{at: at}
			for ; i < len(h.Lines) && h.Lines[i].Sign != ' '; i++ {
				switch x := h.Lines[i]; x.Sign {
				case '-':
					c.old = append(c.old, x.Text)
				case '+':
					if at+c.n >= len(lines) || string(lines[at+c.n]) != x.Text {
						return nil, fmt.Errorf("%w: line %d is not the line the hunk added", ErrStale, at+c.n+1)
					}
					c.n++
				}
			}
			at += c.n
			changes = append(changes, c)
		}
	}
	// In order of place; a change at the same place as another (an
	// insertion before a replacement) cannot come from one diff.
	for i := 1; i < len(changes); i++ {
		for j := i; j > 0 && changes[j].at < changes[j-1].at; j-- {
			changes[j], changes[j-1] = changes[j-1], changes[j]
		}
	}
	var out bytes.Buffer
	out.Grow(len(new))
	pos := 0
	for i, c := range changes {
		if c.at < pos || (i > 0 && c.at == changes[i-1].at) {
			return nil, fmt.Errorf("%w: hunks overlap", ErrStale)
		}
		for ; pos < c.at; pos++ {
			out.Write(lines[pos])
		}
		for _, o := range c.old {
			out.WriteString(o)
		}
		pos += c.n
	}
	for ; pos < len(lines); pos++ {
		out.Write(lines[pos])
	}
	return out.Bytes(), nil
}
