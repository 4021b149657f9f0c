package diffview

import (
	"math/rand"
	"testing"
)

// TestMyersAccepted checks that gotextdiff's edit scripts pass the replay
// in appendMyers. The replay falls back silently when they do not, so
// without this test a bug there (or in gotextdiff) would only show as
// needlessly large diffs.
func TestMyersAccepted(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := range 1000 {
		old := randomText(r)
		new := randomEdit(r, old)
		a, b := lineStarts(old, 0, len(old)), lineStarts(new, 0, len(new))
		aIDs, bIDs := lineIDs(old, a, new, b)
		if _, ok := appendMyers(nil, a, b, aIDs, bIDs); !ok {
			t.Fatalf("case %d: gotextdiff script rejected for old %q new %q", i, old, new)
		}
	}
}
