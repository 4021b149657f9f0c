package undo_test

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/git-edit/git-edit/undo"
	"github.com/go-git/go-git/v5/plumbing"
)

// targetCase asks which commit an undo or redo of path picks after steps:
// the step want, or a refusal wrapping wantErr.
type targetCase struct {
	name    string
	steps   []step
	path    string // f.txt when empty
	depth   int
	want    string
	wantErr error
}

func TestFindTarget(t *testing.T) {
	e1, e2, e3, e4 := edit("e1", put("f.txt", "1\n")), edit("e2", put("f.txt", "2\n")), edit("e3", put("f.txt", "3\n")), edit("e4", put("f.txt", "4\n"))
	fourUndoneToE1 := []step{e1, e2, e3, e4, undone("u4", "e4", put("f.txt", "3\n")), undone("u3", "e3", put("f.txt", "2\n")), undone("u2", "e2", put("f.txt", "1\n"))}
	redoneThenUndone := []step{e1, e2, undone("u2", "e2", put("f.txt", "1\n")), redone("r2", "u2", put("f.txt", "2\n")), undone("ur2", "r2", put("f.txt", "1\n"))}
	// a1 changes the first line, a2 adds a second, u1 takes back a1 only.
	twoLinesUndoneOlder := []step{edit("a1", put("f.txt", "1\n")), edit("a2", put("f.txt", "1\nb\n")), undone("u1", "a1", put("f.txt", "0\nb\n"))}
	cases := []targetCase{
		{name: "the only edit", steps: []step{e1}, want: "e1"},
		{name: "the newest of several edits", steps: []step{e1, e2, e3}, want: "e3"},
		{name: "an undo cancels the newest edit below it", steps: []step{e1, e2, undone("u2", "e2", put("f.txt", "1\n"))}, want: "e1"},
		{name: "undos cancel in stack order", steps: []step{e1, e2, e3, undone("u3", "e3", put("f.txt", "2\n")), undone("u2", "e2", put("f.txt", "1\n"))}, want: "e1"},
		{name: "every edit undone", steps: []step{e1, undone("u1", "e1", put("f.txt", "0\n"))}, wantErr: undo.ErrNothingToUndo},
		{name: "a redo is undone like an edit", steps: []step{e1, e2, undone("u2", "e2", put("f.txt", "1\n")), redone("r2", "u2", put("f.txt", "2\n"))}, want: "r2"},
		{name: "undoing a redo leaves its undo in effect", steps: redoneThenUndone, want: "e1"},
		{name: "a rollback is undone like an edit", steps: []step{e1, rolledBack("rb", "start", put("f.txt", "0\n"))}, want: "rb"},
		{name: "an edit of another path is not on the chain", steps: []step{e1, edit("g1", put("g.txt", "g1\n"))}, want: "e1"},
		{name: "interleaved files: the undone one", steps: []step{e1, edit("g1", put("g.txt", "g1\n")), e2, edit("g2", put("g.txt", "g2\n")), undone("u2", "e2", put("f.txt", "1\n"))}, want: "e1"},
		{name: "interleaved files: the other one", path: "g.txt", steps: []step{e1, edit("g1", put("g.txt", "g1\n")), e2, edit("g2", put("g.txt", "g2\n")), undone("u2", "e2", put("f.txt", "1\n"))}, want: "g2"},
		{name: "a commit of two paths undone for one: that one", steps: []step{edit("fg", put("f.txt", "1\n"), put("g.txt", "g1\n")), undone("ufg", "fg", put("f.txt", "0\n"))}, wantErr: undo.ErrNothingToUndo},
		{name: "a commit of two paths undone for one: the other", path: "g.txt", steps: []step{edit("fg", put("f.txt", "1\n"), put("g.txt", "g1\n")), undone("ufg", "fg", put("f.txt", "0\n"))}, want: "fg"},
		{name: "a file the session created", path: "n.txt", steps: []step{e1, edit("n1", put("n.txt", "new\n"))}, want: "n1"},
		{name: "a file the session deleted", steps: []step{e1, edit("d", del("f.txt"))}, want: "d"},
		{name: "a created file whose deletion was undone", path: "n.txt", steps: []step{edit("n1", put("n.txt", "new\n")), edit("d", del("n.txt")), undone("ud", "d", put("n.txt", "new\n"))}, want: "n1"},
		{name: "a path the session never touched", path: "n.txt", steps: []step{e1}, wantErr: undo.ErrNothingToUndo},
		{name: "depth counts the target itself", depth: 1, steps: []step{e1, e2, e3}, want: "e3"},
		{name: "depth reached", depth: 3, steps: fourUndoneToE1, wantErr: undo.ErrUndoDepth},
		{name: "depth just enough", depth: 4, steps: fourUndoneToE1, want: "e1"},
		{name: "depth 0 is unlimited", depth: 0, steps: fourUndoneToE1, want: "e1"},
		{name: "a redo does not count toward depth", depth: 1, steps: []step{e1, e2, undone("u2", "e2", put("f.txt", "1\n")), redone("r2", "u2", put("f.txt", "2\n"))}, want: "r2"},
		{name: "a cancelled edit counts toward depth", depth: 1, steps: redoneThenUndone, wantErr: undo.ErrUndoDepth},
		{name: "a cancelled redo does not count toward depth", depth: 2, steps: redoneThenUndone, want: "e1"},
		{name: "a cancelled rollback does not count toward depth", depth: 1, steps: []step{e1, e2, rolledBack("rb", "start", put("f.txt", "0\n")), undone("urb", "rb", put("f.txt", "2\n"))}, want: "e2"},
		{name: "a sync below the target is passed by", steps: []step{e1, outside("s", put("f.txt", "p\n")), e2}, want: "e2"},
		// Selective undo keeps what a sync recorded, so it reaches past one
		// (it used to stop there, ErrChangedOutside).
		{name: "undo passes a sync", steps: []step{e1, outside("s", put("f.txt", "p\n")), e2, undone("u2", "e2", put("f.txt", "p\n"))}, want: "e1"},
		{name: "a sync is never the target", steps: []step{outside("s", put("f.txt", "p\n")), e1, undone("u1", "e1", put("f.txt", "p\n"))}, wantErr: undo.ErrNothingToUndo},
		{name: "an undo of an older edit leaves the newer in effect", steps: twoLinesUndoneOlder, want: "a2"},
		{name: "an undo of the older and of the newer", steps: append(twoLinesUndoneOlder, undone("u2", "a2", put("f.txt", "0\n"))), wantErr: undo.ErrNothingToUndo},
		{name: "a sync of another path is not on the chain", steps: []step{e1, outside("s", put("g.txt", "gp\n")), e2, undone("u2", "e2", put("f.txt", "1\n"))}, want: "e1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, path := setUp(t, tc)
			got, err := undo.FindTarget(f.s, f.tip(), path, tc.depth)
			checkTarget(t, f, tc, path, got, err)
		})
	}
}

