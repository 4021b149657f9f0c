package match

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/git-edit/git-edit/ops/text"
)

// The Similar stage, the last rung: a block of the file's lines that the
// needle's lines resemble, as Cline and Roo Code's "block anchor fallback"
// and aider's replace_closest_edit_distance find one, with these bounds:
//
//   - the needle has at least 3 lines, and its first and last lines are
//     non-blank and equal, under the earlier stages' normalization, to the
//     block's first and last lines (the anchors): a match never starts or
//     ends on a line the agent did not quote;
//   - the block has the needle's number of lines give or take
//     max(1, lines/10) (a skipped or an extra line in a short block);
//   - the similarity, 1 - edit distance / length, is at least
//     SimilarityThreshold, where the edit distance counts the characters
//     (under the same normalization) to insert, delete or change to turn
//     the needle's lines into the block's, a whole line inserted or
//     deleted costing its length plus one.
//
// Every block that passes is a place (the best length for each start), so
// two similar blocks make an ambiguous match the caller refuses.

// minSimilarLines is the fewest needle lines Similar considers: with two,
// the anchors are the whole needle and nothing is left to be similar.
const minSimilarLines = 3

// similarBlock is a block Similar accepted.
type similarBlock struct {
	first, last int   // the block's first and last file lines
	fileOf      []int // the file line each needle line pairs with, -1 for none
	score       float64
	words       string // what differs, for Forgave
}

// findSimilar is the Similar stage under n (the normalizations of every
// enabled line-based stage).
func findSimilar(f *fileView, nl needleLines, n norms) *Match {
	k := len(nl.lines)
	if k < minSimilarLines {
		return nil
	}
	keys := make([]string, k)
	for i, l := range nl.lines {
		keys[i] = n.key(l)
	}
	if strings.TrimSpace(keys[0]) == "" || strings.TrimSpace(keys[k-1]) == "" {
		return nil
	}
	ids, dict := f.interned(n)
	a0, ok0 := dict[keys[0]]
	a1, ok1 := dict[keys[k-1]]
	if !ok0 || !ok1 {
		return nil
	}
	want := make([]int, k)
	for i, key := range keys {
		if id, ok := dict[key]; ok {
			want[i] = id
		} else {
			want[i] = -1
		}
	}
	d := max(1, k/10)
	var blocks []similarBlock
	for p, id := range ids {
		if id != a0 {
			continue
		}
		var best *similarBlock
		for l := max(2, k-d); l <= k+d && p+l <= len(ids); l++ {
			if ids[p+l-1] != a1 {
				continue
			}
			if b, ok := scoreBlock(f, keys, want, ids, p, p+l-1, n); ok && (best == nil || b.score > best.score) {
				best = &b
			}
		}
		if best != nil {
			blocks = append(blocks, *best)
		}
	}
	if blocks == nil {
		return nil
	}
	m := &Match{Stage: Similar, Count: len(blocks)}
	for _, b := range blocks[:min(len(blocks), MaxPlaces)] {
		pl := newAlignedMatch(f, nl, n, b.fileOf, b.first, b.last, Similar, nil).place()
		pl.Score = b.score
		if pl.Forgave != "" {
			pl.Forgave = b.words + ", " + pl.Forgave
		} else {
			pl.Forgave = b.words
		}
		m.Places = append(m.Places, pl)
	}
	return m
}

