package diffview

import "bytes"

// A run is a stretch of whole lines of one kind: ' ' (equal) and '-'
// (removed) runs are byte ranges of old, '+' (added) runs of new. Only the
// last line of a file may lack its "\n". Every step from the two files to
// the hunks passes runs: the window split and the diff produce them, the
// hunks group them, the writer copies their bytes.
type run struct {
	sign       byte
	start, end int
	lines      int
}

// text returns the bytes of r, from old or new according to its sign.
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

var nl = []byte{'\n'}

// countLines returns the number of lines of text, counting a last line
// that lacks its "\n".
//
// It is not text.LineCount, which skips a leading byte order mark: here
// text is any stretch of whole lines, and its bytes are all content, as
// they are to git, so a text holding only a BOM is one line (git diff
// --numstat counts it so), where text.LineCount counts none.
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
