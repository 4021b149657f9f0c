package match

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestAttackSimilarNeverSpansUnrelatedBlocks builds files of functions
// with random bodies (short ones next to long ones, so a window may reach
// a neighbour's closing brace) and checks, for many seeds: a function's
// text with one typo matches exactly that function's lines, never a
// window running into the next one; a needle with a function's first
// and last lines but a body from nowhere in the file matches nothing.
func TestAttackSimilarNeverSpansUnrelatedBlocks(t *testing.T) {
	rounds := 300
	if testing.Short() {
		rounds = 40
	}
	words := []string{"alpha", "beta", "gamma", "delta", "x", "y", "count", "total", "err", "nil", "return", "if", "for", ":=", "+", "(", ")"}
	line := func(r *rand.Rand) string {
		n := 2 + r.IntN(6)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = words[r.IntN(len(words))]
		}
		return "\t" + strings.Join(parts, " ")
	}
	matched, tried := 0, 0
	for seed := range rounds {
		r := rand.New(rand.NewPCG(uint64(seed), 25))
		type fn struct{ first, last int }
		var lines []string
		var fns []fn
		for i := range 2 + r.IntN(6) {
			first := len(lines) + 1
			lines = append(lines, fmt.Sprintf("func f%d() {", i))
			for range 1 + r.IntN(30) {
				lines = append(lines, line(r))
			}
			lines = append(lines, "}")
			fns = append(fns, fn{first, len(lines)})
		}
		content := strings.Join(lines, "\n") + "\n"
		j := r.IntN(len(fns))
		body := append([]string(nil), lines[fns[j].first-1:fns[j].last]...)

		// One typo in a middle line (or none to change in a 3-line block).
		if len(body) >= 3 {
			k := 1 + r.IntN(len(body)-2)
			body[k] = body[k] + "z"
		}
		m, err := Find([]byte(content), strings.Join(body, "\n")+"\n", All)
		if len(body) >= 3 {
			tried++
			if err != nil {
				// Below the threshold (a very short block): fine, but never a wrong place.
				if !errors.Is(err, ErrNotFound) {
					t.Fatalf("seed %d: %v", seed, err)
				}
			} else if m.Count != 1 || m.Places[0].Line != fns[j].first || m.Places[0].EndLine != fns[j].last {
				t.Fatalf("seed %d: function at lines %d-%d matched as %+v (stage %v)", seed, fns[j].first, fns[j].last, m.Places, m.Stage)
			} else {
				matched++
			}
		}

		// Anchors of function j, a body from nowhere.
		fake := []string{lines[fns[j].first-1]}
		for range fns[j].last - fns[j].first - 1 {
			fake = append(fake, "\tunrelated_"+line(r)[1:]+"_"+fmt.Sprint(r.IntN(1000)))
		}
		fake = append(fake, "}")
		if m, err := Find([]byte(content), strings.Join(fake, "\n")+"\n", All); !errors.Is(err, ErrNotFound) {
			t.Fatalf("seed %d: a body from nowhere matched %+v (%v)", seed, m, err)
		}
	}
	// Most one-typo functions are long enough to pass the threshold: the
	// test would prove nothing if Similar never matched.
	if matched*2 < tried {
		t.Fatalf("only %d of %d one-typo functions matched", matched, tried)
	}
	t.Logf("%d of %d one-typo functions matched at their own lines", matched, tried)
}
