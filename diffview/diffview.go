// Package diffview renders unified diffs of file changes, in the exact form
// that git diff writes and git apply and patch accept, bounded in time and
// memory for any input.
//
// The bound comes from never handing a large input to a quadratic
// algorithm: the common prefix and suffix of whole lines are trimmed with
// linear byte comparisons, and only the changed window in between is diffed
// with Myers' algorithm (github.com/hexops/gotextdiff), and only if its
// cost there, known before calling it, is within a fixed budget. A window
// over budget (a rewrite of more than a few hundred lines, or many changes
// spread over thousands of lines) is shown as one replacement: all its old
// lines removed, all its new lines added. That diff is larger than a
// minimal one but just as correct.
//
// Lines end at "\n". A "\r" before it is part of the line's content, so
// CRLF files diff and apply like any other; bytes are never interpreted
// otherwise (there is no binary detection).
package diffview

import (
	"bytes"
	"hash/maphash"
	"strconv"
	"strings"

	"github.com/hexops/gotextdiff"
	"github.com/hexops/gotextdiff/myers"
	"github.com/hexops/gotextdiff/span"
)

// Myers' algorithm, as gotextdiff implements it, keeps a copy of its
// frontier of 2·S+1 ints for each of its D+1 steps, where S is the old plus
// new line count of the window and D the number of lines removed plus
// added: (D+1)·(2·S+1) ints of memory and about as many steps of time.
// Rewriting 500 lines into 500 others (D = S = 1,000) costs 16 MB and
// 6 ms; 1,000 into 1,000, 70 MB; adding 10,000 lines next to one changed
// line, 1.6 GB, so bounding the product old·new would not do. The window
// is given to gotextdiff only if its S is at most maxMyersLines and its D,
// measured first by editsWithin, keeps the trace within maxMyersTrace ints.
const (
	// maxMyersLines bounds S, and with it the per-line bookkeeping (about
	// 100 bytes a line, ours and gotextdiff's) and the frontier size.
	maxMyersLines = 20_000
	// maxMyersTrace bounds (D+1)·(2·S+1): 16 MB and about 10 ms. Any
	// window of up to 1,000 lines fits, whatever its D; one of 20,000
	// lines fits if D ≤ 51.
	maxMyersTrace = 1 << 21
)

// maxContext caps the requested context so that 2·context cannot overflow
// even a 32-bit int; it is more lines than any file given here can have.
const maxContext = 1 << 29

// noNewline follows a diff line whose file line lacks its final "\n".
const noNewline = "\n\\ No newline at end of file\n"

// Unified returns a git-style unified diff turning old into new, with
// context lines of unchanged text around each change (a negative context
// counts as 0). It starts with the header lines "--- a/<oldName>" and
// "+++ b/<newName>"; an empty oldName stands for a created file and is
// written "--- /dev/null", an empty newName for a deleted file, written
// "+++ /dev/null". Names needing it are C-quoted as git does. The names are
// labels only: a renamed file is not marked as a rename. Unified returns ""
// when old and new are equal.
func Unified(oldName, newName string, old, new []byte, context int) string {
	header := "--- " + headerPath("a/", oldName) + "\n+++ " + headerPath("b/", newName) + "\n"
	return render(header, old, new, context, maxMyersLines)
}

// Hunks is Unified without the two header lines: only the
// "@@ -l,s +l,s @@" hunks, numbered by the lines of the full old and new
// files. It is the snippet shown after an edit. Hunks returns "" when old
// and new are equal.
func Hunks(old, new []byte, context int) string {
	return render("", old, new, context, maxMyersLines)
}

// Stat counts the lines a diff of old to new adds and removes, as
// `git diff --numstat` does, with Unified's bounds: a window too costly for
// Myers counts as all of its old lines removed and new lines added.
func Stat(old, new []byte) (added, removed int) {
	if bytes.Equal(old, new) {
		return 0, 0
	}
	for _, r := range changeRuns(old, new, maxMyersLines) {
		switch r.sign {
		case '+':
			added += r.lines
		case '-':
			removed += r.lines
		}
	}
	return added, removed
}

