package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo/packidx/packtest"
)

// BenchmarkRecordBigRepo: `git edit record` of 3 files a shell changed, in
// a 100,000-file repository, beside `git status` there (issue 16: ≤ 2 ×).
// Each round changes the 3 files (untimed, the shell's part), then runs
// the cold git-edit process and git status, alternating which goes first.
// It reports the medians and the median of the rounds' ratios with its
// p10–p90 spread. The repository is $GIT_EDIT_BENCH_BIG copied (such as
// git-edit-bench's cached big-index repository), else generated (slow).
//
//	go test ./cmd/git-edit -run X -bench RecordBigRepo -benchtime 31x
func BenchmarkRecordBigRepo(b *testing.B) {
	binDir, err := buildBinary()
	if err != nil {
		b.Fatal(err)
	}
	bin := filepath.Join(binDir, "git-edit")
	dir := filepath.Join(b.TempDir(), "big")
	if from := os.Getenv("GIT_EDIT_BENCH_BIG"); from != "" {
		if out, err := exec.Command("cp", "-a", "--reflink=auto", from, dir).CombinedOutput(); err != nil {
			b.Fatalf("copy %s: %v\n%s", from, err, out)
		}
	} else if err := packtest.Generate(dir, packtest.Spec{Files: 100_000, Commits: 5, Touch: 5000, GC: true, Checkout: true}); err != nil {
		b.Fatal(err)
	}
	if _, err := packtest.Git(dir, nil, "update-index", "-q", "--refresh"); err != nil {
		b.Fatal(err)
	}
	files := []string{packtest.Path(10), packtest.Path(50_010), packtest.Path(99_990)}
	run := func(name string, args ...string) (time.Duration, string) {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, packtest.Env()
		start := time.Now()
		out, err := cmd.CombinedOutput()
		d := time.Since(start)
		if err != nil {
			b.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return d, string(out)
	}
	var recs, stats []time.Duration
	var ratios []float64
	round := 0
	for b.Loop() {
		round++
		for _, f := range files {
			p := filepath.Join(dir, f)
			c, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(p, fmt.Appendf(c, "// shell edit %d\n", round), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		var rec, st time.Duration
		var out string
		if round%2 == 0 {
			st, _ = run("git", "status")
			rec, out = run(bin, "record", "--session", "bench", "-m", "shell")
		} else {
			rec, out = run(bin, "record", "--session", "bench", "-m", "shell")
			st, _ = run("git", "status")
		}
		if !strings.Contains(out, "3 files changed") {
			b.Fatalf("record recorded something else:\n%s", out)
		}
		if round == 1 {
			continue // warms the page cache and creates the session
		}
		recs, stats = append(recs, rec), append(stats, st)
		ratios = append(ratios, float64(rec)/float64(st))
	}
	if len(ratios) == 0 {
		return
	}
	slices.Sort(recs)
	slices.Sort(stats)
	slices.Sort(ratios)
	q := func(n int, p float64) int { return min(n-1, int(p*float64(n))) }
	b.ReportMetric(float64(recs[q(len(recs), 0.5)].Microseconds())/1000, "record-ms")
	b.ReportMetric(float64(stats[q(len(stats), 0.5)].Microseconds())/1000, "status-ms")
	b.ReportMetric(ratios[q(len(ratios), 0.5)], "ratio")
	b.ReportMetric(ratios[q(len(ratios), 0.1)], "ratio-p10")
	b.ReportMetric(ratios[q(len(ratios), 0.9)], "ratio-p90")
	b.ReportMetric(0, "ns/op")
}
