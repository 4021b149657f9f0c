package exactedit

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

// TestAttackMultiEditOverlapAgainstByteOrigins checks MultiEdit's overlap
// rule on random batches against a plain model: every byte of the content
// carries where it came from (a byte of the file as read, or written by an
// edit) and every gap whether text of the file was deleted there. An edit's
// place overlaps when it covers a written byte or spans such a gap; it is
// allowed anyway only with sequential, wholly inside written bytes. The
// batch must be refused, naming the first such edit, exactly when the model
// says so, and otherwise give the content the edits give one by one.
func TestAttackMultiEditOverlapAgainstByteOrigins(t *testing.T) {
	runs := 4000
	if testing.Short() {
		runs = 400
	}
	rng := rand.New(rand.NewPCG(25, 277154))
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte("ab\nc"[rng.IntN(4)])
		}
		return b.String()
	}
	var refused, nested, applied int // outcomes seen, so the loop is known to try each
	for run := range runs {
		content := word(4 + rng.IntN(24))
		if run%4 == 0 { // long enough for whole 64-byte words of the bitsets
			content = word(100 + rng.IntN(300))
		}
		seq := rng.IntN(2) == 0
		var edits []EditArgs
		for range 1 + rng.IntN(4) {
			edits = append(edits, EditArgs{OldString: word(1 + rng.IntN(3)), NewString: word(rng.IntN(4)), ReplaceAll: rng.IntN(3) == 0})
		}
		name := fmt.Sprintf("run %d: content %q, sequential %v, edits %+v", run, content, seq, edits)

		// The model, edit by edit.
		cur := []byte(content)
		origin := make([]bool, len(cur)) // true: written by an edit
		cut := make([]bool, len(cur)+1)
		refuse, failed := -1, false
		for i, e := range edits {
			step, occ, err := plan(cur, e)
			if err != nil {
				failed = true
				break
			}
			var places []occurrence
			for o := range occ {
				places = append(places, o)
			}
			inside := func(o occurrence) bool {
				if o.start == o.end {
					return false
				}
				for b := o.start; b < o.end; b++ {
					if !origin[b] || (b > o.start && cut[b]) {
						return false
					}
				}
				return true
			}
			for _, o := range places {
				over := false
				for b := o.start; b < o.end; b++ {
					over = over || origin[b] || (b > o.start && cut[b])
				}
				if over && !(seq && inside(o)) {
					refuse = i
				} else if over {
					nested++
				}
			}
			if refuse >= 0 {
				break
			}
			// The new content: kept bytes keep their origin and the gap
			// before them; a place's bytes are written, its gaps inside
			// none; a deletion of text of the file leaves a cut.
			var nOrigin []bool
			type gap struct {
				at  int
				cut bool
			}
			var gaps []gap
			pos := 0
			keep := func(end int) {
				for b := pos; b < end; b++ {
					gaps = append(gaps, gap{len(nOrigin), cut[b]})
					nOrigin = append(nOrigin, origin[b])
				}
			}
			for _, o := range places {
				keep(o.start)
				at := len(nOrigin)
				gaps = append(gaps, gap{at, cut[o.start]}, gap{at + o.newLen, cut[o.end]}, gap{at, o.newLen == 0 && !inside(o)})
				for range o.newLen {
					nOrigin = append(nOrigin, true)
				}
				pos = o.end
			}
			keep(len(cur))
			gaps = append(gaps, gap{len(nOrigin), cut[len(cur)]})
			nCut := make([]bool, len(nOrigin)+1)
			for _, g := range gaps {
				nCut[g.at] = nCut[g.at] || g.cut
			}
			if cur, err = text.ApplyEdits(cur, step.Edits); err != nil {
				t.Fatal(err)
			}
			origin, cut = nOrigin, nCut
			if len(origin) != len(cur) || len(cut) != len(cur)+1 {
				t.Fatalf("%s: model out of step", name)
			}
		}

		p, err := PlanMultiEdit([]byte(content), MultiEditArgs{Edits: edits, Sequential: seq})
		switch {
		case failed:
			if err == nil || errors.Is(err, ErrOverlap) && refuse < 0 {
				t.Fatalf("%s: want a failure that is not an overlap, got %v", name, err)
			}
		case refuse >= 0:
			refused++
			want := fmt.Sprintf("Edit %d of %d failed: Edits overlap: ", refuse+1, len(edits))
			if !errors.Is(err, ErrOverlap) || !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("%s: want the overlap of edit %d refused, got %v", name, refuse+1, err)
			}
		default:
			if err != nil {
				t.Fatalf("%s: want success, got %v", name, err)
			}
			got, err := text.ApplyEdits([]byte(content), p.Edits)
			if err != nil || string(got) != string(cur) {
				t.Fatalf("%s: got %q (%v), one by one %q", name, got, err, cur)
			}
			applied++
		}
	}
	if refused == 0 || nested == 0 || applied == 0 {
		t.Errorf("the batches tried %d refusals, %d sequential changes of written text, %d applied batches; want some of each", refused, nested, applied)
	}
	t.Logf("%d refused, %d sequential changes of written text, %d applied", refused, nested, applied)
}

// BenchmarkMultiEditThreeEdits: a MultiEdit of three disjoint one-line
// edits in a 20,000-line file, the overlap tracking included.
func BenchmarkMultiEditThreeEdits(b *testing.B) {
	var sb strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&sb, "\tline %d = compute(%d)\n", i, i)
	}
	content := []byte(sb.String())
	edits := []EditArgs{
		{OldString: "\tline 100 = compute(100)\n", NewString: "\tline 100 = compute(101)\n"},
		{OldString: "\tline 10000 = compute(10000)\n", NewString: "\tline 10000 = x\n"},
		{OldString: "\tline 19999 = compute(19999)\n", NewString: ""},
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := PlanMultiEdit(content, MultiEditArgs{Edits: edits}); err != nil {
			b.Fatal(err)
		}
	}
}
