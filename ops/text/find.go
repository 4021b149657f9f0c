package text

import (
	"bytes"
	"fmt"
	"iter"
	"strconv"

	"github.com/git-edit/git-edit/ops/jsonargs"
)

// Occurrences returns the byte offsets, in increasing order, of every
// occurrence of needle in hay, overlapping occurrences included: "aa" occurs
// at 0 and 1 in "aaa". Overlaps count because a uniqueness check must treat
// an overlapping second occurrence as ambiguous too. An empty needle has no
// occurrences (nil). It is OccurrencesSeq collected.
func Occurrences(hay []byte, needle string) []int {
	var offs []int
	for off := range OccurrencesSeq(hay, needle) {
		offs = append(offs, off)
	}
	return offs
}

// OccurrencesSeq yields Occurrences' offsets one at a time, in increasing
// order, holding none of them: memory does not grow with their number
// (a one-byte needle occurs at every byte of a file of that byte).
//
// It runs bytes.Index in a loop; after a match it uses the needle's period so
// that highly repetitive needles stay linear in len(hay) instead of
// re-comparing the whole needle at every shift.
func OccurrencesSeq(hay []byte, needle string) iter.Seq[int] {
	return func(yield func(int) bool) {
		m := len(needle)
		if m == 0 || m > len(hay) {
			return
		}
		nb := []byte(needle)
		p := 0 // the needle's smallest period, computed at the first match
		for from := 0; from+m <= len(hay); {
			i := bytes.Index(hay[from:], nb)
			if i < 0 {
				return
			}
			i += from
			if !yield(i) {
				return
			}
			if p == 0 {
				p = period(nb)
			}
			// While the needle repeats with period p, the next occurrence is at
			// i+p iff the p bytes after this one continue the pattern.
			for p < m && i+p+m <= len(hay) && bytes.Equal(hay[i+m:i+m+p], nb[m-p:]) {
				i += p
				if !yield(i) {
					return
				}
			}
			// No occurrence can start strictly between i and i+p (p is the
			// smallest period), and i+p itself was just ruled out when p < m.
			from = i + p
			if p < m {
				from++
			}
		}
	}
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
	var d lineDescriber
	for _, l := range lines {
		d.add(l)
	}
	return d.String()
}

// lineDescriber collects line numbers, in increasing order, for
// DescribeLines, keeping only what the text shows: the first
// maxDescribedLines groups and the number of the others.
type lineDescriber struct {
	groups []struct{ line, n int }
	more   int // distinct lines after the kept groups
	last   int // the last line added, 0 before the first
}

func (d *lineDescriber) add(line int) {
	switch {
	case d.last == line && d.more == 0:
		d.groups[len(d.groups)-1].n++
	case d.last == line:
	case len(d.groups) < maxDescribedLines:
		d.groups = append(d.groups, struct{ line, n int }{line, 1})
	default:
		d.more++
	}
	d.last = line
}

func (d *lineDescriber) String() string {
	var parts []string
	for _, g := range d.groups {
		s := strconv.Itoa(g.line)
		if g.n > 1 {
			s += fmt.Sprintf(" (%d times)", g.n)
		}
		parts = append(parts, s)
	}
	if d.more > 0 {
		parts = append(parts, jsonargs.Thousands(d.more)+" more lines")
	}
	if len(parts) == 1 {
		return "line " + parts[0]
	}
	return "lines " + jsonargs.AndList(parts)
}

// DescribeOccurrences is what a refusal of several occurrences says of
// them, computed in one pass over offs (increasing offsets in b of
// occurrences n bytes long) without holding them: how many there are,
// whether two overlap (a count that would surprise a reader unless the
// message says so), and their lines as DescribeLines words them.
func DescribeOccurrences(b []byte, offs iter.Seq[int], n int) (count int, overlap bool, lines string) {
	var d lineDescriber
	line, pos, prevEnd := 1, 0, -1
	for off := range offs {
		off = min(max(off, 0), len(b))
		if off > pos {
			line += bytes.Count(b[pos:off], []byte(LF))
			pos = off
		}
		d.add(line)
		if count > 0 && off < prevEnd {
			overlap = true
		}
		count, prevEnd = count+1, off+n
	}
	return count, overlap, d.String()
}