// render writes header and the hunks turning old into new. Windows of more
// than myersLimit lines are shown as a single replacement.
func render(header string, old, new []byte, context, myersLimit int) string {
	if bytes.Equal(old, new) {
		return ""
	}
	context = min(max(context, 0), maxContext)
	hunks := planHunks(changeRuns(old, new, myersLimit), old, context)
	return write(header, hunks, old, new)
}

// changeRuns splits old and new into runs of equal, removed and added
// lines, covering both files whole.
func changeRuns(old, new []byte, myersLimit int) []run {
	// Trim whole lines only: a line shared only in part is a changed line.
	// The suffix is searched after the prefix so that the two cannot overlap.
	p := bytes.LastIndexByte(old[:commonPrefixLen(old, new)], '\n') + 1
	s := commonSuffixLines(old[p:], new[p:])
	oldEnd, newEnd := len(old)-s, len(new)-s

	// The prefix and suffix are single equal runs; the context shown from
	// them is cut out later without splitting them into lines.
	runs := make([]run, 0, 8)
	runs = appendRun(runs, run{sign: ' ', start: 0, end: p, lines: bytes.Count(old[:p], nl)})
	runs = appendWindow(runs, old, new, p, oldEnd, newEnd, myersLimit)
	return appendRun(runs, run{sign: ' ', start: oldEnd, end: len(old), lines: countLines(old[oldEnd:])})
}

var nl = []byte{'\n'}

// windowURI names the window for gotextdiff, which requires a name but
// does not use it; built once since building it is not free.
var windowURI = span.URIFromPath("/window")

// A run is a stretch of whole lines of one kind: ' ' (equal) and '-'
// (removed) runs are byte ranges of old, '+' (added) runs of new. Only the
// last line of a file may lack its "\n".
type run struct {
	sign       byte
	start, end int
	lines      int
}

func (r run) text(old, new []byte) []byte {
	if r.sign == '+' {
		return new[r.start:r.end]
	}
	return old[r.start:r.end]
}

// appendRun appends r, merged into the last run when it continues it, so
// that equal runs are maximal: hunk merging depends on their lengths.
func appendRun(runs []run, r run) []run {
	if r.lines == 0 {
		return runs
	}
	if n := len(runs); n > 0 && runs[n-1].sign == r.sign && runs[n-1].end == r.start {
		runs[n-1].end = r.end
		runs[n-1].lines += r.lines
		return runs
	}
	return append(runs, r)
}

// appendWindow appends the runs turning old[start:oldEnd] into
// new[start:newEnd]: Myers' edit script when its cost is within bounds and
// gotextdiff's result checks out, otherwise one removal and one addition.
// Windows of more than myersLimit lines are never given to Myers.
func appendWindow(runs []run, old, new []byte, start, oldEnd, newEnd, myersLimit int) []run {
	oldLines, newLines := countLines(old[start:oldEnd]), countLines(new[start:newEnd])
	// With one side empty the replacement is already the minimal diff.
	if size := oldLines + newLines; oldLines > 0 && newLines > 0 && size <= myersLimit {
		a, b := lineStarts(old, start, oldEnd), lineStarts(new, start, newEnd)
		aIDs, bIDs := lineIDs(old, a, new, b)
		// D never exceeds size; the cap keeps editsWithin's frontier small.
		if editsWithin(aIDs, bIDs, min(maxMyersTrace/(2*size+1)-1, size)) {
			if out, ok := appendMyers(runs, a, b, aIDs, bIDs); ok {
				return out
			}
		}
	}
	runs = appendRun(runs, run{sign: '-', start: start, end: oldEnd, lines: oldLines})
	return appendRun(runs, run{sign: '+', start: start, end: newEnd, lines: newLines})
}