func TestFindRedo(t *testing.T) {
	e1, e2 := edit("e1", put("f.txt", "1\n")), edit("e2", put("f.txt", "2\n"))
	u1 := undone("u1", "e1", put("f.txt", "0\n"))
	cases := []targetCase{
		{name: "nothing undone", steps: []step{e1}, wantErr: undo.ErrNothingToRedo},
		{name: "the one undo", steps: []step{e1, u1}, want: "u1"},
		{name: "the newest undo", steps: []step{e1, e2, undone("u2", "e2", put("f.txt", "1\n")), undone("u1", "e1", put("f.txt", "0\n"))}, want: "u1"},
		{name: "a redo cancels the undo below it", steps: []step{e1, e2, undone("u2", "e2", put("f.txt", "1\n")), undone("u1", "e1", put("f.txt", "0\n")), redone("r1", "u1", put("f.txt", "1\n"))}, want: "u2"},
		{name: "every undo redone", steps: []step{e1, u1, redone("r1", "u1", put("f.txt", "1\n"))}, wantErr: undo.ErrNothingToRedo},
		{name: "an edit since the undo", steps: []step{e1, u1, e2}, wantErr: undo.ErrNothingToRedo},
		{name: "a change outside git-edit since the undo", steps: []step{e1, u1, outside("s", put("f.txt", "p\n")), edit("g1", put("g.txt", "g1\n"))}, wantErr: undo.ErrNothingToRedo},
		{name: "an undo of another path: this one", steps: []step{e1, edit("g1", put("g.txt", "g1\n")), undone("ug", "g1", put("g.txt", "g0\n"))}, wantErr: undo.ErrNothingToRedo},
		{name: "an undo of another path: that one", path: "g.txt", steps: []step{e1, edit("g1", put("g.txt", "g1\n")), undone("ug", "g1", put("g.txt", "g0\n"))}, want: "ug"},
		{name: "the undo of a created file", path: "n.txt", steps: []step{edit("n1", put("n.txt", "new\n")), undone("un", "n1", del("n.txt"))}, want: "un"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, path := setUp(t, tc)
			got, err := undo.FindRedo(f.s, f.tip(), path)
			checkTarget(t, f, tc, path, got, err)
		})
	}
}

