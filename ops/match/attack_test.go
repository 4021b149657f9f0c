package match

import (
	"errors"
	"strings"
	"testing"
)

// TestAttackSimilarOnRepeatedAnchorsIsBounded: a needle whose anchors
// are on every line of a 20,000-line file makes every place a Similar
// candidate. Without a bound that is billions of comparisons (Find under
// the edit lock for hours); with maxSimilarWork Similar gives up and
// matches nothing rather than report a partial list of places.
func TestAttackSimilarOnRepeatedAnchorsIsBounded(t *testing.T) {
	lines := 20000
	if testing.Short() {
		lines = 5000
	}
	content := strings.Repeat("a\n", lines)
	needle := "a\n" + strings.Repeat("b\n", 300) + "a\n"
	m, err := Find([]byte(content), needle, All)
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("Find: %v %+v, want not found", err, m)
	}
	// The same bound leaves a real similar block alone.
	block := "func f() {\n" + strings.Repeat("\tx := 1\n", 20) + "}\n"
	typo := strings.Replace(block, "\tx := 1\n", "\tx := 2\n", 1)
	m, err = Find([]byte(content+block), typo, All)
	if err != nil || m.Stage != Similar || m.Count != 1 || m.Places[0].Line != lines+1 {
		t.Fatalf("Find: %v %+v, want one Similar place at line %d", err, m, lines+1)
	}
}

// TestAttackManyOverlappingLinePlacesStayLinear: a 2,000-line needle of
// one repeated line (with a trailing space the file lacks) in a file of
// 10,000 such lines has 8,001 overlapping places at TrailingSpace; the
// earlier stage's check of each would be 16 million line comparisons, so
// the file is keyed again instead. All places are reported.
func TestAttackManyOverlappingLinePlacesStayLinear(t *testing.T) {
	content := strings.Repeat("x = 1\n", 10000)
	needle := strings.Repeat("x = 1 \n", 2000)
	m, err := Find([]byte(content), needle, Of(TrailingSpace, Unicode, Indentation, InnerSpace))
	if err != nil || m.Stage != TrailingSpace || m.Count != 8001 || len(m.Places) != 8001 {
		t.Fatalf("Find: %v, want 8001 places at TrailingSpace", err)
	}
	if p := m.Places[8000]; p.Line != 8001 || p.EndLine != 10000 || p.End != len(content) {
		t.Fatalf("last place %+v", p)
	}
}