// scoreBlock aligns the needle's lines (keys, their ids in want, -1 for a
// key the file lacks) with file lines first..last by edit distance, within
// a band around the diagonal, and accepts the block when its similarity
// reaches SimilarityThreshold.
func scoreBlock(f *fileView, keys []string, want, ids []int, first, last int, n norms) (similarBlock, bool) {
	k, l := len(keys), last-first+1
	fk := make([]string, l)
	wa, wb := make([]int, k), make([]int, l)
	sa, sb := 0, 0
	for i, key := range keys {
		wa[i] = utf8.RuneCountInString(key) + 1
		sa += wa[i]
	}
	for j := range l {
		fk[j] = n.key(f.lines[first+j])
		wb[j] = utf8.RuneCountInString(fk[j]) + 1
		sb += wb[j]
	}
	total := max(sa, sb)
	budget := int((1 - SimilarityThreshold) * float64(total))
	if abs(sa-sb) > budget {
		return similarBlock{}, false
	}
	// Band of offsets j-i from lo to hi: the alignment's net shift is l-k.
	s := l - k
	lo, hi := min(0, s)-1, max(0, s)+1
	w := hi - lo + 1
	const inf = 1 << 30
	dp := make([]int, (k+1)*w)
	at := func(i, j int) *int { return &dp[i*w+(j-i-lo)] }
	in := func(i, j int) bool { o := j - i; return j >= 0 && j <= l && o >= lo && o <= hi }
	sub := func(i, j int) int {
		if want[i] >= 0 && want[i] == ids[first+j] {
			return 0
		}
		return levenshtein(keys[i], fk[j])
	}
	for i := 0; i <= k; i++ {
		rowMin := inf
		for j := max(0, i+lo); j <= min(l, i+hi); j++ {
			c := inf
			switch {
			case i == 0 && j == 0:
				c = 0
			default:
				if i > 0 && j > 0 && in(i-1, j-1) {
					c = min(c, *at(i-1, j-1)+sub(i-1, j-1))
				}
				if i > 0 && in(i-1, j) {
					c = min(c, *at(i-1, j)+wa[i-1])
				}
				if j > 0 && in(i, j-1) {
					c = min(c, *at(i, j-1)+wb[j-1])
				}
			}
			*at(i, j) = c
			rowMin = min(rowMin, c)
		}
		if rowMin > budget {
			return similarBlock{}, false
		}
	}
	cost := *at(k, l)
	score := 1 - float64(cost)/float64(total)
	if cost > budget || score < SimilarityThreshold {
		return similarBlock{}, false
	}
	// Walk the alignment back to pair lines and say what differs.
	b := similarBlock{first: first, last: last, score: score, fileOf: make([]int, k)}
	var differ, extra []int
	missing := 0
	for i, j := k, l; i > 0 || j > 0; {
		c := *at(i, j)
		switch {
		case i > 0 && j > 0 && in(i-1, j-1) && c == *at(i-1, j-1)+sub(i-1, j-1):
			b.fileOf[i-1] = first + j - 1
			if want[i-1] < 0 || want[i-1] != ids[first+j-1] {
				differ = append(differ, first+j)
			}
			i, j = i-1, j-1
		case i > 0 && in(i-1, j) && c == *at(i-1, j)+wa[i-1]:
			b.fileOf[i-1] = -1
			missing++
			i--
		default:
			extra = append(extra, first+j)
			j--
		}
	}
	reverse(differ)
	reverse(extra)
	parts := []string{}
	if len(differ) == 1 {
		parts = append(parts, fmt.Sprintf("line %d differs", differ[0]))
	} else if len(differ) > 1 {
		parts = append(parts, text.DescribeLines(differ)+" differ")
	}
	if len(extra) > 0 {
		parts = append(parts, countWords(len(extra))+" of the file not in the text ("+text.DescribeLines(extra)+")")
	}
	if missing > 0 {
		parts = append(parts, countWords(missing)+" of the text not in the file")
	}
	b.words = fmt.Sprintf("similar (%d%%): %s", int(score*100), strings.Join(parts, ", "))
	return b, true
}

// countWords words a number of lines: "one line", "2 lines".
func countWords(n int) string {
	if n == 1 {
		return "one line"
	}
	return fmt.Sprintf("%d lines", n)
}

func reverse(s []int) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// levenshtein is the edit distance between a and b in runes.
func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) == 0 || len(rb) == 0 {
		return max(len(ra), len(rb))
	}
	prev, cur := make([]int, len(rb)+1), make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			c := prev[j-1]
			if ra[i-1] != rb[j-1] {
				c = 1 + min(prev[j-1], prev[j], cur[j-1])
			}
			cur[j] = c
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
