package ops_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
)

// buildWideSession makes a repository of files one-line files, 100 to a
// directory, and session "bench" whose one commit is a record that changed
// every one of them: what a formatter or codemod run under an agent leaves.
func buildWideSession(b *testing.B, files int) string {
	b.Helper()
	base := map[string]string{}
	for i := range files {
		base[fmt.Sprintf("d%03d/f%05d.txt", i/100, i)] = fmt.Sprintf("line %d\n", i)
	}
	dir := gittest.NewWithCommit(b, base)
	for p := range base {
		gittest.WriteFile(b, dir, p, base[p]+"formatted\n")
	}
	e, err := ops.Open(ops.Options{Root: dir, Session: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	rec, err := e.Record(context.Background(), nil, session.OpRecord, "gofmt -w .", "", ops.RecordScope{Named: true})
	if err != nil || rec.Commit.Hash.IsZero() {
		b.Fatalf("record: %v", err)
	}
	return dir
}

// BenchmarkWideCommit: diff, undo and rollback of one commit that changed
// many files, at two sizes; ms-N is the median of one operation on N
// files, and ratio the larger size's over the smaller's (4 when linear in
// the files changed, 16 when quadratic).
func BenchmarkWideCommit(b *testing.B) {
	ctx := context.Background()
	sizes := []int{500, 2000}
	dirs := make([]string, len(sizes))
	for i, n := range sizes {
		dirs[i] = buildWideSession(b, n)
	}
	steps := []struct {
		name string
		run  func(b *testing.B, e *ops.Engine)
	}{
		{"diff-stat", func(b *testing.B, e *ops.Engine) {
			if fds, err := e.NetChanges(nil); err != nil || len(fds) == 0 {
				b.Fatalf("%d files, %v", len(fds), err)
			}
		}},
		{"undo-dry-run", func(b *testing.B, e *ops.Engine) {
			if _, err := e.History(ctx, ops.HistoryRequest{Op: ops.HistUndo, DryRun: true}); err != nil {
				b.Fatal(err)
			}
		}},
		{"rollback-dry-run", func(b *testing.B, e *ops.Engine) {
			if _, err := e.History(ctx, ops.HistoryRequest{Op: ops.HistRollback, DryRun: true}); err != nil {
				b.Fatal(err)
			}
		}},
		{"undo", func(b *testing.B, e *ops.Engine) {
			res, err := e.History(ctx, ops.HistoryRequest{Op: ops.HistUndo})
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			if _, err := e.History(ctx, ops.HistoryRequest{Op: ops.HistRedo, Edit: res.Commit.String()}); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}},
	}
	for _, op := range steps {
		b.Run(op.name, func(b *testing.B) {
			times := make([][]time.Duration, len(sizes))
			for n := 0; n < b.N; n++ {
				for k := range sizes {
					i := (n + k) % len(sizes)
					e, err := ops.Open(ops.Options{Root: dirs[i], Session: "bench"})
					if err != nil {
						b.Fatal(err)
					}
					start := time.Now()
					op.run(b, e)
					times[i] = append(times[i], time.Since(start))
					e.Close()
				}
			}
			med := make([]float64, len(sizes))
			for i := range sizes {
				slices.Sort(times[i])
				med[i] = float64(times[i][len(times[i])/2]) / 1e6
				b.ReportMetric(med[i], fmt.Sprintf("ms-%d", sizes[i]))
			}
			b.ReportMetric(med[1]/med[0], fmt.Sprintf("ratio-%d/%d", sizes[1], sizes[0]))
		})
	}
}
