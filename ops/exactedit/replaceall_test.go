package exactedit

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

// everyByte is a file where old_string "a" occurs at every byte but the
// line ends: the most occurrences a file of its size can hold.
func everyByte(size int) []byte {
	line := strings.Repeat("a", 63) + "\n"
	return bytes.Repeat([]byte(line), size/len(line))
}

// allocated returns the bytes f allocates on the heap.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestAttackReplaceAllEveryByteIsBounded: Edit and MultiEdit replace_all
// of a string found at every byte of a 1 MiB file give the file
// strings.ReplaceAll gives, and allocate a small multiple of the result
// (one span built once), not some 40 bytes per occurrence.
func TestAttackReplaceAllEveryByteIsBounded(t *testing.T) {
	content := everyByte(1 << 20)
	want := strings.ReplaceAll(string(content), "a", "bc")
	limit := uint64(4 * len(want))
	var p Planned
	var err error
	n := allocated(func() { p, err = PlanEdit(content, "a", "bc", true) })
	if err != nil {
		t.Fatal(err)
	}
	got, err := text.ApplyEdits(content, p.Edits)
	if err != nil || string(got) != want || p.Replacements != strings.Count(string(content), "a") || p.Line != 1 {
		t.Fatalf("Edit replace_all: %d replacements, line %d, %v; result right: %v", p.Replacements, p.Line, err, string(got) == want)
	}
	if n > limit {
		t.Errorf("Edit replace_all allocated %d bytes for a %d-byte result (%.1f×); want at most %d", n, len(want), float64(n)/float64(len(want)), limit)
	}

	edits := []EditArgs{{OldString: "a", NewString: "bc", ReplaceAll: true}, {OldString: "c", NewString: "", ReplaceAll: true}}
	n = allocated(func() { p, err = PlanMultiEdit(content, MultiEditArgs{Edits: edits, Sequential: true}) })
	if err != nil {
		t.Fatal(err)
	}
	want = strings.ReplaceAll(string(content), "a", "b")
	if got, err := text.ApplyEdits(content, p.Edits); err != nil || string(got) != want {
		t.Fatalf("MultiEdit replace_all: %v; result right: %v", err, string(got) == want)
	}
	// Each edit builds its result once and MultiEdit its span once: a
	// few copies of the file, not 40 bytes per occurrence.
	if limit := uint64(8 * len(content)); n > limit {
		t.Errorf("MultiEdit replace_all allocated %d bytes for a %d-byte file (%.1f×); want at most %d", n, len(content), float64(n)/float64(len(content)), limit)
	}

	// Without replace_all the refusal counts and places them all, in
	// memory that does not grow with their number either.
	n = allocated(func() { _, err = PlanEdit(content, "a", "bc", false) })
	if err == nil || !strings.Contains(err.Error(), "Found 1032192 occurrences") || !strings.Contains(err.Error(), "lines 1 (63 times), 2 (63 times)") || !strings.Contains(err.Error(), "16,364 more lines") {
		t.Errorf("the refusal: %v", err)
	}
	if limit := uint64(64 << 10); n > limit {
		t.Errorf("the refusal allocated %d bytes; want at most %d", n, limit)
	}
}

// BenchmarkReplaceAllEveryByte: Edit replace_all of "a" by "bc" in an
// 8 MiB file where "a" is every byte but the line ends. B/op against the
// result's size (the "x-result" metric) is the cost per byte of answer.
func BenchmarkReplaceAllEveryByte(b *testing.B) {
	content := everyByte(8 << 20)
	size, runs := 0, 0
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ReportAllocs()
	for b.Loop() {
		runs++
		p, err := PlanEdit(content, "a", "bc", true)
		if err != nil {
			b.Fatal(err)
		}
		out, err := text.ApplyEdits(content, p.Edits)
		if err != nil {
			b.Fatal(err)
		}
		size = len(out)
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(runs)/float64(size), "x-result")
}
