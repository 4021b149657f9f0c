package match

// HintWindow is how many lines from a line hint the place it picks may be:
// agents' line numbers drift by a few lines as earlier edits of a call or
// a turn add or remove lines, but a hint further away names another part
// of the file, and the call is refused as ambiguous.
const HintWindow = 20

// HintMiss says why a line hint did not pick a place.
type HintMiss int

const (
	// HintPicked: the hint picked a place.
	HintPicked HintMiss = iota
	// HintTie: two places are equally near the hint (both contain it,
	// when the distance is 0).
	HintTie
	// HintTooFar: every place is more than HintWindow lines away.
	HintTooFar
)

// PickByHint is the one rule every dialect's line hint ("line", Roo Code's
// "start_line") follows among n places, whose first and last lines (1-based)
// span(i) gives: the place whose lines contain hint, else the nearest (by
// the distance from hint to its first or last line), when it is within
// HintWindow lines and no other place is as near. It returns the place's
// index and HintPicked, or -1 and why the hint did not decide. With no
// place it returns -1 and HintTooFar.
func PickByHint(n int, span func(i int) (first, last int), hint int) (int, HintMiss) {
	best, bestDist, tie := -1, 0, false
	for i := range n {
		first, last := span(i)
		d := 0
		switch {
		case hint < first:
			d = first - hint
		case hint > last:
			d = hint - last
		}
		switch {
		case best < 0 || d < bestDist:
			best, bestDist, tie = i, d, false
		case d == bestDist:
			tie = true
		}
	}
	switch {
	case best < 0 || bestDist > HintWindow:
		return -1, HintTooFar
	case tie:
		return -1, HintTie
	}
	return best, HintPicked
}
