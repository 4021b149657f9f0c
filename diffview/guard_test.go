package diffview

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

// TestFullRewrite10k checks that a rewrite of every line of a 10,000-line
// file, far beyond what Myers may see, is one correct replacement hunk.
func TestFullRewrite10k(t *testing.T) {
	old, new := []byte(numbered("old", 1, 10000)), []byte(numbered("new", 1, 10000))
	patch := Unified("big.txt", "big.txt", old, new, 3)
	if !strings.Contains(patch, "\n@@ -1,10000 +1,10000 @@\n") || strings.Count(patch, "\n@@ ") != 1 {
		t.Errorf("want one hunk @@ -1,10000 +1,10000 @@, got headers %q", regexp.MustCompile(`(?m)^@@.*$`).FindAllString(patch, -1))
	}
	checkPatch(t, old, new, patch, 3, true)
	gitApply(t, []applyCase{{"rewrite", "big.txt", "big.txt", old, new, patch, false}})
}

// TestMyersBounds checks which windows are diffed (by gotextdiff or the
// linear-space search) and which are shown replaced, counting hunks with
// context 0: each separate change is its own hunk, a replacement is one.
func TestMyersBounds(t *testing.T) {
	file := numbered("line", 1, 12000)
	change := func(lines ...int) string {
		text := file
		for _, n := range lines {
			text = withLine(text, n, "changed\n")
		}
		return text
	}
	var everyOther600, everyOther1000, everyOther12000 []int
	for n := 2; n <= 12000; n += 2 {
		everyOther12000 = append(everyOther12000, n)
		if n > 1000 {
			continue
		}
		if n <= 600 {
			everyOther600 = append(everyOther600, n)
		}
		everyOther1000 = append(everyOther1000, n)
	}
	for _, c := range []struct {
		name      string
		new       string
		wantHunks int
	}{
		{"few edits across 9,001 lines: S=18,002, D=8", change(1000, 4000, 7000, 10000), 4},
		// Beyond gotextdiff's bounds, within the linear-space path's.
		{"edits 12,000 lines apart: S=24,000 > maxMyersLines, D=4", change(1, 12000), 2},
		{"every other line of 600: S=1,200, D=600 within budget", change(everyOther600...), 300},
		{"every other line of 1,000: S=2,000, D=1,000 beyond gotextdiff's budget, S·D within maxLinearWork", change(everyOther1000...), 500},
		// Beyond both: S·D = 24,000·12,000.
		{"every other line of 12,000: S=24,000, D=12,000 beyond every budget", change(everyOther12000...), 1},
	} {
		patch := Hunks([]byte(file), []byte(c.new), 0)
		checkPatch(t, []byte(file), []byte(c.new), patch, 0, false)
		if got := strings.Count(patch, "@@ -"); got != c.wantHunks {
			t.Errorf("%s: %d hunks, want %d", c.name, got, c.wantHunks)
		}
	}
}

// TestEditsWithin checks the step count of editsWithin against the minimal
// number of lines removed plus added, from a longest common subsequence.
func TestEditsWithin(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for range 2000 {
		a, b := make([]int32, r.Intn(25)), make([]int32, r.Intn(25))
		for _, s := range [][]int32{a, b} {
			for i := range s {
				s[i] = int32(r.Intn(3))
			}
		}
		// lcs[i][j]: longest common subsequence of a[i:] and b[j:].
		lcs := make([][]int, len(a)+1)
		for i := range lcs {
			lcs[i] = make([]int, len(b)+1)
		}
		for i := len(a) - 1; i >= 0; i-- {
			for j := len(b) - 1; j >= 0; j-- {
				if a[i] == b[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		d := len(a) + len(b) - 2*lcs[0][0]
		if !editsWithin(a, b, d) || editsWithin(a, b, d-1) {
			t.Fatalf("a %v b %v: minimal D is %d, editsWithin(D) = %v, editsWithin(D-1) = %v",
				a, b, d, editsWithin(a, b, d), editsWithin(a, b, d-1))
		}
	}
}
