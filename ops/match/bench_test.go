package match

import (
	"fmt"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

// benchFile is a 20,000-line file of code-like lines, each distinct, with
// curly quotes, a 4-space indent and trailing spaces on some lines.
func benchFile(lines int) []byte {
	var b strings.Builder
	for i := range lines {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, "func f%d(a, b int) int {  \n", i)
		case 1:
			fmt.Fprintf(&b, "    x%d :=  compute(a, \u201clabel %d\u201d)\n", i, i)
		case 2:
			fmt.Fprintf(&b, "        if x%d > b {\t\n", i-1)
		case 3:
			fmt.Fprintf(&b, "            return x%d \u2014 1\n", i-2)
		default:
			b.WriteString("}\n")
		}
	}
	return []byte(b.String())
}

// BenchmarkFindExact is Find on a unique exact needle in the middle of a
// 20,000-line file; BenchmarkFindExactBaseline is what the exact
// dialects do today on the same input (text.FindExactSeq, offsets
// collected, the first one's line counted). Their ratio is the ladder's
// cost when Exact matches.
func BenchmarkFindExact(b *testing.B) {
	content := benchFile(20000)
	needle := "        if x10001 > b {\t\n            return x10001 \u2014 1\n"
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		m, err := Find(content, needle, All)
		if err != nil || m.Count != 1 {
			b.Fatal(err, m)
		}
	}
}

func BenchmarkFindExactBaseline(b *testing.B) {
	content := benchFile(20000)
	needle := "        if x10001 > b {\t\n            return x10001 \u2014 1\n"
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		all, _, _ := text.FindExactSeq(content, needle)
		var offs []int
		for off := range all {
			offs = append(offs, off)
		}
		if len(offs) != 1 || text.OccurrenceLines(content, offs[:1])[0] != 10003 {
			b.Fatal(offs)
		}
	}
}

// everyTolerance is a 40-line block of benchFile from line first (which
// starts a function) as an agent might quote it: trailing spaces dropped,
// straight quotes and dashes, a 2-space indent for the file's 4, single
// spaces for runs, and a typo on one line.
func everyTolerance(content []byte, first int) string {
	lines := strings.Split(string(content), "\n")[first-1 : first-1+40]
	for i, l := range lines {
		l = strings.TrimRight(l, " \t")
		l = ASCIIPunctuation(l)
		ind := leadingSpace(l)
		l = strings.Repeat(" ", len(ind)/2) + collapseSpace(l[len(ind):])
		if i == 21 {
			l = strings.Replace(l, "compute", "comptue", 1)
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n") + "\n"
}

// BenchmarkFindEveryTolerance: a 40-line block needing every tolerance
// at once, so Find climbs the whole ladder to Similar, in a 20,000-line
// file.
func BenchmarkFindEveryTolerance(b *testing.B) {
	content := benchFile(20000)
	needle := everyTolerance(content, 10001)
	for b.Loop() {
		m, err := Find(content, needle, All)
		if err != nil || m.Stage != Similar || m.Count != 1 || m.Places[0].Line != 10001 {
			b.Fatal(err, m)
		}
	}
}
