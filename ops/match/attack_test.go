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
