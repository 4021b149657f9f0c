package text

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/git-edit/git-edit/ops/jsonargs"
)

// Occurrences returns the byte offsets, in increasing order, of every
// occurrence of needle in hay, overlapping occurrences included: "aa" occurs
// at 0 and 1 in "aaa". Overlaps count because a uniqueness check must treat
// an overlapping second occurrence as ambiguous too. An empty needle has no
// occurrences (nil).
//
// It runs bytes.Index in a loop; after a match it uses the needle's period so
// that highly repetitive needles stay linear in len(hay) instead of
// re-comparing the whole needle at every shift.
func Occurrences(hay []byte, needle string) []int {
	m := len(needle)
	if m == 0 || m > len(hay) {
		return nil
	}
	nb := []byte(needle)
	var offs []int
	p := 0 // the needle's smallest period, computed at the first match
	for from := 0; from+m <= len(hay); {
		i := bytes.Index(hay[from:], nb)
		if i < 0 {
			break
		}
		i += from
		offs = append(offs, i)
		if p == 0 {
			p = period(nb)
		}
		// While the needle repeats with period p, the next occurrence is at
		// i+p iff the p bytes after this one continue the pattern.
		for p < m && i+p+m <= len(hay) && bytes.Equal(hay[i+m:i+m+p], nb[m-p:]) {
			i += p
			offs = append(offs, i)
		}
		// No occurrence can start strictly between i and i+p (p is the
		// smallest period), and i+p itself was just ruled out when p < m.
		from = i + p
		if p < m {
			from++
		}
	}
	return offs
}

// period returns the smallest p > 0 such that s[i] == s[i+p] for every valid
// i (len(s) when s does not repeat), via the KMP failure function.
func period(s []byte) int {
	fail := make([]int, len(s))
	k := 0
	for i := 1; i < len(s); i++ {
		for k > 0 && s[i] != s[k] {
			k = fail[k-1]
		}
		if s[i] == s[k] {
			k++
		}
		fail[i] = k
	}
	return len(s) - fail[len(s)-1]
}

// OccurrenceLines returns the 1-based line number of each offset in offs
// (which must be in increasing order, as Occurrences returns them; offsets
// out of order or out of range are clamped, never a panic). It counts "\n"
// between consecutive offsets, so it costs one pass over b up to the last
// offset and no index.
func OccurrenceLines(b []byte, offs []int) []int {
	lines := make([]int, len(offs))
	line, pos := 1, 0
	for k, off := range offs {
		off = min(max(off, 0), len(b))
		if off > pos {
			line += bytes.Count(b[pos:off], []byte(LF))
			pos = off
		}
		lines[k] = line
	}
	return lines
}

// maxDescribedLines caps the line numbers DescribeLines lists.
const maxDescribedLines = 20

// DescribeLines words 1-based line numbers for a message: "line 4",
// "lines 4, 9 and 17", "lines 3 (2 times) and 8" (equal neighbours are
// grouped, as overlapping occurrences on one line are), listing at most 20
// distinct lines and then "and N more lines".
func DescribeLines(lines []int) string {
	type group struct{ line, n int }
	var groups []group
	for _, l := range lines {
		if len(groups) > 0 && groups[len(groups)-1].line == l {
			groups[len(groups)-1].n++
			continue
		}
		groups = append(groups, group{l, 1})
	}
	var parts []string
	for i, g := range groups {
		if i == maxDescribedLines {
			parts = append(parts, jsonargs.Thousands(len(groups)-maxDescribedLines)+" more lines")
			break
		}
		s := strconv.Itoa(g.line)
		if g.n > 1 {
			s += fmt.Sprintf(" (%d times)", g.n)
		}
		parts = append(parts, s)
	}
	if len(groups) == 1 {
		return "line " + parts[0]
	}
	return "lines " + jsonargs.AndList(parts)
}

// Overlapping reports whether any two of the occurrences at offs (sorted,
// each n bytes long) overlap: a count that would surprise a reader unless
// the message says so.
func Overlapping(offs []int, n int) bool {
	for i := 1; i < len(offs); i++ {
		if offs[i] < offs[i-1]+n {
			return true
		}
	}
	return false
}
