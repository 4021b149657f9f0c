package history_test

import (
	"context"
	"errors"
	"testing"

	"github.com/git-edit/git-edit/history"
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/session"
	"github.com/go-git/go-git/v5/plumbing"
)

// testSession drives real commits on a real repository.
type testSession struct {
	t   *testing.T
	dir string
	s   *session.Session
	p   repo.Path
}

func newSession(t *testing.T) *testSession {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "0\n"})
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := session.New(r, "u")
	p, _ := r.Resolve(dir, "f.txt")
	return &testSession{t, dir, s, p}
}

// commit applies one change with the given op and returns its commit.
func (ss *testSession) commit(content, op string, undoes plumbing.Hash) plumbing.Hash {
	ss.t.Helper()
	out, err := ss.s.Apply(context.Background(), []repo.Path{ss.p}, session.RecordOutside, func(*session.Tx) (session.Plan, error) {
		return session.Plan{
			Changes: []session.Change{{Path: "f.txt", Content: []byte(content)}},
			Meta:    session.Meta{Op: op, Tool: "test", Undoes: undoes},
		}, nil
	})
	if err != nil {
		ss.t.Fatal(err)
	}
	return out.Commit
}

// undo applies history.PlanUndo and returns the target it reverted.
func (ss *testSession) undo(depth int) (plumbing.Hash, error) {
	ss.t.Helper()
	var target history.Target
	out, err := ss.s.Apply(context.Background(), []repo.Path{ss.p}, session.RefuseOutside, func(tx *session.Tx) (session.Plan, error) {
		pl, tg, err := history.PlanUndo(tx, ss.s, "f.txt", depth, "test.undo")
		target = tg
		return pl, err
	})
	if err == nil && out.Commit.IsZero() {
		ss.t.Fatal("undo recorded nothing")
	}
	return target.Commit, err
}

func TestUndoRedoChainsCancelInStackOrder(t *testing.T) {
	ss := newSession(t)
	e1 := ss.commit("1\n", session.OpEdit, plumbing.ZeroHash)
	e2 := ss.commit("2\n", session.OpEdit, plumbing.ZeroHash)
	e3 := ss.commit("3\n", session.OpEdit, plumbing.ZeroHash)

	steps := []struct {
		want    plumbing.Hash
		content string
	}{{e3, "2\n"}, {e2, "1\n"}}
	for _, st := range steps {
		got, err := ss.undo(0)
		if err != nil || got != st.want || gittest.ReadFile(t, ss.dir, "f.txt") != st.content {
			t.Fatalf("undo reverted %s (%v), file %q; want %s, %q", got, err, gittest.ReadFile(t, ss.dir, "f.txt"), st.want, st.content)
		}
	}
	// A redo re-applies e2; the next undo reverts that redo, and the one
	// after reaches e1: undone edits stay cancelled.
	lastUndo := plumbing.NewHash(gittest.Rev(t, ss.dir, "refs/edits/u"))
	redo := ss.commit("2\n", session.OpRedo, lastUndo)
	if got, err := ss.undo(0); err != nil || got != redo || gittest.ReadFile(t, ss.dir, "f.txt") != "1\n" {
		t.Fatalf("undo after redo reverted %s (%v), want the redo %s", got, err, redo)
	}
	if got, err := ss.undo(0); err != nil || got != e1 || gittest.ReadFile(t, ss.dir, "f.txt") != "0\n" {
		t.Fatalf("undo reverted %s (%v), want e1 %s", got, err, e1)
	}
	if _, err := ss.undo(0); !errors.Is(err, history.ErrNothingToUndo) {
		t.Fatalf("err = %v, want ErrNothingToUndo", err)
	}
	// Every undo commit names what it reverts.
	undoes := gittest.Git(t, ss.dir, "log", "--format=%(trailers:key=Edit-Undoes,valueonly,separator=)", "--grep=^Edit-Op: undo", "refs/edits/u")
	want := e1.String() + "\n" + redo.String() + "\n" + e2.String() + "\n" + e3.String() + "\n"
	if undoes != want {
		t.Fatalf("Edit-Undoes trailers:\n%s\nwant\n%s", undoes, want)
	}
	gittest.Fsck(t, ss.dir)
}

func TestUndoDepthCountsEveryEdit(t *testing.T) {
	ss := newSession(t)
	for _, c := range []string{"1\n", "2\n", "3\n", "4\n"} {
		ss.commit(c, session.OpEdit, plumbing.ZeroHash)
	}
	for range 3 {
		if _, err := ss.undo(3); err != nil {
			t.Fatal(err)
		}
	}
	tip := gittest.Rev(t, ss.dir, "refs/edits/u")
	if _, err := ss.undo(3); !errors.Is(err, history.ErrUndoDepth) {
		t.Fatalf("4th undo with depth 3: err = %v", err)
	}
	if gittest.Rev(t, ss.dir, "refs/edits/u") != tip || gittest.ReadFile(t, ss.dir, "f.txt") != "1\n" {
		t.Fatal("refused undo changed something")
	}
	if _, err := ss.undo(0); err != nil || gittest.ReadFile(t, ss.dir, "f.txt") != "0\n" {
		t.Fatalf("unlimited depth: %v", err)
	}
}