// lineIDs numbers the lines of old and new delimited by the offsets a and
// b (see lineStarts) so that equal numbers mean equal lines. Lines are
// hashed, not copied; two different lines with the same hash get different
// numbers, so a collision can only cost diff quality.
func lineIDs(old []byte, a []int, new []byte, b []int) (aIDs, bIDs []int32) {
	seed := maphash.MakeSeed()
	byHash := make(map[uint64]int32, len(a)+len(b))
	var lines [][]byte // line of each number
	number := func(line []byte) int32 {
		h := maphash.Bytes(seed, line)
		id, seen := byHash[h]
		if seen && bytes.Equal(lines[id], line) {
			return id
		}
		id = int32(len(lines))
		lines = append(lines, line)
		if !seen {
			byHash[h] = id
		}
		return id
	}
	numberAll := func(buf []byte, starts []int) []int32 {
		ids := make([]int32, len(starts)-1)
		for i := range ids {
			ids[i] = number(buf[starts[i]:starts[i+1]])
		}
		return ids
	}
	return numberAll(old, a), numberAll(new, b)
}

// editsWithin reports whether gotextdiff's Myers diff of a and b ends
// within maxD steps, that is, whether they differ by at most maxD lines
// removed plus added. It is the forward pass of gotextdiff's algorithm,
// step for step, without the trace: O((len(a)+len(b))·maxD) time and
// O(maxD) memory.
func editsWithin(a, b []int32, maxD int) bool {
	if maxD < 0 {
		return false
	}
	off := maxD + 1
	v := make([]int, 2*maxD+3) // v[off+k]: furthest x reached on diagonal k = x-y
	for d := 0; d <= maxD; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: add b[y]
			} else {
				x = v[off+k-1] + 1 // right: remove a[x]
			}
			y := x - k
			for x < len(a) && y < len(b) && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x == len(a) && y == len(b) {
				return true
			}
		}
	}
	return false
}

// appendMyers appends the runs of gotextdiff's Myers diff between the lines
// of old and new delimited by the offsets a and b (see lineStarts) and
// numbered aIDs and bIDs (see lineIDs). It reports false, leaving runs
// unchanged, if gotextdiff panics or returns a script that does not turn
// exactly those old lines into those new lines; the caller then falls back
// to a replacement, so a bug there can cost diff quality, not correctness.
func appendMyers(runs []run, a, b []int, aIDs, bIDs []int32) (out []run, ok bool) {
	defer func() {
		if recover() != nil {
			out, ok = runs, false
		}
	}()

	// Myers sees each line as its number, so comparing two lines takes
	// constant time however long and alike they are.
	aText, aTok := tokens(aIDs)
	bText, bTok := tokens(bIDs)
	edits := myers.ComputeEdits(windowURI, aText, bText)
	u := gotextdiff.ToUnified("a", "b", aText, edits)

	// Replay the hunks over the window, checking every line: between hunks
	// old and new lines must pair up as equal. The runs are collected apart
	// since appendRun may extend the last of runs in place.
	var window []run
	i, j := 0, 0 // next line of a and of b
	emit := func(sign byte) {
		if sign == '+' {
			window = appendRun(window, run{sign: sign, start: b[j], end: b[j+1], lines: 1})
		} else {
			window = appendRun(window, run{sign: sign, start: a[i], end: a[i+1], lines: 1})
		}
	}
	equalUntil := func(to int) bool {
		if to < i || to > len(aTok) || to-i > len(bTok)-j {
			return false
		}
		for ; i < to; i, j = i+1, j+1 {
			if aTok[i] != bTok[j] {
				return false
			}
			emit(' ')
		}
		return true
	}
	for _, h := range u.Hunks {
		if !equalUntil(h.FromLine - 1) {
			return runs, false
		}
		for _, l := range h.Lines {
			oldOK := i < len(aTok) && aTok[i] == l.Content
			newOK := j < len(bTok) && bTok[j] == l.Content
			switch {
			case l.Kind == gotextdiff.Equal && oldOK && newOK:
				emit(' ')
				i, j = i+1, j+1
			case l.Kind == gotextdiff.Delete && oldOK:
				emit('-')
				i++
			case l.Kind == gotextdiff.Insert && newOK:
				emit('+')
				j++
			default:
				return runs, false
			}
		}
	}
	if !equalUntil(len(aTok)) || j != len(bTok) {
		return runs, false
	}
	for _, r := range window {
		runs = appendRun(runs, r)
	}
	return runs, true
}

