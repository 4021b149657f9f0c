package applypatch

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestAttackHugeHunkIsLocatedInLinearTime: locating a hunk of m lines in a
// file of n lines must not cost n×m line comparisons, or one large patch
// holds the repository's edit lock for hours. The file is n lines "a"; the
// hunk is m context lines "a" and then a line that is (or is not) there:
// a naive search compares m lines at each of n places, on every rung of
// the tolerance ladder (here about 2·10^10 comparisons: minutes); a linear
// one finishes in milliseconds. The limit leaves room for a slow machine.
func TestAttackHugeHunkIsLocatedInLinearTime(t *testing.T) {
	const n, m = 200_000, 100_000
	for _, tc := range []struct {
		name string
		last string // the file's last line
	}{
		{"found at the end", "b"},
		{"not found", "z"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			content := []byte(strings.Repeat("a\n", n) + tc.last + "\n")
			var sb strings.Builder
			sb.WriteString("*** Begin Patch\n*** Update File: f\n@@\n")
			sb.WriteString(strings.Repeat(" a\n", m))
			sb.WriteString("-b\n+c\n*** End Patch\n")
			p, err := Parse(sb.String())
			if err != nil {
				t.Fatal(err)
			}
			type result struct {
				changes []Change
				err     error
			}
			done := make(chan result, 1)
			go func() {
				changes, _, err := Plan(p, map[string]File{"f": {Content: content, Exists: true}})
				done <- result{changes, err}
			}()
			var r result
			select {
			case r = <-done:
			case <-time.After(20 * time.Second):
				t.Fatalf("locating a %d-line hunk in a %d-line file took over 20s", m, n)
			}
			if tc.last == "z" {
				if !errors.Is(r.err, ErrNoMatch) {
					t.Fatalf("err = %v, want ErrNoMatch", r.err)
				}
				return
			}
			want := strings.Repeat("a\n", n) + "c\n"
			if r.err != nil || len(r.changes) != 1 || string(r.changes[0].Content) != want {
				t.Fatalf("err = %v, %d changes", r.err, len(r.changes))
			}
		})
	}
}

// indexInts agrees with a search that tries every place, over every
// pattern and text of up to 8 numbers from a 3-letter alphabet drawn at
// random (small alphabets make the borders KMP relies on common).
func TestIndexIntsAgreesWithNaiveSearch(t *testing.T) {
	naive := func(s, p []int) int {
	next:
		for i := 0; i+len(p) <= len(s); i++ {
			for j := range p {
				if s[i+j] != p[j] {
					continue next
				}
			}
			return i
		}
		return -1
	}
	rng := rand.New(rand.NewPCG(1, 2))
	draw := func(max int) []int {
		out := make([]int, rng.IntN(max+1))
		for i := range out {
			out[i] = rng.IntN(3)
		}
		return out
	}
	for range 100_000 {
		s, p := draw(8), draw(8)
		if len(p) == 0 {
			continue
		}
		if got, want := indexInts(s, p), naive(s, p); got != want {
			t.Fatalf("indexInts(%v, %v) = %d, want %d", s, p, got, want)
		}
	}
}

// TestAttackManyHunksStayLinear: the searches git-edit adds to Codex's (a
// hunk's further places, for the result; hunks out of file order) share a
// budget of passes over the file, so a patch of many hunks in a large file
// is planned in time linear in the file, not hunks × lines: in order, each
// hunk changes its line and the result says which hunks were not checked
// for further places; in reverse order, the patch is refused as Codex
// refuses it, with nothing changed.
func TestAttackManyHunksStayLinear(t *testing.T) {
	n, h := 200_000, 20_000
	if testing.Short() {
		n, h = 50_000, 5_000
	}
	var file strings.Builder
	for i := range n {
		fmt.Fprintf(&file, "l%d\n", i)
	}
	content := []byte(file.String())
	step := n / h
	patch := func(reverse bool) string {
		var sb strings.Builder
		sb.WriteString("*** Begin Patch\n*** Update File: f\n")
		for k := range h {
			i := k * step
			if reverse {
				i = (h - 1 - k) * step
			}
			fmt.Fprintf(&sb, "@@\n-l%d\n+L%d\n", i, i)
		}
		sb.WriteString("*** End Patch\n")
		return sb.String()
	}
	for _, reverse := range []bool{false, true} {
		p, err := Parse(patch(reverse))
		if err != nil {
			t.Fatal(err)
		}
		type result struct {
			changes []Change
			sum     Summary
			err     error
		}
		done := make(chan result, 1)
		go func() {
			changes, sum, err := Plan(p, map[string]File{"f": {Content: content, Exists: true}})
			done <- result{changes, sum, err}
		}()
		var r result
		select {
		case r = <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("planning %d hunks (reversed: %v) in a %d-line file took over 20s", h, reverse, n)
		}
		if reverse {
			var f *Failure
			if !errors.As(r.err, &f) || !errors.Is(r.err, ErrNoMatch) || r.changes != nil {
				t.Fatalf("reversed hunks past the budget: err = %v, want ErrNoMatch", r.err)
			}
			continue
		}
		if r.err != nil || len(r.changes) != 1 {
			t.Fatalf("err = %v, %d changes", r.err, len(r.changes))
		}
		got := string(r.changes[0].Content)
		if strings.Count(got, "\nL") != h-1 || !strings.HasPrefix(got, "L0\n") {
			t.Fatalf("%d lines changed, want %d", strings.Count(got, "\nL")+1, h)
		}
		if n := len(r.sum.Forgiven); n == 0 || !strings.Contains(r.sum.Forgiven[n-1].Text, "not checked for further places") {
			t.Fatalf("the result does not say which hunks were not checked: %q", r.sum.Forgiven)
		}
	}
}
