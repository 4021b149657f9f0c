package diffview

import (
	"bytes"
	"strconv"
	"strings"
)

// Runs are grouped into hunks the way git groups them, and the hunks are
// written out as the text of a unified diff.

// noNewline follows a diff line whose file line lacks its final "\n".
const noNewline = "\n\\ No newline at end of file\n"

// A hunk is one "@@" section: its first line in old and in new as 0-based
// indexes, its line counts, and its lines as runs.
type hunk struct {
	oldStart, oldLines int
	newStart, newLines int
	body               []run
}

// planHunks groups runs into hunks as git does: each change gets up to
// context equal lines on either side, and changes whose context would touch
// or overlap (at most 2·context equal lines apart) share one hunk.
func planHunks(runs []run, old []byte, context int) []hunk {
	var hunks []hunk
	oldN, newN := 0, 0 // lines of old and new before runs[i]
	for i := 0; i < len(runs); {
		if runs[i].sign == ' ' {
			oldN += runs[i].lines
			newN += runs[i].lines
			i++
			continue
		}
		last := i // last change of the hunk
		for k := i + 1; k < len(runs); k++ {
			if runs[k].sign != ' ' {
				last = k
			} else if runs[k].lines > 2*context {
				break
			}
		}

		var h hunk
		lead := 0
		if i > 0 && runs[i-1].sign == ' ' {
			r := tailLines(runs[i-1], old, context)
			lead = r.lines
			h.body = appendRun(h.body, r)
		}
		for _, r := range runs[i : last+1] {
			h.body = appendRun(h.body, r)
		}
		if last+1 < len(runs) && runs[last+1].sign == ' ' {
			h.body = appendRun(h.body, headLines(runs[last+1], old, context))
		}

		h.oldStart, h.newStart = oldN-lead, newN-lead
		for _, r := range h.body {
			if r.sign != '+' {
				h.oldLines += r.lines
			}
			if r.sign != '-' {
				h.newLines += r.lines
			}
		}
		for _, r := range runs[i : last+1] {
			if r.sign != '+' {
				oldN += r.lines
			}
			if r.sign != '-' {
				newN += r.lines
			}
		}
		hunks = append(hunks, h)
		i = last + 1
	}
	return hunks
}

// tailLines returns the equal run made of the last n lines of r.
func tailLines(r run, old []byte, n int) run {
	text := old[r.start:r.end]
	start, lines := len(text), 0
	for ; lines < n && start > 0; lines++ {
		// Skip the last byte of the line before start, its "\n".
		start = bytes.LastIndexByte(text[:start-1], '\n') + 1
	}
	return run{sign: ' ', start: r.start + start, end: r.end, lines: lines}
}

// headLines returns the equal run made of the first n lines of r.
func headLines(r run, old []byte, n int) run {
	text := old[r.start:r.end]
	end, lines := 0, 0
	for ; lines < n && end < len(text); lines++ {
		if i := bytes.IndexByte(text[end:], '\n'); i >= 0 {
			end += i + 1
		} else {
			end = len(text)
		}
	}
	return run{sign: ' ', start: r.start, end: r.start + end, lines: lines}
}

// write renders header and hunks in one exactly sized allocation, so that
// a large diff costs its output size once rather than through regrowth.
func write(header string, hunks []hunk, old, new []byte, numbered bool) string {
	size := len(header)
	for _, h := range hunks {
		size += len("@@ -, +, @@ hunk \n") + 5*20 // five numbers of at most 20 digits
		for _, r := range h.body {
			text := r.text(old, new)
			size += len(text) + r.lines // one sign per line
			if !bytes.HasSuffix(text, nl) {
				size += len(noNewline) - 1
			}
		}
	}

	var b strings.Builder
	b.Grow(size)
	b.WriteString(header)
	for i, h := range hunks {
		b.WriteString("@@ -")
		writeRange(&b, h.oldStart, h.oldLines)
		b.WriteString(" +")
		writeRange(&b, h.newStart, h.newLines)
		b.WriteString(" @@")
		if numbered {
			b.WriteString(HunkLabel(i + 1))
		}
		b.WriteByte('\n')
		for _, r := range h.body {
			writeLines(&b, r.sign, r.text(old, new))
		}
	}
	return b.String()
}

// writeRange writes a hunk range as git does: "l,s" for s lines from line
// l (1-based), just "l" when s is 1, and for no lines the line before them
// ("0,0" at the top of the file).
func writeRange(b *strings.Builder, start, count int) {
	if count == 0 {
		b.WriteString(strconv.Itoa(start))
		b.WriteString(",0")
		return
	}
	b.WriteString(strconv.Itoa(start + 1))
	if count != 1 {
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(count))
	}
}

// writeLines writes each line of text prefixed with sign, marking a last
// line that lacks its "\n".
func writeLines(b *strings.Builder, sign byte, text []byte) {
	for len(text) > 0 {
		n := bytes.IndexByte(text, '\n') + 1
		b.WriteByte(sign)
		if n == 0 {
			b.Write(text)
			b.WriteString(noNewline)
			return
		}
		b.Write(text[:n])
		text = text[n:]
	}
}
