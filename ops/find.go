package ops

import "bytes"

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