// tokens returns the text of one line "<id>\n" per id, for gotextdiff, and
// each of those lines.
func tokens(ids []int32) (text string, lines []string) {
	buf := make([]byte, 0, 8*len(ids))
	ends := make([]int, len(ids))
	for i, id := range ids {
		buf = strconv.AppendInt(buf, int64(id), 10)
		buf = append(buf, '\n')
		ends[i] = len(buf)
	}
	text = string(buf)
	lines = make([]string, len(ids))
	start := 0
	for i, end := range ends {
		lines[i], start = text[start:end], end
	}
	return text, lines
}

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

// write renders header and hunks in one exactly sized allocation, so that
// a large diff costs its output size once rather than through regrowth.
func write(header string, hunks []hunk, old, new []byte) string {
	size := len(header)
	for _, h := range hunks {
		size += len("@@ -, +, @@\n") + 4*20 // four numbers of at most 20 digits
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
	for _, h := range hunks {
		b.WriteString("@@ -")
		writeRange(&b, h.oldStart, h.oldLines)
		b.WriteString(" +")
		writeRange(&b, h.newStart, h.newLines)
		b.WriteString(" @@\n")
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

// commonPrefixLen returns the length of the longest common prefix of a and
// b, comparing in blocks so that the scan runs at memory speed.
func commonPrefixLen(a, b []byte) int {
	const block = 4096
	n := min(len(a), len(b))
	i := 0
	for i+block <= n && bytes.Equal(a[i:i+block], b[i:i+block]) {
		i += block
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffixLines returns the byte length of the longest common suffix
// of a and b made of whole lines of both: it must start at the start of a
// or just after a "\n", in each of them.
func commonSuffixLines(a, b []byte) int {
	const block = 4096
	n := 0
	for m := min(len(a), len(b)); n+block <= m && bytes.Equal(a[len(a)-n-block:len(a)-n], b[len(b)-n-block:len(b)-n]); {
		n += block
	}
	for n < len(a) && n < len(b) && a[len(a)-n-1] == b[len(b)-n-1] {
		n++
	}
	if atLineStart(a, len(a)-n) && atLineStart(b, len(b)-n) {
		return n
	}
	// Inside the suffix a and b agree, so their next line starts coincide.
	i := bytes.IndexByte(a[len(a)-n:], '\n')
	if i < 0 {
		return 0
	}
	return n - (i + 1)
}

func atLineStart(buf []byte, i int) bool {
	return i == 0 || buf[i-1] == '\n'
}

// countLines returns the number of lines of text, counting a last line
// that lacks its "\n".
func countLines(text []byte) int {
	n := bytes.Count(text, nl)
	if len(text) > 0 && text[len(text)-1] != '\n' {
		n++
	}
	return n
}

// lineStarts returns the offsets in buf of the lines of buf[start:end],
// followed by end: line i is buf[s[i]:s[i+1]].
func lineStarts(buf []byte, start, end int) []int {
	s := make([]int, 0, countLines(buf[start:end])+1)
	for i := start; i < end; {
		s = append(s, i)
		if n := bytes.IndexByte(buf[i:end], '\n'); n >= 0 {
			i += n + 1
		} else {
			i = end
		}
	}
	return append(s, end)
}

// headerPath returns the name for a "---" or "+++" header line: /dev/null
// for an absent file, otherwise prefix+name, C-quoted as git quotes it if
// it contains a byte that would otherwise end or garble the line (control
// bytes, '"' or '\\'). Other bytes, UTF-8 included, are kept as they are.
func headerPath(prefix, name string) string {
	if name == "" {
		return "/dev/null"
	}
	path := prefix + name
	if !strings.ContainsFunc(path, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '"' || r == '\\' }) {
		return path
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(path); i++ {
		switch c := path[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\v':
			b.WriteString(`\v`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if c < 0x20 || c == 0x7f {
				b.WriteByte('\\')
				b.WriteByte('0' + c>>6)
				b.WriteByte('0' + c>>3&7)
				b.WriteByte('0' + c&7)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
