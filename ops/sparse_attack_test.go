package ops_test

import (
	"context"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

// TestAttackSparseUndoLeavesThePathOutOfTheCone (issue 22 item 8b): in a
// sparse checkout an agent writes a path outside the cone (absent on disk,
// skip-worktree in the index); its undo, and a rollback, return the disk
// to its state before the edit, the path absent, instead of writing HEAD's
// bytes there (Edit-Sparse-Before on the edit says it was left out). The
// session records the path as HEAD has it, git status is as before, a redo
// and its undo go the same way, and an edit inside the cone is undone as
// usual. (A path the person had put on disk outside the cone is written
// back by undo: TestSparseCheckoutUndoAboutAPathWritesIt.)
func TestAttackSparseUndoLeavesThePathOutOfTheCone(t *testing.T) {
	for _, tc := range []struct{ name, how string }{
		{"undo, cone", "undo"}, {"rollback, cone", "rollback"}, {"undo, sparse index", "undo --sparse-index"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"in/a.txt": "one\n", "out/b.txt": "two\n"})
			args := []string{"sparse-checkout", "set", "--cone", "in"}
			if strings.HasSuffix(tc.how, "--sparse-index") {
				args = append(args, "--sparse-index")
			}
			gittest.Git(t, dir, args...)
			if gittest.ReadFile(t, dir, "out/b.txt") != gittest.Missing {
				t.Fatal("sparse checkout left out/b.txt on disk")
			}
			statusBefore := gittest.Status(t, dir)
			e, err := ops.Open(ops.Options{Root: dir, Session: "s"})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			ctx := context.Background()
			res, err := e.Call(ctx, "text_editor", []byte(`{"command":"create","path":"out/b.txt","file_text":"agent\n"}`))
			if err != nil || !res.OK {
				t.Fatalf("create: %v %s", err, res.Text)
			}
			if got := gittest.ReadFile(t, dir, "out/b.txt"); got != "agent\n" {
				t.Fatalf("the edit wrote %q", got)
			}
			req := ops.HistoryRequest{Op: ops.HistUndo}
			if strings.HasPrefix(tc.how, "rollback") {
				req = ops.HistoryRequest{Op: ops.HistRollback}
			}
			if _, err := e.History(ctx, req); err != nil {
				t.Fatal(err)
			}
			if got := gittest.ReadFile(t, dir, "out/b.txt"); got != gittest.Missing {
				t.Fatalf("after the %s, out/b.txt holds %q on disk; before the edit it was absent", req.Op, got)
			}
			if d := gittest.Git(t, dir, "diff", "HEAD", "refs/edits/s"); d != "" {
				t.Fatalf("the session's tip differs from HEAD:\n%s", d)
			}
			if st := gittest.Status(t, dir); st != statusBefore {
				t.Fatalf("git status %q, was %q", st, statusBefore)
			}
			if req.Op == ops.HistUndo {
				// A redo writes the agent's file again; its undo leaves
				// the path out again.
				if _, err := e.History(ctx, ops.HistoryRequest{Op: ops.HistRedo}); err != nil {
					t.Fatal(err)
				}
				if got := gittest.ReadFile(t, dir, "out/b.txt"); got != "agent\n" {
					t.Fatalf("after the redo, out/b.txt = %q", got)
				}
				if _, err := e.History(ctx, ops.HistoryRequest{Op: ops.HistUndo}); err != nil {
					t.Fatal(err)
				}
				if got := gittest.ReadFile(t, dir, "out/b.txt"); got != gittest.Missing {
					t.Fatalf("after the redo's undo, out/b.txt holds %q", got)
				}
			}
			// Inside the cone nothing changes: the undo writes the file.
			if res, err := e.Call(ctx, "text_editor", []byte(`{"command":"str_replace","path":"in/a.txt","old_str":"one","new_str":"ONE"}`)); err != nil || !res.OK {
				t.Fatalf("edit: %v %s", err, res.Text)
			}
			if _, err := e.History(ctx, ops.HistoryRequest{Op: ops.HistUndo}); err != nil {
				t.Fatal(err)
			}
			if got := gittest.ReadFile(t, dir, "in/a.txt"); got != "one\n" {
				t.Fatalf("in/a.txt = %q after its undo", got)
			}
			gittest.Fsck(t, dir)
		})
	}
}
