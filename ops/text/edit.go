package text

import (
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
)

// Edit replaces src[Start:End] with New. Start and End are byte offsets into
// the current content; Start == End is a pure insertion at Start.
type Edit struct {
	Start, End int
	New        string
}

// ErrBadEdit is wrapped by every ApplyEdits refusal. A refusal is a bug in the
// dialect that produced the edits (or a stale plan), never the agent's input.
var ErrBadEdit = errors.New("invalid edit")

// ApplyEdits returns src with edits applied. It never modifies src or edits,
// and the result never aliases src (it is a fresh slice even with no edits).
//
// Edits are ordered by (Start, End), stably, so two pure insertions at the
// same offset are applied in input order, and an insertion at the start of a
// replaced range lands before the replacement. An insertion at the start or
// end of a replaced range is allowed.
//
// It refuses, with an error wrapping ErrBadEdit that names the edit by its
// index in edits and says why: Start < 0, End < Start, End > len(src), and two
// edits whose ranges overlap (share at least one byte, or an insertion
// strictly inside a replaced range). Bounds are checked in input order first,
// then overlaps in position order.
//
// The result is allocated once, with its size computed first.
func ApplyEdits(src []byte, edits []Edit) ([]byte, error) {
	for i, e := range edits {
		switch {
		case e.Start < 0:
			return nil, fmt.Errorf("%w: edits[%d] has start %d, which is negative", ErrBadEdit, i, e.Start)
		case e.End < e.Start:
			return nil, fmt.Errorf("%w: edits[%d] has end %d before its start %d", ErrBadEdit, i, e.End, e.Start)
		case e.End > len(src):
			return nil, fmt.Errorf("%w: edits[%d] has end %d past the end of the content (%d bytes)", ErrBadEdit, i, e.End, len(src))
		}
	}

	// order holds indices into edits in position order; nil means edits is
	// already in order, which is the common case and costs no allocation.
	var order []int
	for i := 1; i < len(edits); i++ {
		if less(edits[i], edits[i-1]) {
			order = make([]int, len(edits))
			for j := range order {
				order[j] = j
			}
			slices.SortStableFunc(order, func(a, b int) int {
				switch {
				case less(edits[a], edits[b]):
					return -1
				case less(edits[b], edits[a]):
					return 1
				}
				return 0
			})
			break
		}
	}
	at := func(k int) int {
		if order == nil {
			return k
		}
		return order[k]
	}

	size := len(src)
	for k := range edits {
		i := at(k)
		e := edits[i]
		if k > 0 {
			pi := at(k - 1)
			p := edits[pi]
			// Sorted by Start and pairwise disjoint so far, so the previous
			// edit has the largest End seen: checking it alone is enough.
			if e.Start < p.End {
				return nil, fmt.Errorf("%w: edits[%d] [%d,%d) overlaps edits[%d] [%d,%d); edits must not overlap (an insertion may touch the start or end of a replaced range)",
					ErrBadEdit, i, e.Start, e.End, pi, p.Start, p.End)
			}
		}
		size += len(e.New) - (e.End - e.Start)
	}

	out := make([]byte, 0, size)
	pos := 0
	for k := range edits {
		e := edits[at(k)]
		out = append(out, src[pos:e.Start]...)
		out = append(out, e.New...)
		pos = e.End
	}
	out = append(out, src[pos:]...)
	return out, nil
}

// less orders edits by (Start, End).
func less(a, b Edit) bool {
	return a.Start < b.Start || (a.Start == b.Start && a.End < b.End)
}

// ReplaceAll plans replacing, in src, the occurrences of one string n
// bytes long that offs yields (increasing offsets, such as FindExactSeq's),
// each that does not overlap the previous one replaced, taken left to right
// as strings.ReplaceAll takes them, by repl. It returns at most one edit:
// the span from the first occurrence to the end of the last replaced, with
// its new text built in one pass and allocated once, so that memory is the
// size of that text whatever the number of occurrences (an edit per
// occurrence costs some 40 bytes each: for a one-byte needle, 40 times
// the file). There is no edit when offs yields none or the string is repl.
// count is the number of occurrences replaced, first the offset of the
// first (-1 when none). offs is ranged over twice.
func ReplaceAll(src []byte, offs iter.Seq[int], n int, repl string) (edits []Edit, count, first int) {
	first, last := -1, -1 // last: the end of the last occurrence replaced
	for off := range offs {
		if off < last || off < 0 || off+n > len(src) {
			continue
		}
		if first < 0 {
			first = off
		}
		count, last = count+1, off+n
	}
	if count == 0 || string(src[first:last][:n]) == repl {
		return nil, count, first
	}
	var b strings.Builder
	b.Grow(last - first + count*(len(repl)-n))
	pos := first
	for off := range offs {
		if off >= last {
			break
		}
		if off < pos {
			continue // overlaps the one just replaced, or before the first
		}
		b.Write(src[pos:off])
		b.WriteString(repl)
		pos = off + n
	}
	return []Edit{{Start: first, End: last, New: b.String()}}, count, first
}
