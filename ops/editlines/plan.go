package editlines

import (
	"slices"
	"sort"
	"strings"

	"github.com/git-edit/git-edit/ops/text"
)

// Planned is what Plan computes for a batch of operations.
type Planned struct {
	// Edits are byte spans over the original content, for text.ApplyEdits,
	// sorted by position. Spans that would not change a byte are left out,
	// so a batch that changes nothing has no edits (the caller should still
	// compare bytes to detect "no change": non-empty edits may cancel out).
	Edits []text.Edit
	// LinesChanged counts lines removed plus lines added over all
	// operations: replacing 3 lines with 2 counts 5, inserting 2 lines
	// counts 2, deleting 3 counts 3. It counts what the operations say, not
	// a diff, so replacing a line with identical text still counts 2.
	LinesChanged int
	// NewLineCount is text.LineCount of the content after the edits.
	NewLineCount int
}

// block is one contiguous piece of new text: the lines of a replace, or of
// every insert after the same line.
type block struct {
	text  string // the lines joined by the file's EOL, without a final one
	lines int    // how many lines text holds
}

// newBlock joins content into lines in the file's EOL. nil for no lines.
func newBlock(content []string, eol string) *block {
	if len(content) == 0 {
		return nil
	}
	joined := text.ToEOL(strings.Join(content, text.LF), eol)
	return &block{text: joined, lines: strings.Count(joined, text.LF) + 1}
}

// lineRange is a replace or delete after validation.
type lineRange struct {
	s, e int
	repl *block // nil: delete (or replace with no lines)
}