func setUp(t *testing.T, tc targetCase) (*fixture, string) {
	f := newFixture(t)
	f.run(tc.steps...)
	if tc.path == "" {
		return f, "f.txt"
	}
	return f, tc.path
}

// checkTarget compares a target with the case's step, or a refusal with
// its sentinel; a refusal names the path.
func checkTarget(t *testing.T, f *fixture, tc targetCase, path string, got undo.Target, err error) {
	t.Helper()
	if tc.wantErr != nil {
		if !errors.Is(err, tc.wantErr) || !strings.Contains(err.Error(), path) {
			t.Fatalf("got %s, err %v; want a refusal naming %s wrapping %v", f.name(got.Commit), err, path, tc.wantErr)
		}
		return
	}
	if err != nil || got.Commit != f.at(tc.want) {
		t.Fatalf("got %s, err %v; want %s", f.name(got.Commit), err, tc.want)
	}
	if got.Meta.Op != f.trailer(got.Commit, "Edit-Op") {
		t.Fatalf("target's op %q, git reads %q", got.Meta.Op, f.trailer(got.Commit, "Edit-Op"))
	}
}

func TestLatest(t *testing.T) {
	fg := edit("fg", put("f.txt", "1\n"), put("g.txt", "g1\n"))
	e1, g1 := edit("e1", put("f.txt", "1\n")), edit("g1", put("g.txt", "g1\n"))
	cases := []struct {
		name      string
		steps     []step
		redo      bool
		depth     int
		want      string
		wantPaths []string
		wantErr   error
	}{
		{name: "the newest edit", steps: []step{e1, g1}, want: "g1", wantPaths: []string{"g.txt"}},
		{name: "an undone edit is passed by", steps: []step{e1, g1, undone("ug", "g1", put("g.txt", "g0\n"))}, want: "e1", wantPaths: []string{"f.txt"}},
		{name: "a commit of two paths, for both", steps: []step{fg}, want: "fg", wantPaths: []string{"f.txt", "g.txt"}},
		{name: "a commit of two paths undone for one, for the other", steps: []step{fg, undone("uf", "fg", put("f.txt", "0\n"))}, want: "fg", wantPaths: []string{"g.txt"}},
		{name: "a commit of two paths after a newer edit of one was undone", steps: []step{fg, edit("f2", put("f.txt", "2\n")), undone("uf2", "f2", put("f.txt", "1\n"))}, want: "fg", wantPaths: []string{"f.txt", "g.txt"}},
		{name: "an edit cancelled on its path is passed by", steps: []step{fg, edit("f2", put("f.txt", "2\n")), edit("g2", put("g.txt", "g2\n")), undone("ug2", "g2", put("g.txt", "g1\n"))}, want: "f2", wantPaths: []string{"f.txt"}},
		{name: "everything undone", steps: []step{e1, undone("u1", "e1", put("f.txt", "0\n"))}, wantErr: undo.ErrNothingToUndo},
		{name: "a sync is never undone", steps: []step{outside("s", put("f.txt", "p\n")), g1, undone("ug", "g1", put("g.txt", "g0\n"))}, wantErr: undo.ErrNothingToUndo},
		{name: "depth reached is reported", depth: 2, steps: []step{e1, edit("e2", put("f.txt", "2\n")), edit("e3", put("f.txt", "3\n")), undone("u3", "e3", put("f.txt", "2\n")), undone("u2", "e2", put("f.txt", "1\n"))}, wantErr: undo.ErrUndoDepth},
		{name: "redo: the newest undo", redo: true, steps: []step{e1, g1, undone("uf", "e1", put("f.txt", "0\n")), undone("ug", "g1", put("g.txt", "g0\n"))}, want: "ug", wantPaths: []string{"g.txt"}},
		{name: "redo: a redone undo is passed by", redo: true, steps: []step{e1, g1, undone("uf", "e1", put("f.txt", "0\n")), undone("ug", "g1", put("g.txt", "g0\n")), redone("rg", "ug", put("g.txt", "g1\n"))}, want: "uf", wantPaths: []string{"f.txt"}},
		{name: "redo: nothing undone", redo: true, steps: []step{e1}, wantErr: undo.ErrNothingToRedo},
		{name: "redo: an edit since the undo", redo: true, steps: []step{e1, undone("u1", "e1", put("f.txt", "0\n")), edit("e2", put("f.txt", "2\n"))}, wantErr: undo.ErrNothingToRedo},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.run(tc.steps...)
			got, paths, err := undo.Latest(f.s, f.tip(), tc.redo, tc.depth)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("got %s %v, err %v; want %v", f.name(got.Commit), paths, err, tc.wantErr)
				}
				return
			}
			if err != nil || got.Commit != f.at(tc.want) || !slices.Equal(paths, tc.wantPaths) {
				t.Fatalf("got %s %v, err %v; want %s %v", f.name(got.Commit), paths, err, tc.want, tc.wantPaths)
			}
		})
	}
}

