package diffview

// A window too wide for gotextdiff (whose memory is (D+1)·(2·S+1) ints)
// but with few changes is diffed by Myers' linear-space refinement: the
// middle snake of the edit graph is found by searching from both ends at
// once, and the halves before and after it are diffed the same way. Time
// is O(S·D) and memory O(S + D), so two one-line changes far apart in a
// 30,000-line file cost a few hundred thousand steps and show as two
// hunks, where the quadratic path would have had to give up and show the
// whole window replaced.

// maxLinearWork bounds S·D for the linear-space path, which costs about
// three times that in steps (editsWithin's measure, then both searches):
// some 20 ms (BenchmarkLinearAtBudget). A window of 60,000 lines fits if
// D ≤ 279.
const maxLinearWork = 1 << 24

// maxLinearLines bounds S for the linear-space path: numbering the lines
// costs some 100 bytes a line.
const maxLinearLines = 200_000

// linearDiff computes the edit script of the lines of a window, numbered
// aIDs and bIDs (see lineIDs) and delimited by the offsets a and b (see
// lineStarts), as runs.
type linearDiff struct {
	aIDs, bIDs []int32
	a, b       []int
	vf, vb     []int // furthest reach on each diagonal, forward and backward
	off        int   // index of diagonal 0 in vf and vb
	runs       []run
}

// appendLinear appends the runs of a minimal diff of the window, whose D is
// at most maxD (measured by editsWithin). It reports false, leaving runs
// unchanged, if the search does not find what maxD promised; the caller
// then falls back to a replacement.
func appendLinear(runs []run, a, b []int, aIDs, bIDs []int32, maxD int) (out []run, ok bool) {
	defer func() {
		if recover() != nil {
			out, ok = runs, false
		}
	}()
	l := &linearDiff{aIDs: aIDs, bIDs: bIDs, a: a, b: b,
		vf: make([]int, 2*maxD+4), vb: make([]int, 2*maxD+4), off: maxD + 2}
	l.diff(0, len(aIDs), 0, len(bIDs))
	// Between two equal runs the search may add before it removes; git
	// writes a change's removed lines first. The removed runs of one
	// change are contiguous in old, the added ones in new, so each
	// change becomes one removal and one addition.
	var del, add []run
	for _, r := range l.runs {
		switch r.sign {
		case '-':
			del = appendRun(del, r)
		case '+':
			add = appendRun(add, r)
		default:
			runs = appendChange(runs, del, add)
			del, add = del[:0], add[:0]
			runs = appendRun(runs, r)
		}
	}
	return appendChange(runs, del, add), true
}

// appendChange appends the removals del, then the additions add.
func appendChange(runs, del, add []run) []run {
	for _, r := range del {
		runs = appendRun(runs, r)
	}
	for _, r := range add {
		runs = appendRun(runs, r)
	}
	return runs
}

func (l *linearDiff) equal(i, j, n int) {
	for k := range n {
		if l.aIDs[i+k] != l.bIDs[j+k] {
			panic("diffview: unequal lines paired")
		}
	}
	if n > 0 {
		l.runs = appendRun(l.runs, run{sign: ' ', start: l.a[i], end: l.a[i+n], lines: n})
	}
}

func (l *linearDiff) removed(i0, i1 int) {
	if i1 > i0 {
		l.runs = appendRun(l.runs, run{sign: '-', start: l.a[i0], end: l.a[i1], lines: i1 - i0})
	}
}

func (l *linearDiff) added(j0, j1 int) {
	if j1 > j0 {
		l.runs = appendRun(l.runs, run{sign: '+', start: l.b[j0], end: l.b[j1], lines: j1 - j0})
	}
}

// diff appends the runs turning lines a0..a1 into lines b0..b1.
func (l *linearDiff) diff(a0, a1, b0, b1 int) {
	p := 0
	for a0+p < a1 && b0+p < b1 && l.aIDs[a0+p] == l.bIDs[b0+p] {
		p++
	}
	l.equal(a0, b0, p)
	a0, b0 = a0+p, b0+p
	s := 0
	for a1-s > a0 && b1-s > b0 && l.aIDs[a1-s-1] == l.bIDs[b1-s-1] {
		s++
	}
	a1, b1 = a1-s, b1-s
	switch {
	case a0 == a1:
		l.added(b0, b1)
	case b0 == b1:
		l.removed(a0, a1)
	default:
		// Both sides non-empty with no common first or last line: D ≥ 2,
		// so each half of the split has a smaller D than the whole.
		x, y, u, v := l.middleSnake(a0, a1, b0, b1)
		l.diff(a0, x, b0, y)
		l.equal(x, y, u-x)
		l.diff(u, a1, v, b1)
	}
	l.equal(a1, b1, s)
}

// middleSnake returns the middle snake of a minimal path from (a0, b0) to
// (a1, b1): the equal lines x..u of a and y..v of b that a path with D
// edits crosses after ceil(D/2) of them (Myers 1986, section 4b).
func (l *linearDiff) middleSnake(a0, a1, b0, b1 int) (x, y, u, v int) {
	n, m := a1-a0, b1-b0
	delta := n - m
	odd := delta&1 != 0
	vf, vb, off := l.vf, l.vb, l.off
	vf[off+1], vb[off+1] = 0, 0
	for d := 0; d <= (n+m+1)/2; d++ {
		for k := -d; k <= d; k += 2 {
			var px int
			if k == -d || (k != d && vf[off+k-1] < vf[off+k+1]) {
				px = vf[off+k+1]
			} else {
				px = vf[off+k-1] + 1
			}
			py := px - k
			sx, sy := px, py
			for px < n && py < m && l.aIDs[a0+px] == l.bIDs[b0+py] {
				px, py = px+1, py+1
			}
			vf[off+k] = px
			// The backward search's diagonal for k is delta-k.
			if odd && k >= delta-(d-1) && k <= delta+(d-1) && px+vb[off+delta-k] >= n {
				return a0 + sx, b0 + sy, a0 + px, b0 + py
			}
		}
		for k := -d; k <= d; k += 2 {
			var px int
			if k == -d || (k != d && vb[off+k-1] < vb[off+k+1]) {
				px = vb[off+k+1]
			} else {
				px = vb[off+k-1] + 1
			}
			py := px - k
			sx, sy := px, py
			for px < n && py < m && l.aIDs[a1-1-px] == l.bIDs[b1-1-py] {
				px, py = px+1, py+1
			}
			vb[off+k] = px
			if !odd && delta-k >= -d && delta-k <= d && px+vf[off+delta-k] >= n {
				return a1 - px, b1 - py, a1 - sx, b1 - sy
			}
		}
	}
	panic("diffview: no middle snake")
}