// Plan resolves operations against content, the file's current bytes, and
// compiles them to spans over those bytes. path is not used: the seed's
// error texts do not name the file (the caller knows it).
//
// The batch is validated as a whole before anything is compiled, and the
// first failure is returned, in this order: an empty batch
// (ErrNoOperations); then each operation on its own, in input order (as
// Parse checks it: ErrUnknownOperation, ErrInvalidLineNumber,
// ErrInvalidRange); then each operation's line numbers against the
// ORIGINAL line count, in input order (ErrLineOutOfRange: startLine, then
// endLine, or afterLine, greater than the count; afterLine may equal it);
// then overlaps (ErrOverlap), reporting the lowest line at which two
// operations conflict. Two replace/delete ranges conflict at every line
// they share. An insert after line n conflicts with a range that covers
// line n (its anchor line is being removed), at line n; an insert after the
// line just before a range does not, and lands before the range's new
// lines. Inserts never conflict with each other: several inserts after the
// same line are all made, in input order.
//
// Line model: a line is text up to and including "\n" (see text.LineCount);
// a BOM belongs to no line, so afterLine 0 inserts after it. All line
// numbers refer to the original content, so operations do not shift each
// other (the seed's bottom-up order, realised as one set of spans). New
// lines take the file's line ending (text.DetectEOL; "\n" for a file without
// one). A "\n" inside a content string splits it into lines: a lone "\n"
// is converted to that ending, a "\r\n" the agent wrote is kept. Whether the file ends with a newline is kept: in a file without a
// final newline, the last line of the result has none either, unless it is
// an empty line (an empty last line exists only with its terminator, so
// then the file gains one; otherwise the line would vanish). An empty file
// has no final-newline state: lines inserted into it all end with the EOL
// ("x" gives "x\n"). Deleting every line leaves the BOM alone, if any.
//
// Every error is an *Error whose text is the seed's. Plan never modifies its
// inputs and never panics.
func Plan(path string, content []byte, operations []Operation) (Planned, error) {
	if len(operations) == 0 {
		return Planned{}, errNoOperations()
	}
	for _, o := range operations {
		if err := check(o); err != nil {
			return Planned{}, err
		}
	}
	idx := text.NewLineIndex(content)
	total := idx.Count()
	for _, o := range operations {
		if err := checkBounds(o, total); err != nil {
			return Planned{}, err
		}
	}
	if n, ok := firstOverlap(operations); ok {
		i, j := overlapPair(operations, n)
		return Planned{}, errOverlap(n, operations, i, j)
	}

	eol := text.DetectEOL(content)
	var p Planned
	// Inserts after the same line become one block, in input order: one
	// span per position keeps the order obvious and the tail fix simple.
	// Their texts are collected and joined once, so that many inserts after
	// one line cost linear time.
	parts := map[int][]string{}
	slots := map[int]*block{}
	var ranges []lineRange
	for _, o := range operations {
		switch o.Op {
		case OpInsert:
			b := newBlock(o.Content, eol)
			if b == nil {
				continue
			}
			p.LinesChanged += b.lines
			parts[o.AfterLine] = append(parts[o.AfterLine], b.text)
			if s, ok := slots[o.AfterLine]; ok {
				s.lines += b.lines
			} else {
				slots[o.AfterLine] = b
			}
		case OpReplace, OpDelete:
			r := lineRange{s: o.StartLine, e: o.EndLine}
			p.LinesChanged += r.e - r.s + 1
			if o.Op == OpReplace {
				if r.repl = newBlock(o.Content, eol); r.repl != nil {
					p.LinesChanged += r.repl.lines
				}
			}
			ranges = append(ranges, r)
		}
	}
	for n, b := range slots {
		b.text = strings.Join(parts[n], eol)
	}
	p.NewLineCount = total
	for _, r := range ranges {
		p.NewLineCount -= r.e - r.s + 1
		if r.repl != nil {
			p.NewLineCount += r.repl.lines
		}
	}
	for _, b := range slots {
		p.NewLineCount += b.lines
	}

	// Compile as if every line were terminated: each block of new lines
	// ends with the EOL. A file without a final newline then needs its last
	// line's terminator removed, done by fixTail.
	final := total == 0 || text.EndsWithNewline(content)
	start := func(n int) int { off, _ := idx.Start(n); return off } // n in [1, total+1]
	slotEdit := map[int]int{}                                       // afterLine -> index in p.Edits
	for n, b := range slots {
		ed := text.Edit{Start: start(n + 1), End: start(n + 1), New: b.text + eol}
		if n == total && !final {
			// After an unterminated last line: give it the terminator it
			// lacks, before the new lines.
			ed.New = eol + ed.New
		}
		slotEdit[n] = len(p.Edits)
		p.Edits = append(p.Edits, ed)
	}
	rangeEdit := map[int]int{} // endLine -> index in p.Edits
	byEnd := map[int]lineRange{}
	for _, r := range ranges {
		ed := text.Edit{Start: start(r.s), End: start(r.e + 1)}
		if r.repl != nil {
			ed.New = r.repl.text + eol
		}
		rangeEdit[r.e] = len(p.Edits)
		byEnd[r.e] = r
		p.Edits = append(p.Edits, ed)
	}
	if !final {
		if ed, ok := fixTail(content, idx, total, slotEdit, rangeEdit, byEnd, p.Edits, eol); ok {
			p.Edits = append(p.Edits, ed)
		}
	}

	p.Edits = slices.DeleteFunc(p.Edits, func(e text.Edit) bool { return string(content[e.Start:e.End]) == e.New })
	slices.SortStableFunc(p.Edits, func(a, b text.Edit) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return a.End - b.End
	})
	return p, nil
}

