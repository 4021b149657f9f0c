package ops_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
)

// TestAttackWideCommitDecodesItOnce: a record after a formatter changes
// thousands of files in one commit, whose message lists them all (Edit-Path,
// Edit-Stat). diff, undo and rollback asked about it once decoded that
// commit once per path, and again per path for its tree, which made them
// quadratic in the files changed (2,000 files: seconds and gigabytes). Each
// now decodes a bounded number of commits, whatever the number of files;
// BenchmarkWideCommit measures the time. The answers are checked against
// git.
func TestAttackWideCommitDecodesItOnce(t *testing.T) {
	const files = 300
	base := map[string]string{}
	for i := range files {
		base[fmt.Sprintf("d%d/f%03d.txt", i/100, i)] = fmt.Sprintf("line %d\n", i)
	}
	dir := gittest.NewWithCommit(t, base)
	for p := range base {
		gittest.WriteFile(t, dir, p, base[p]+"formatted\n")
	}
	ctx := context.Background()
	open := func() *ops.Engine {
		e, err := ops.Open(ops.Options{Root: dir, Session: "s"})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	e := open()
	rec, err := e.Record(ctx, nil, session.OpRecord, "gofmt -w .", "", ops.RecordScope{Named: true})
	e.Close()
	if err != nil || rec.Commit.Hash.IsZero() {
		t.Fatalf("record: %v", err)
	}
	// A bound far below the number of files: a handful of commits (the
	// tip, its parent, HEAD) each read a few times at most.
	const bound = 30
	for _, tc := range []struct {
		name string
		run  func(e *ops.Engine) (int, error)
	}{
		{"diff", func(e *ops.Engine) (int, error) {
			fds, err := e.NetChanges(nil)
			return len(fds), err
		}},
		{"undo --dry-run", func(e *ops.Engine) (int, error) {
			res, err := e.History(ctx, ops.HistoryRequest{Op: ops.HistUndo, DryRun: true})
			return len(res.Changes()), err
		}},
		{"rollback --dry-run", func(e *ops.Engine) (int, error) {
			res, err := e.History(ctx, ops.HistoryRequest{Op: ops.HistRollback, DryRun: true})
			return len(res.Changes()), err
		}},
		{"undo", func(e *ops.Engine) (int, error) {
			res, err := e.History(ctx, ops.HistoryRequest{Op: ops.HistUndo})
			return len(res.Changes()), err
		}},
	} {
		e := open()
		before := e.Repo.CommitReads()
		n, err := tc.run(e)
		reads := e.Repo.CommitReads() - before
		e.Close()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if n != files {
			t.Fatalf("%s: %d files in the answer, want %d", tc.name, n, files)
		}
		if reads > bound {
			t.Errorf("%s of one commit of %d files decoded %d commits, want at most %d", tc.name, files, reads, bound)
		}
	}
	// The undo put every file back as HEAD has it, as git sees it.
	if st := gittest.Status(t, dir); st != "" {
		t.Fatalf("after the undo, git status:\n%s", st)
	}
	if d := gittest.Git(t, dir, "diff", "HEAD", "refs/edits/s", "--stat"); d != "" {
		t.Fatalf("the undo's commit differs from HEAD:\n%s", d)
	}
	gittest.Fsck(t, dir)
}
