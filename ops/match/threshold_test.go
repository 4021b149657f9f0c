package match

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestSimilarThresholdIsTheBoundary changes c characters in the middle
// lines of a 10-line block and checks that Similar matches exactly when
// 1 - c/length reaches SimilarityThreshold: below it nothing matches,
// whatever the anchors.
func TestSimilarThresholdIsTheBoundary(t *testing.T) {
	var lines []string
	lines = append(lines, "func handlers(w http.ResponseWriter, r *http.Request) {")
	for i := range 8 {
		lines = append(lines, fmt.Sprintf("\tvalue%d := compute(r, %d)", i, i))
	}
	lines = append(lines, "}")
	content := "package p\n\n" + strings.Join(lines, "\n") + "\n"
	total := 0
	for _, l := range lines {
		total += utf8.RuneCountInString(strings.TrimSpace(l)) + 1
	}
	if total%10 != 0 {
		t.Fatalf("the block is %d characters long; the test wants a multiple of 10 so that one count of changes lands exactly on the threshold", total)
	}
	for c := 1; c <= 40; c++ {
		needle := make([]string, len(lines))
		copy(needle, lines)
		// change c characters: one 'x' for a letter of "compute" per change,
		// spread over the middle lines.
		left := c
		for i := 1; i < len(lines)-1 && left > 0; i++ {
			k := min(left, len("compute"))
			needle[i] = strings.Replace(needle[i], "compute"[:k], strings.Repeat("x", k), 1)
			left -= k
		}
		if left > 0 {
			break
		}
		want := 1-float64(c)/float64(total) >= SimilarityThreshold
		m, err := Find([]byte(content), strings.Join(needle, "\n")+"\n", All)
		switch {
		case want && err != nil:
			t.Errorf("%d changes (%.3f): %v, want a Similar match", c, 1-float64(c)/float64(total), err)
		case want && (m.Stage != Similar || m.Count != 1 || m.Places[0].Line != 3):
			t.Errorf("%d changes: stage %v, %d places", c, m.Stage, m.Count)
		case !want && !errors.Is(err, ErrNotFound):
			t.Errorf("%d changes (%.3f): matched %+v, want nothing below the threshold", c, 1-float64(c)/float64(total), m)
		}
	}
}
