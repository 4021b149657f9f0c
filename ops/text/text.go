package text

import (
	"bytes"
	"sort"
	"strings"
)

// BOM is the UTF-8 byte order mark. It is never part of line 1's text for
// line-based operations: "before line 1" means after the BOM.
const BOM = "\xef\xbb\xbf"

// Line endings returned by DetectEOL and accepted by ToEOL.
const (
	LF   = "\n"
	CRLF = "\r\n"
)

// HasBOM reports whether b starts with the UTF-8 BOM.
func HasBOM(b []byte) bool {
	return len(b) >= len(BOM) && string(b[:len(BOM)]) == BOM
}

// BOMLen returns the length of b's leading BOM: len(BOM) when HasBOM(b), else 0.
// b[BOMLen(b):] is the text that the line model sees.
func BOMLen(b []byte) int {
	if HasBOM(b) {
		return len(BOM)
	}
	return 0
}

// LineCount returns the number of lines in b, the BOM ignored. A line is text
// up to and including "\n"; a last line without "\n" still counts. So "a\nb\n"
// and "a\nb" have 2 lines, "" and a BOM-only file have 0, "\n" has 1.
func LineCount(b []byte) int {
	body := b[BOMLen(b):]
	if len(body) == 0 {
		return 0
	}
	n := bytes.Count(body, []byte(LF))
	if body[len(body)-1] != '\n' {
		n++
	}
	return n
}

// EndsWithNewline reports whether b's last line is terminated, i.e. whether b
// (BOM ignored) is non-empty and ends with "\n". It is false for an empty or
// BOM-only file.
func EndsWithNewline(b []byte) bool {
	return len(b) > BOMLen(b) && b[len(b)-1] == '\n'
}

// DetectEOL returns the line ending that text inserted into b should use:
// CRLF when b has more "\r\n" than lone "\n" line endings, LF when it has
// fewer; on a tie the first line ending in b decides; a file without line
// endings gets LF. It is a single pass of bytes.Count, fast on large files.
func DetectEOL(b []byte) string {
	all := bytes.Count(b, []byte(LF))
	if all == 0 {
		return LF
	}
	crlf := bytes.Count(b, []byte(CRLF))
	lone := all - crlf
	switch {
	case crlf > lone:
		return CRLF
	case lone > crlf:
		return LF
	}
	if i := bytes.IndexByte(b, '\n'); i > 0 && b[i-1] == '\r' {
		return CRLF
	}
	return LF
}

// ToEOL returns s with every lone "\n" (one not preceded by "\r") replaced by
// eol. Existing "\r\n" are left alone. When eol is "\n" (or empty) s is
// returned unchanged: CRLF that the agent wrote is never rewritten. When
// nothing needs converting s itself is returned, without allocating.
func ToEOL(s, eol string) string {
	if eol == LF || eol == "" {
		return s
	}
	lone := strings.Count(s, LF) - strings.Count(s, CRLF)
	if lone == 0 {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s) + lone*(len(eol)-1))
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' && (i == 0 || s[i-1] != '\r') {
			sb.WriteString(s[last:i])
			sb.WriteString(eol)
			last = i + 1
		}
	}
	sb.WriteString(s[last:])
	return sb.String()
}

// TrimEOL returns s without one trailing line ending ("\r\n" or "\n"), and
// whether there was one.
func TrimEOL(s string) (string, bool) {
	if strings.HasSuffix(s, CRLF) {
		return s[:len(s)-2], true
	}
	if strings.HasSuffix(s, LF) {
		return s[:len(s)-1], true
	}
	return s, false
}

// LineStart returns the byte offset where line n (1-based) of b starts,
// scanning b without building an index. n may be LineCount(b)+1, the position
// just past the last line (the end of b). ok is false for any other n outside
// [1, LineCount(b)]. Use a LineIndex for many lookups on the same content.
func LineStart(b []byte, n int) (off int, ok bool) {
	count := LineCount(b)
	switch {
	case n < 1 || n > count+1:
		return 0, false
	case n == count+1:
		return len(b), true
	}
	off = BOMLen(b)
	for line := 1; line < n; line++ {
		off += bytes.IndexByte(b[off:], '\n') + 1 // present: line < n <= count
	}
	return off, true
}

// LineIndex maps between 1-based line numbers and byte offsets of one
// content, following the line model of LineCount (the BOM belongs to no line;
// line 1 starts after it). Build it with NewLineIndex; it keeps no reference
// to the content.
type LineIndex struct {
	starts   []int // starts[i] is the byte offset where line i+1 starts
	size     int   // len(content)
	bom      int   // BOMLen(content)
	newlined bool  // the content is empty (BOM ignored) or ends with "\n"
}

// NewLineIndex indexes the line starts of b. It costs one pass over b and
// one int per line.
func NewLineIndex(b []byte) *LineIndex {
	bom := BOMLen(b)
	x := &LineIndex{size: len(b), bom: bom, newlined: len(b) == bom || b[len(b)-1] == '\n'}
	x.starts = make([]int, 0, LineCount(b))
	for off := bom; off < len(b); {
		x.starts = append(x.starts, off)
		i := bytes.IndexByte(b[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
	}
	return x
}

// Count returns the number of lines, as LineCount.
func (x *LineIndex) Count() int { return len(x.starts) }

// Start returns the byte offset where line n (1-based) starts. n may be
// Count()+1, the position just past the last line, whose start is the end of
// the content (after the BOM for an empty file). ok is false for any other n
// outside [1, Count()].
func (x *LineIndex) Start(n int) (off int, ok bool) {
	switch {
	case n >= 1 && n <= len(x.starts):
		return x.starts[n-1], true
	case n == len(x.starts)+1:
		return x.size, true
	}
	return 0, false
}

// Bounds returns line n's byte range: start, textEnd (before its "\n" or
// "\r\n") and end (after its line ending; equal to textEnd for a last line
// without one). ok is false when n is outside [1, Count()].
func (x *LineIndex) Bounds(n int, b []byte) (start, textEnd, end int, ok bool) {
	if n < 1 || n > len(x.starts) || len(b) != x.size {
		return 0, 0, 0, false
	}
	start = x.starts[n-1]
	end = x.size
	if n < len(x.starts) {
		end = x.starts[n]
	}
	textEnd = end
	if textEnd > start && b[textEnd-1] == '\n' {
		textEnd--
		if textEnd > start && b[textEnd-1] == '\r' {
			textEnd--
		}
	}
	return start, textEnd, end, true
}

// LineAt returns the 1-based line number containing byte offset off. Offsets
// inside the BOM belong to line 1. The end of the content belongs to the last
// line when that line lacks "\n", else to line Count()+1 (where appended text
// would go). off is clamped to [0, len(content)].
func (x *LineIndex) LineAt(off int) int {
	if off < 0 {
		off = 0
	}
	if off >= x.size {
		if x.newlined {
			return len(x.starts) + 1
		}
		return len(x.starts)
	}
	n := sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off })
	if n == 0 {
		return 1
	}
	return n
}

// binaryProbe is how much of a file IsBinary looks at, as git does.
const binaryProbe = 8000

// IsBinary reports whether b looks like binary data by git's own test: a
// NUL byte in its first 8000 bytes. Text tools refuse such files rather
// than match, number lines or rewrite line endings inside them.
func IsBinary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), binaryProbe)], 0) >= 0
}
