package diffview

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hexops/gotextdiff"
	"github.com/hexops/gotextdiff/myers"
	"github.com/hexops/gotextdiff/span"
)

// Run with: go test ./diffview/ -run '^$' -bench . -benchmem
//
// BenchmarkGotextdiffDirect is the baseline: gotextdiff on a whole file, as
// used without this package. BenchmarkFullRewrite1k is this package on the
// same input, for the ratio; gotextdiff's cost grows with the square of the
// file, so at 10,000 lines it would take about 100 times as long.

func BenchmarkFullRewrite10k(b *testing.B) {
	old, new := []byte(numbered("old", 1, 10000)), []byte(numbered("new", 1, 10000))
	b.ReportAllocs()
	for b.Loop() {
		Unified("f", "f", old, new, 3)
	}
}

func BenchmarkSmallEditInLargeFile(b *testing.B) {
	old, new := largeFile()
	b.ReportAllocs()
	for b.Loop() {
		Unified("f", "f", old, new, 3)
	}
}

func BenchmarkFullRewrite1k(b *testing.B) {
	old, new := []byte(numbered("old", 1, 1000)), []byte(numbered("new", 1, 1000))
	b.ReportAllocs()
	for b.Loop() {
		Unified("f", "f", old, new, 3)
	}
}

func BenchmarkGotextdiffDirect(b *testing.B) {
	old, new := numbered("old", 1, 1000), numbered("new", 1, 1000)
	b.ReportAllocs()
	for b.Loop() {
		edits := myers.ComputeEdits(span.URIFromPath("/f"), old, new)
		_ = fmt.Sprint(gotextdiff.ToUnified("a/f", "b/f", old, edits))
	}
}

// BenchmarkMyersFullRewrite is the costliest narrow window still given to
// Myers: a rewrite of 500 lines (S = 1,000), inside a 10,000-line file.
func BenchmarkMyersFullRewrite(b *testing.B) {
	head, tail := numbered("head", 1, 5000), numbered("tail", 1, 4500)
	old := []byte(head + numbered("old", 1, 500) + tail)
	new := []byte(head + numbered("new", 1, 500) + tail)
	b.ReportAllocs()
	for b.Loop() {
		Unified("f", "f", old, new, 3)
	}
}

// BenchmarkMyersWideWindow is near the costliest wide window still given
// to Myers: S = 19,202 and D = 50, where maxMyersTrace allows 53.
func BenchmarkMyersWideWindow(b *testing.B) {
	old, new := editEvery(10000, 400)
	b.ReportAllocs()
	for b.Loop() {
		Unified("f", "f", old, new, 3)
	}
}

// BenchmarkBudgetExceeded pays for measuring D up to gotextdiff's budget,
// and then for the linear-space search that diffs the window instead:
// S = 19,802 and D = 200.
func BenchmarkBudgetExceeded(b *testing.B) {
	old, new := editEvery(10000, 100)
	b.ReportAllocs()
	for b.Loop() {
		Unified("f", "f", old, new, 3)
	}
}

// BenchmarkScatteredEdits is five edits 2,000 lines apart in a 10,000-line
// file: S = 16,002 and D = 10.
func BenchmarkScatteredEdits(b *testing.B) {
	old, new := editEvery(10000, 2000)
	b.ReportAllocs()
	for b.Loop() {
		Unified("f", "f", old, new, 3)
	}
}

// editEvery returns a file of n lines and a copy with its first line and
// every k-th line after it changed.
func editEvery(n, k int) (old, new []byte) {
	for i := 1; i <= n; i++ {
		line := fmt.Sprintf("line %d\n", i)
		old = append(old, line...)
		if i%k == 1 || k == 1 {
			line = fmt.Sprintf("changed %d\n", i)
		}
		new = append(new, line...)
	}
	return old, new
}

// BenchmarkTwoDistantChanges30k is issue 22's case: two one-line changes
// 29,997 lines apart in a 30,000-line file (S = 59,996, D = 4), beyond
// gotextdiff's bounds: the linear-space search. The "B-output" metric is
// the size of the diff.
func BenchmarkTwoDistantChanges30k(b *testing.B) {
	file := numbered("line", 1, 30000)
	old, new := []byte(file), []byte(withLine(withLine(file, 2, "changed\n"), 29999, "changed\n"))
	b.ReportAllocs()
	var out string
	for b.Loop() {
		out = Unified("f", "f", old, new, 3)
	}
	b.ReportMetric(float64(len(out)), "B-output")
}

// BenchmarkLinearAtBudget is near the costliest window the linear-space
// search takes: 30,000 lines with every 215th changed (S = 59,724,
// D = 280, S·D just under maxLinearWork).
func BenchmarkLinearAtBudget(b *testing.B) {
	old, new := editEvery(30000, 215)
	b.ReportAllocs()
	var out string
	for b.Loop() {
		out = Unified("f", "f", old, new, 3)
	}
	b.ReportMetric(float64(strings.Count(out, "\n@@ ")), "hunks")
}