// action is one undo or redo planned by the code under test and applied;
// the commit it records is named name.
type action struct {
	name, verb, path string // verb: undo, redo, or latest-undo (no path: PlanRevert of Latest)
	depth            int
	want             string // the step reverted
	wantErr          error
	// wantFile is path's bytes afterwards, on disk and in the tip
	// (gittest.Missing: removed); wantOthers those of other paths.
	wantFile   string
	wantOthers map[string]string
}

// TestPlanUndoRedo applies the plans under the session's lock and checks
// with git what they wrote and recorded; a refusal leaves ref and files as
// they were.
func TestPlanUndoRedo(t *testing.T) {
	cases := []struct {
		name    string
		steps   []step
		actions []action
	}{
		{
			name:  "stack order, redo, undo of the redo",
			steps: []step{edit("e1", put("f.txt", "1\n")), edit("e2", put("f.txt", "2\n")), edit("e3", put("f.txt", "3\n"))},
			actions: []action{
				{name: "u3", verb: "undo", path: "f.txt", want: "e3", wantFile: "2\n"},
				{name: "u2", verb: "undo", path: "f.txt", want: "e2", wantFile: "1\n"},
				{name: "r2", verb: "redo", path: "f.txt", want: "u2", wantFile: "2\n"},
				{name: "ur2", verb: "undo", path: "f.txt", want: "r2", wantFile: "1\n"},
				{name: "u1", verb: "undo", path: "f.txt", want: "e1", wantFile: "0\n"},
				{name: "none", verb: "undo", path: "f.txt", wantErr: undo.ErrNothingToUndo, wantFile: "0\n"},
				{name: "r1", verb: "redo", path: "f.txt", want: "u1", wantFile: "1\n"},
			},
		},
		{
			name:  "depth refuses and changes nothing",
			steps: []step{edit("e1", put("f.txt", "1\n")), edit("e2", put("f.txt", "2\n")), edit("e3", put("f.txt", "3\n"))},
			actions: []action{
				{name: "u3", verb: "undo", path: "f.txt", depth: 2, want: "e3", wantFile: "2\n"},
				{name: "u2", verb: "undo", path: "f.txt", depth: 2, want: "e2", wantFile: "1\n"},
				{name: "deep", verb: "undo", path: "f.txt", depth: 2, wantErr: undo.ErrUndoDepth, wantFile: "1\n"},
				{name: "u1", verb: "undo", path: "f.txt", depth: 3, want: "e1", wantFile: "0\n"},
			},
		},
		{
			name:  "a created file is removed and comes back",
			steps: []step{edit("n1", put("n.txt", "new\n"))},
			actions: []action{
				{name: "un", verb: "undo", path: "n.txt", want: "n1", wantFile: gittest.Missing},
				{name: "rn", verb: "redo", path: "n.txt", want: "un", wantFile: "new\n"},
			},
		},
		{
			name:  "a deleted file comes back",
			steps: []step{edit("e1", put("f.txt", "1\n")), edit("d", del("f.txt"))},
			actions: []action{
				{name: "ud", verb: "undo", path: "f.txt", want: "d", wantFile: "1\n"},
				{name: "rd", verb: "redo", path: "f.txt", want: "ud", wantFile: gittest.Missing},
			},
		},
		{
			name:  "undo without a path reverts a commit of two paths for both",
			steps: []step{edit("e1", put("f.txt", "1\n")), edit("fg", put("f.txt", "2\n"), put("g.txt", "g1\n"))},
			actions: []action{
				{name: "ufg", verb: "latest-undo", path: "g.txt", want: "fg", wantFile: "g0\n", wantOthers: map[string]string{"f.txt": "1\n"}},
				{name: "u1", verb: "latest-undo", path: "f.txt", want: "e1", wantFile: "0\n"},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.run(tc.steps...)
			for _, a := range tc.actions {
				before := f.tip()
				target, err := f.revert(a)
				if a.wantErr != nil {
					if !errors.Is(err, a.wantErr) || f.tip() != before {
						t.Fatalf("%s: err %v, tip %s; want %v and the tip unchanged", a.name, err, f.name(f.tip()), a.wantErr)
					}
				} else {
					if err != nil || target != f.at(a.want) {
						t.Fatalf("%s: reverted %s, err %v; want %s", a.name, f.name(target), err, a.want)
					}
					f.steps[a.name] = f.tip()
					if undoes := f.trailer(f.tip(), "Edit-Undoes"); undoes != target.String() {
						t.Fatalf("%s: Edit-Undoes %q, want %s", a.name, undoes, target)
					}
				}
				want := map[string]string{a.path: a.wantFile}
				maps.Copy(want, a.wantOthers)
				for path, content := range want {
					if disk, rec := gittest.ReadFile(t, f.dir, path), f.show(f.tip(), path); disk != content || rec != content {
						t.Fatalf("%s: %s is %q on disk, %q in the tip; want %q", a.name, path, disk, rec, content)
					}
				}
			}
			gittest.Fsck(t, f.dir)
		})
	}
}

