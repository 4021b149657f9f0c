package match

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Occurrences yields exactly what a naive scan finds, overlapping
// occurrences included, over small alphabets where borders matter; and
// breaking stops it.
func TestOccurrences(t *testing.T) {
	naive := func(s, p []int) []int {
		var at []int
		for i := 0; i+len(p) <= len(s); i++ {
			if slices.Equal(s[i:i+len(p)], p) {
				at = append(at, i)
			}
		}
		return at
	}
	if got := slices.Collect(Occurrences([]int{1, 1, 1, 1}, []int{1, 1})); !slices.Equal(got, []int{0, 1, 2}) {
		t.Fatalf("overlapping: %v", got)
	}
	if got := slices.Collect(Occurrences([]int{1, 2}, []int{})); got != nil {
		t.Fatalf("empty pattern: %v", got)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		s, p := make([]int, r.IntN(40)), make([]int, 1+r.IntN(5))
		for i := range s {
			s[i] = r.IntN(3)
		}
		for i := range p {
			p[i] = r.IntN(3)
		}
		want := naive(s, p)
		if got := slices.Collect(Occurrences(s, p)); !slices.Equal(got, want) {
			t.Fatalf("Occurrences(%v, %v) = %v, want %v", s, p, got, want)
		}
		for i := range Occurrences(s, p) {
			if i != want[0] {
				t.Fatalf("first of %v in %v = %d, want %d", p, s, i, want[0])
			}
			break
		}
	}
}
