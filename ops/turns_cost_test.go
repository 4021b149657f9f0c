package ops_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
)

// TestAttackTurnQuestionsReadTheTurnOnly (issue 22 item 19b): undo --turn,
// rollback --to turn:T or a checkpoint, and a checkpoint whose name is in
// use decoded every commit of the session (1.2 s and 300 MB at 100,000
// commits). With the history index they decode the commits of that turn or
// checkpoint, and a bounded catch-up, whatever the session's length; the
// answers are those git's log gives.
func TestAttackTurnQuestionsReadTheTurnOnly(t *testing.T) {
	const commits, turns = 160, 10
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	ctx := context.Background()
	e, err := ops.Open(ops.Options{Root: dir, Session: "s"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range commits {
		// Turn tN edits file fN: each turn's files are its own.
		args := fmt.Sprintf(`{"command":"create","path":"f%d.txt","file_text":"v%d\n"}`, i%turns, i)
		if i >= turns {
			args = fmt.Sprintf(`{"command":"str_replace","path":"f%d.txt","old_str":"v%d","new_str":"v%d"}`, i%turns, i-turns, i)
		}
		if res, err := e.Call(session.WithTurn(ctx, fmt.Sprintf("t%d", i%turns)), "text_editor", []byte(args)); err != nil || !res.OK {
			t.Fatalf("%v %s", err, res.Text)
		}
		if i == commits/2 {
			if _, err := e.Checkpoint(ctx, "half", false); err != nil {
				t.Fatal(err)
			}
		}
	}
	e.Close()
	// The turn's commits, each path's chain checked (InEffect), and a
	// bounded catch-up of the index: far below the session's length.
	bound := int64(3*commits/turns + 20)
	for _, tc := range []struct {
		name string
		run  func(e *ops.Engine) error
	}{
		{"undo --turn --dry-run", func(e *ops.Engine) error {
			res, err := e.History(ctx, ops.HistoryRequest{Op: ops.HistUndo, Turn: "t3", DryRun: true})
			if err == nil && (len(res.Changes()) != 1 || res.Changes()[0].Path != "f3.txt") {
				err = fmt.Errorf("changes %+v, want f3.txt", res.Changes())
			}
			return err
		}},
		{"rollback --to turn:t3 --dry-run", func(e *ops.Engine) error {
			res, err := e.History(ctx, ops.HistoryRequest{Op: ops.HistRollback, To: "turn:t3", DryRun: true})
			if err == nil && res.To != "turn" {
				err = fmt.Errorf("rolled back to a %s, want the turn", res.To)
			}
			return err
		}},
		{"checkpoint half (in use)", func(e *ops.Engine) error {
			_, err := e.Checkpoint(ctx, "half", true)
			if errors.Is(err, session.ErrCheckpointExists) {
				return nil
			}
			return fmt.Errorf("want the name refused, got %v", err)
		}},
	} {
		e, err := ops.Open(ops.Options{Root: dir, Session: "s"})
		if err != nil {
			t.Fatal(err)
		}
		before := e.Repo.CommitReads()
		err = tc.run(e)
		reads := e.Repo.CommitReads() - before
		e.Close()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if reads > bound {
			t.Errorf("%s decoded %d commits of a session of %d; want at most %d", tc.name, reads, commits, bound)
		}
	}
	gittest.Fsck(t, dir)
}