// revert plans and applies a's undo or redo, returning the commit reverted.
func (f *fixture) revert(a action) (plumbing.Hash, error) {
	f.t.Helper()
	tip := f.tip()
	var latest undo.Target
	var paths []string
	if a.verb == "latest-undo" {
		var err error
		if latest, paths, err = undo.Latest(f.s, tip, false, a.depth); err != nil {
			return plumbing.ZeroHash, err
		}
	}
	var target undo.Target
	_, err := f.apply(session.RefuseOutside, func(tx *session.Tx) (session.Plan, error) {
		var pl session.Plan
		var err error
		switch a.verb {
		case "undo":
			pl, target, err = undo.PlanUndo(tx, f.s, a.path, a.depth, "test.undo")
		case "redo":
			pl, target, err = undo.PlanRedo(tx, f.s, a.path, "test.redo")
		default:
			target = latest
			pl, err = undo.PlanRevert(tx, f.s, tip, latest, paths, session.OpUndo, "test.undo")
		}
		return pl, err
	})
	return target.Commit, err
}

// TestPlanRevertRefusesAMovedSession: a target chosen on one tip is not
// reverted once the session moved on; nothing is written.
func TestPlanRevertRefusesAMovedSession(t *testing.T) {
	f := newFixture(t)
	f.run(edit("e1", put("f.txt", "1\n")))
	tip := f.tip()
	target, paths, err := undo.Latest(f.s, tip, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.run(edit("g1", put("g.txt", "g1\n")))
	_, err = f.apply(session.RefuseOutside, func(tx *session.Tx) (session.Plan, error) {
		return undo.PlanRevert(tx, f.s, tip, target, paths, session.OpUndo, "test.undo")
	})
	if !errors.Is(err, undo.ErrMoved) || !strings.Contains(err.Error(), sessionName) {
		t.Fatalf("err = %v, want ErrMoved naming the session", err)
	}
	if f.tip() != f.at("g1") || gittest.ReadFile(t, f.dir, "f.txt") != "1\n" {
		t.Fatalf("refused revert changed something: tip %s, f.txt %q", f.name(f.tip()), gittest.ReadFile(t, f.dir, "f.txt"))
	}
}