// fixTail keeps a missing final newline missing. The compiled edits
// terminate every new line, so the result's last line may have gained a
// terminator. It walks back from the end of the file to the piece that ends
// the result and removes that terminator, unless the last line is empty:
// the last block of new lines loses its final EOL (edited in place in
// edits), or, when everything after a surviving original line k < total is
// deleted, line k's own terminator is deleted (returned as an extra edit).
// Only called for a non-empty file without a final newline.
func fixTail(content []byte, idx *text.LineIndex, total int, slotEdit, rangeEdit map[int]int, byEnd map[int]lineRange, edits []text.Edit, eol string) (text.Edit, bool) {
	strip := func(i int) {
		body := strings.TrimSuffix(edits[i].New, eol)
		if body != "" && !strings.HasSuffix(body, text.LF) {
			edits[i].New = body
		}
	}
	// Each step moves k down past a deleted range, so this ends; ranges do
	// not overlap and an insert after a removed line was refused, so at
	// most one of slot k and a range ending at k ends the result.
	for k := total; ; {
		if i, ok := slotEdit[k]; ok {
			strip(i)
			return text.Edit{}, false
		}
		if k == 0 {
			return text.Edit{}, false // everything was deleted
		}
		if r, ok := byEnd[k]; ok {
			if r.repl != nil {
				strip(rangeEdit[k])
				return text.Edit{}, false
			}
			k = r.s - 1
			continue
		}
		// Line k survives and ends the result.
		if k == total {
			return text.Edit{}, false // still the unterminated last line
		}
		start, textEnd, end, _ := idx.Bounds(k, content)
		if textEnd == start {
			return text.Edit{}, false // an empty last line keeps its terminator
		}
		return text.Edit{Start: textEnd, End: end}, true
	}
}

// checkBounds refuses line numbers past the original content's last line.
func checkBounds(o Operation, total int) error {
	if o.Op == OpInsert {
		if o.AfterLine > total {
			return errOutOfRange(o.AfterLine, total)
		}
		return nil
	}
	if o.StartLine > total {
		return errOutOfRange(o.StartLine, total)
	}
	if o.EndLine > total {
		return errOutOfRange(o.EndLine, total)
	}
	return nil
}

// overlapPair returns the first two operations, in input order, that
// conflict at line n (where firstOverlap found a conflict): the first
// operation touching n, and the first later one that conflicts with it. A
// range touches the lines it covers; an insert touches its afterLine,
// conflicting with a range that covers it but not with another insert.
func overlapPair(operations []Operation, n int) (int, int) {
	covers := func(o Operation) bool { return o.Op != OpInsert && o.StartLine <= n && n <= o.EndLine }
	touches := func(o Operation) bool { return covers(o) || o.Op == OpInsert && o.AfterLine == n }
	for i, a := range operations {
		if !touches(a) {
			continue
		}
		for j := i + 1; j < len(operations); j++ {
			if b := operations[j]; covers(b) || covers(a) && touches(b) {
				return i, j
			}
		}
	}
	return 0, 0 // unreachable when firstOverlap found n
}

// firstOverlap returns the lowest line at which two operations conflict
// (see Plan). The operations must have passed check.
func firstOverlap(operations []Operation) (int, bool) {
	type span struct{ s, e int }
	var ranges []span
	for _, o := range operations {
		if o.Op != OpInsert {
			ranges = append(ranges, span{o.StartLine, o.EndLine})
		}
	}
	slices.SortFunc(ranges, func(a, b span) int {
		if a.s != b.s {
			return a.s - b.s
		}
		return a.e - b.e
	})
	best, found := 0, false
	// merged are the maximal runs of lines covered by ranges, in order.
	// Scanning ranges by start, the first one that starts inside an earlier
	// run shares its start line with an earlier range, and no range-range
	// conflict can be at a lower line.
	var merged []span
	for _, r := range ranges {
		if m := len(merged) - 1; m >= 0 && r.s <= merged[m].e {
			if !found {
				best, found = r.s, true
			}
			merged[m].e = max(merged[m].e, r.e)
			continue
		}
		merged = append(merged, r)
	}
	for _, o := range operations {
		if o.Op != OpInsert || o.AfterLine < 1 || (found && o.AfterLine >= best) {
			continue
		}
		n := o.AfterLine
		i := sort.Search(len(merged), func(i int) bool { return merged[i].e >= n })
		if i < len(merged) && merged[i].s <= n {
			best, found = n, true
		}
	}
	return best, found
}
