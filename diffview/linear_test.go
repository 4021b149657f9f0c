package diffview

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLinearMinimal checks the linear-space search against the minimal
// number of lines removed plus added (from a longest common subsequence),
// and that its runs turn a into b, on random small sequences over a small
// alphabet, where ties and repeats abound.
func TestLinearMinimal(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for i := range 3000 {
		a, b := make([]int32, 1+r.Intn(30)), make([]int32, 1+r.Intn(30))
		for _, s := range [][]int32{a, b} {
			for i := range s {
				s[i] = int32(r.Intn(1 + i%4))
			}
		}
		d := len(a) + len(b) - 2*lcsLen(a, b)
		// One "line" per id, so that runs index straight into the ids.
		starts := func(n int) []int {
			s := make([]int, n+1)
			for i := range s {
				s[i] = i
			}
			return s
		}
		runs, ok := appendLinear(nil, starts(len(a)), starts(len(b)), a, b, d)
		if !ok {
			t.Fatalf("case %d: a %v b %v: the search failed within D = %d", i, a, b, d)
		}
		var gotA, gotB []int32
		changed := 0
		for _, r := range runs {
			switch r.sign {
			case ' ':
				gotA, gotB = append(gotA, a[r.start:r.end]...), append(gotB, a[r.start:r.end]...)
			case '-':
				gotA, changed = append(gotA, a[r.start:r.end]...), changed+r.lines
			case '+':
				gotB, changed = append(gotB, b[r.start:r.end]...), changed+r.lines
			}
		}
		if fmt.Sprint(gotA) != fmt.Sprint(a) || fmt.Sprint(gotB) != fmt.Sprint(b) || changed != d {
			t.Fatalf("case %d: a %v b %v: runs %v give %v -> %v with %d changed lines, want D = %d", i, a, b, runs, gotA, gotB, changed, d)
		}
	}
}

// lcsLen is the length of a longest common subsequence of a and b.
func lcsLen(a, b []int32) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				cur[j] = prev[j+1] + 1
			} else {
				cur[j] = max(prev[j], cur[j+1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[0]
}

// TestAttackDistantChangesStayMinimal: two one-line changes 29,997 lines
// apart in a 30,000-line file, and a change every 3,000 lines, show as
// git diff shows them (the same hunks, line for line), not as the whole
// window removed and added.
func TestAttackDistantChangesStayMinimal(t *testing.T) {
	file := numbered("line", 1, 30000)
	for _, lines := range [][]int{{2, 29999}, {1, 3000, 6000, 9000, 12000, 15000, 18000, 21000, 24000, 27000, 30000}} {
		changed := file
		for _, n := range lines {
			changed = withLine(changed, n, fmt.Sprintf("changed %d\n", n))
		}
		old, new := []byte(file), []byte(changed)
		patch := Unified("f.txt", "f.txt", old, new, 3)
		checkPatch(t, old, new, patch, 3, true)
		if got, want := hunksOf(patch), hunksOf(gitDiff(t, old, new)); got != want {
			t.Errorf("%d changed lines: hunks\n%s\nwant, as git diff:\n%s", len(lines), got, want)
		}
		if added, removed := Stat(old, new); added != len(lines) || removed != len(lines) {
			t.Errorf("%d changed lines: Stat = +%d -%d", len(lines), added, removed)
		}
	}
}

// hunksOf is the diff from its first hunk on, without git's function
// names after the hunk headers.
func hunksOf(diff string) string {
	if i := strings.Index(diff, "\n@@ "); i >= 0 {
		diff = diff[i+1:]
	}
	return regexp.MustCompile(`(?m)^(@@ [^@]* @@).*$`).ReplaceAllString(diff, "$1")
}

// gitDiff is `git diff --no-index` of old and new.
func gitDiff(t *testing.T, old, new []byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, b := range map[string][]byte{"a": old, "b": new} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("git", "-c", "diff.algorithm=myers", "diff", "--no-index", "--no-color", "a", "b")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.Output()
	if e, ok := err.(*exec.ExitError); err != nil && (!ok || e.ExitCode() != 1) {
		t.Fatalf("git diff --no-index: %v", err)
	}
	return string(out)
}
