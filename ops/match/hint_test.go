package match_test

import (
	"testing"

	"github.com/git-edit/git-edit/ops/match"
)

// TestPickByHint pins the one line-hint rule (Roo Code's apply_diff
// `:start_line:`, a `line`/`start_line` argument): containment first, then
// the nearest within match.HintWindow, never a tie.
func TestPickByHint(t *testing.T) {
	for _, c := range []struct {
		name  string
		spans [][2]int
		hint  int
		want  int
		miss  match.HintMiss
	}{
		{"Roo start_line on the first line of the second place", [][2]int{{1, 2}, {10, 11}}, 10, 1, match.HintPicked},
		{"inside a place's lines", [][2]int{{1, 3}, {10, 14}}, 12, 1, match.HintPicked},
		{"a few lines off after an earlier edit", [][2]int{{3, 3}, {40, 40}}, 6, 0, match.HintPicked},
		{"nearest by the last line", [][2]int{{1, 5}, {20, 20}}, 9, 0, match.HintPicked},
		{"two places on the hinted line (overlapping)", [][2]int{{4, 5}, {5, 6}}, 5, -1, match.HintTie},
		{"equally near two places", [][2]int{{2, 2}, {8, 8}}, 5, -1, match.HintTie},
		{"every place beyond the window", [][2]int{{1, 1}, {100, 100}}, 1 + match.HintWindow + 1 + 30, -1, match.HintTooFar},
		{"exactly at the window", [][2]int{{1, 1}, {100, 100}}, 1 + match.HintWindow, 0, match.HintPicked},
		{"no place", nil, 3, -1, match.HintTooFar},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, miss := match.PickByHint(len(c.spans), func(i int) (int, int) { return c.spans[i][0], c.spans[i][1] }, c.hint)
			if got != c.want || miss != c.miss {
				t.Fatalf("PickByHint(%v, %d) = %d, %v; want %d, %v", c.spans, c.hint, got, miss, c.want, c.miss)
			}
		})
	}
}
