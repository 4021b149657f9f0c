package diffview

import (
	"bytes"
	"hash/maphash"
)

// The cost guard decides whether a changed window may go to Myers'
// algorithm, which is what keeps this package's time and memory bounded.
//
// Myers' algorithm, as gotextdiff implements it, keeps a copy of its
// frontier of 2·S+1 ints for each of its D+1 steps, where S is the old plus
// new line count of the window and D the number of lines removed plus
// added: (D+1)·(2·S+1) ints of memory and about as many steps of time.
// Rewriting 500 lines into 500 others (D = S = 1,000) costs 16 MB and
// 6 ms; 1,000 into 1,000, 70 MB; adding 10,000 lines next to one changed
// line, 1.6 GB, so bounding the product old·new would not do. The window
// is given to gotextdiff only if its S is at most maxMyersLines and its D,
// measured first by editsWithin, keeps the trace within maxMyersTrace ints.
//
// Why D is measured with a forward pass of our own: the cost depends on D,
// which is known only by diffing, and gotextdiff offers no step or memory
// limit and no linear-space mode. Bounds on sizes alone either refuse
// cheap wide windows (a few edits spread over thousands of lines, which
// would then show as one huge replacement) or admit ruinous ones (one line
// into 10,000). Myers' forward pass without its trace measures D in
// O(S·D) time and O(D) memory, stopping as soon as D passes the budget, so
// its time stays within the budget of the diff it guards (see
// BenchmarkBudgetExceeded); it is some twenty lines. The replay check in
// myers.go does not depend on it matching gotextdiff step for step: the
// minimal D is the same for any correct Myers.
const (
	// maxMyersLines bounds S, and with it the per-line bookkeeping (about
	// 100 bytes a line, ours and gotextdiff's) and the frontier size.
	maxMyersLines = 20_000
	// maxMyersTrace bounds (D+1)·(2·S+1): 16 MB and about 10 ms. Any
	// window of up to 1,000 lines fits, whatever its D; one of 20,000
	// lines fits if D ≤ 51.
	maxMyersTrace = 1 << 21
)

// appendWindow appends the runs turning old[start:oldEnd] into
// new[start:newEnd]: Myers' edit script when its cost is within bounds
// (gotextdiff for a window of at most myersLimit lines, the linear-space
// search of linear.go for a wider one whose S·D is within maxLinearWork),
// otherwise one removal and one addition. A myersLimit of 0 diffs no
// window (the tests' way to reach the fallback).
func appendWindow(runs []run, old, new []byte, start, oldEnd, newEnd, myersLimit int) []run {
	oldLines, newLines := countLines(old[start:oldEnd]), countLines(new[start:newEnd])
	// With one side empty the replacement is already the minimal diff.
	size := oldLines + newLines
	if oldLines > 0 && newLines > 0 && myersLimit > 0 && size <= max(myersLimit, maxLinearLines) {
		a, b := lineStarts(old, start, oldEnd), lineStarts(new, start, newEnd)
		aIDs, bIDs := lineIDs(old, a, new, b)
		// D never exceeds size; the cap keeps editsWithin's frontier small.
		if size <= myersLimit && editsWithin(aIDs, bIDs, min(maxMyersTrace/(2*size+1)-1, size)) {
			if out, ok := appendMyers(runs, a, b, aIDs, bIDs); ok {
				return out
			}
		}
		// Too costly for gotextdiff's trace (or refused by the replay
		// check): the linear-space search, if D is small enough.
		if maxD := min(maxLinearWork/size, size); editsWithin(aIDs, bIDs, maxD) {
			if out, ok := appendLinear(runs, a, b, aIDs, bIDs, maxD); ok {
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
