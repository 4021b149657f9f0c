package diffview

import "bytes"

// Two files are diffed as an equal prefix, a changed window and an equal
// suffix. The prefix and suffix are found with linear byte comparisons, so
// that the costly diff sees only the lines in between, however large the
// files around them.

// changeRuns splits old and new into runs of equal, removed and added
// lines, covering both files whole. myersLimit is appendWindow's.
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

// atLineStart reports whether offset i of buf starts a line.
func atLineStart(buf []byte, i int) bool {
	return i == 0 || buf[i-1] == '\n'
}
