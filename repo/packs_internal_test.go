package repo

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestGeometricSplitKeepsPacksFewAndCopiesLittle plays 2,000 operations of
// 5 objects each through the roll-up's choice (geometricSplit behind
// rollThreshold) for several caps: after each operation the packs stay
// within the cap, and, from git's default gc.autoPackLimit up, the
// objects copied per operation stay logarithmic (the cost of an edit does
// not grow with the session).
func TestGeometricSplitKeepsPacksFewAndCopiesLittle(t *testing.T) {
	for _, limit := range []int64{0, 5, 10, 20, 50, 100} {
		cap := OwnPackCap(limit)
		var packs []int
		copied, most := 0, 0
		for range 2000 {
			packs = append(packs, 5)
			slices.Sort(packs)
			if len(packs) > rollThreshold(cap) {
				if s := geometricSplit(packs, cap); s >= 2 {
					total := 0
					for _, w := range packs[:s] {
						total += w
					}
					copied += total
					packs = append([]int{total}, packs[s:]...)
					slices.Sort(packs)
				}
			}
			most = max(most, len(packs))
		}
		bound := cap // the promise
		if cap == 0 {
			bound = 14 // no cap: the progression's own, log2 of 10,000 objects
		}
		perOp := float64(copied) / 2000
		t.Logf("gc.autoPackLimit %d: cap %d, at most %d packs, %.1f objects copied per operation", limit, cap, most, perOp)
		if most > bound {
			t.Errorf("gc.autoPackLimit %d: %d packs after an operation, want at most %d", limit, most, bound)
		}
		// log2(10,000 objects) ≈ 13 copies of each 5-object operation.
		// (A cap below 10, gc.autoPackLimit below 50, costs more copies:
		// with 1 or 2 packs, nearly all of git-edit's objects each time.)
		if (cap == 0 || cap >= 10) && perOp > 5*14 {
			t.Errorf("gc.autoPackLimit %d: %.1f objects copied per operation, more than logarithmic", limit, perOp)
		}
	}
}

// A crash while a name was appended leaves a torn last line in git-edit's
// pack list; the next name must still be read whole (before, it was
// appended to the fragment, and that pack was never rolled up).
func TestPackListSurvivesATornLine(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	a := "pack-" + strings.Repeat("a", 40)
	b := "pack-" + strings.Repeat("b", 40)
	if err := r.notePack(a); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(r.packListPath(), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("pack-cccc") // torn: no newline
	f.Close()
	if err := r.notePack(b); err != nil {
		t.Fatal(err)
	}
	if got, err := r.ownPackNames(); err != nil || !slices.Equal(got, []string{a, b}) {
		t.Fatalf("pack list after a torn line: %v %v, want %v", got, err, []string{a, b})
	}
}
