package undo_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/git-edit/git-edit/undo"
	"github.com/go-git/go-git/v5/plumbing"
)

func TestPrepareRollback(t *testing.T) {
	cases := []struct {
		name  string
		steps []step
		to    string // a step, or "start"
		want  string // every touched path and the bytes it returns to
	}{
		{name: "to the start", to: "start", want: `f.txt="0\n" g.txt="g0\n" n.txt=<missing>`},
		{name: "to the first edit: later paths go to their start", to: "e1", want: `f.txt="1\n" g.txt="g0\n" n.txt=<missing>`},
		{name: "to an edit of another path", to: "g1", want: `f.txt="1\n" g.txt="g1\n" n.txt=<missing>`},
		{name: "to a middle edit", to: "e2", want: `f.txt="2\n" g.txt="g1\n" n.txt=<missing>`},
		{name: "to the tip", to: "n1", want: `f.txt="2\n" g.txt="g1\n" n.txt="new\n"`},
		{name: "to the start, a sync first", to: "start", steps: []step{outside("s", put("f.txt", "p\n")), edit("e1", put("f.txt", "1\n"))}, want: `f.txt="p\n"`},
		{name: "to the start, a deleted file", to: "start", steps: []step{edit("d", del("f.txt"))}, want: `f.txt="0\n"`},
		{name: "to a deletion", to: "d", steps: []step{edit("d", del("f.txt")), edit("e1", put("f.txt", "1\n"))}, want: `f.txt=<missing>`},
	}
	standard := []step{edit("e1", put("f.txt", "1\n")), edit("g1", put("g.txt", "g1\n")), edit("e2", put("f.txt", "2\n")), edit("n1", put("n.txt", "new\n"))}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			if tc.steps == nil {
				tc.steps = standard
			}
			f.run(tc.steps...)
			rb, err := undo.PrepareRollback(f.s, f.tip(), f.rollbackTo(tc.to))
			if err != nil {
				t.Fatal(err)
			}
			targets, err := rb.Targets(f.reader())
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, fs := range targets {
				got = append(got, fmt.Sprintf("%s=%s", fs.Path, quoted(fs.Exists, fs.Content)))
			}
			if strings.Join(got, " ") != tc.want || rb.Base != f.base || rb.Tip != f.tip() {
				t.Fatalf("targets %s, base %s, tip %s\nwant    %s, base, the tip", strings.Join(got, " "), f.name(rb.Base), f.name(rb.Tip), tc.want)
			}
		})
	}
}

func quoted(exists bool, b []byte) string {
	if !exists {
		return gittest.Missing
	}
	return fmt.Sprintf("%q", b)
}

func (f *fixture) rollbackTo(step string) plumbing.Hash {
	if step == "start" {
		return plumbing.ZeroHash
	}
	return f.at(step)
}

// TestPlanRollback plans and applies rollbacks under the session's lock
// (refusing paths changed on disk unless forced, as git-edit does) and
// checks with git what they wrote, or that a refusal left everything as it
// was.
func TestPlanRollback(t *testing.T) {
	e1, e2, e3 := edit("e1", put("f.txt", "1\n")), edit("e2", put("f.txt", "2\n")), edit("e3", put("f.txt", "3\n"))
	personCommits := func(f *fixture) { // the person commits what is on disk
		gittest.Git(f.t, f.dir, "commit", "-q", "-am", "the person's commit")
		f.steps["P"] = plumbing.NewHash(gittest.Rev(f.t, f.dir, "HEAD"))
	}
	cases := []rollbackCase{
		{name: "the agent's edits only", steps: []step{e1, edit("n1", put("n.txt", "new\n"))}, to: "start", wantFiles: `f.txt="0\n" n.txt=<missing>`},
		{name: "to a commit", steps: []step{e1, e2}, to: "e1", wantFiles: `f.txt="1\n"`},
		{name: "a sync in the range refuses", steps: []step{e1, outside("s", put("f.txt", "p\n")), e2}, to: "start",
			wantErr: undo.ErrPersonsWork, wantDiscards: "sync f.txt s", wantFiles: `f.txt="2\n"`},
		{name: "a sync in the range, forced", steps: []step{e1, outside("s", put("f.txt", "p\n")), e2}, to: "start", force: true,
			wantDiscards: "sync f.txt s", wantFiles: `f.txt="0\n"`},
		{name: "a sync before the commit returned to", steps: []step{e1, outside("s", put("f.txt", "p\n")), e2, e3}, to: "e2", wantFiles: `f.txt="2\n"`},
		{name: "a sync that first touched the path is the start", steps: []step{outside("s", put("f.txt", "p\n")), e1}, to: "start", wantFiles: `f.txt="p\n"`},
		{name: "a sync an earlier rollback reverted", steps: []step{e1, outside("s", put("f.txt", "p\n")), e2, rolledBack("rb", "e1", put("f.txt", "1\n")), e3}, to: "start", wantFiles: `f.txt="0\n"`},
		// An undo of that earlier rollback brings the sync back on disk:
		// the rollback no longer hides it; a redo of the rollback hides
		// it again.
		{name: "a sync an undone rollback had reverted", steps: []step{e1, outside("s", put("f.txt", "p\n")), e2, rolledBack("rb", "e1", put("f.txt", "1\n")), undone("u", "rb", put("f.txt", "2\n"))}, to: "start",
			wantErr: undo.ErrPersonsWork, wantDiscards: "sync f.txt s", wantFiles: `f.txt="2\n"`},
		{name: "a sync a redone rollback reverted", steps: []step{e1, outside("s", put("f.txt", "p\n")), e2, rolledBack("rb", "e1", put("f.txt", "1\n")), undone("u", "rb", put("f.txt", "2\n")), redone("r", "u", put("f.txt", "1\n"))}, to: "start",
			wantFiles: `f.txt="0\n"`},
		// An undo past a sync (forced) removed it from disk already.
		{name: "a sync an undo removed", steps: []step{e1, outside("s", put("f.txt", "p\n")), undone("u", "e1", put("f.txt", "0\n")), e2}, to: "start",
			wantFiles: `f.txt="0\n"`},
		{name: "a sync after an earlier rollback to the start", steps: []step{e1, rolledBack("rb", "start", put("f.txt", "0\n")), outside("s", put("f.txt", "p\n")), e2}, to: "start",
			wantErr: undo.ErrPersonsWork, wantDiscards: "sync f.txt s", wantFiles: `f.txt="2\n"`},
		{name: "a sync of a path the rollback leaves as it is", steps: []step{e1, outside("s", put("f.txt", "0\n")), edit("g1", put("g.txt", "g1\n"))}, to: "start", wantFiles: `f.txt="0\n" g.txt="g0\n"`},
		{name: "HEAD holds a change the rollback reverts", steps: []step{e1}, person: personCommits, to: "start",
			wantErr: undo.ErrPersonsWork, wantDiscards: "head f.txt P", wantFiles: `f.txt="1\n"`},
		{name: "HEAD holds a change the rollback reverts, forced", steps: []step{e1}, person: personCommits, to: "start", force: true,
			wantDiscards: "head f.txt P", wantFiles: `f.txt="0\n"`},
		{name: "HEAD holds what the rollback writes", steps: []step{e1}, person: func(f *fixture) { personCommits(f); f.run(e2) }, to: "e1", wantFiles: `f.txt="1\n"`},
		{name: "changed on disk refuses", steps: []step{e1, outside("s", put("f.txt", "p\n"))}, to: "start",
			wantErr: &session.OutsideChangeError{}, wantFiles: `f.txt="p\n"`},
		{name: "changed on disk, forced", steps: []step{e1, outside("s", put("f.txt", "p\n"))}, to: "start", force: true,
			wantDiscards: "disk f.txt (none)", wantFiles: `f.txt="0\n"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { runRollbackCase(t, tc) })
	}
}

// rollbackCase is one rollback planned and applied on a history.
type rollbackCase struct {
	name   string
	steps  []step
	person func(*fixture) // what the person does after the steps
	to     string
	force  bool
	// wantDiscards lists "kind path commit-step"; wantFiles the
	// files on disk afterwards (and in the tip, unless refused).
	wantDiscards string
	wantErr      error
	wantFiles    string
}

// runRollbackCase builds tc's history, plans and applies its rollback
// under the session's lock, and checks with git what it wrote, or that a
// refusal left files and ref as they were.
func runRollbackCase(t *testing.T, tc rollbackCase) {
	f := newFixture(t)
	f.run(tc.steps...)
	if tc.person != nil {
		tc.person(f)
	}
	before := f.tip()
	rb, err := undo.PrepareRollback(f.s, before, f.rollbackTo(tc.to))
	if err != nil {
		t.Fatal(err)
	}
	policy := session.RefuseOutside
	if tc.force {
		policy = session.RecordOutside
	}
	var discards []undo.Discard
	_, err = f.apply(policy, func(tx *session.Tx) (session.Plan, error) {
		pl, d, err := undo.PlanRollback(tx, f.s, rb, tc.force, "test.rollback")
		discards = d
		return pl, err
	})
	var refusal *undo.PersonsWorkError
	if errors.As(err, &refusal) {
		discards = refusal.Discards
	}
	var got []string
	for _, d := range discards {
		got = append(got, fmt.Sprintf("%s %s %s", d.Kind, d.Path, f.name(d.Commit)))
	}
	if strings.Join(got, ", ") != tc.wantDiscards {
		t.Fatalf("discards %q, want %q", strings.Join(got, ", "), tc.wantDiscards)
	}
	switch {
	case tc.wantErr != nil:
		if !isRefusal(err, tc.wantErr) {
			t.Fatalf("err %v, want %T %v", err, tc.wantErr, tc.wantErr)
		}
		if f.tip() != before {
			t.Fatalf("refused rollback moved the ref to %s", f.name(f.tip()))
		}
		if refusal != nil && (!strings.Contains(err.Error(), "--force") || !strings.Contains(err.Error(), refusal.Discards[0].String())) {
			t.Fatalf("refusal does not list what it would discard and say what to do:\n%v", err)
		}
	case err != nil:
		t.Fatal(err)
	default:
		f.checkRollbackCommit(tc.to, got)
	}
	f.checkFiles(tc.wantFiles, err == nil)
}

// isRefusal reports whether err is the refusal want: the same sentinel, or
// for a *session.OutsideChangeError one of that type.
func isRefusal(err, want error) bool {
	var outside *session.OutsideChangeError
	if errors.As(want, &outside) {
		return errors.As(err, &outside)
	}
	return errors.Is(err, want)
}

// checkRollbackCommit reads with git the rollback commit at the tip: its
// Edit-Rollback-To, and a subject that names the discarded paths.
func (f *fixture) checkRollbackCommit(to string, discards []string) {
	f.t.Helper()
	tip := f.tip()
	wantTo := "start"
	if to != "start" {
		wantTo = f.at(to).String()
	}
	if op, got := f.trailer(tip, "Edit-Op"), f.trailer(tip, "Edit-Rollback-To"); op != session.OpRollback || got != wantTo {
		f.t.Fatalf("tip has Edit-Op %q, Edit-Rollback-To %q; want rollback, %s", op, got, wantTo)
	}
	subject := gittest.Git(f.t, f.dir, "log", "-1", "--format=%s", tip.String())
	if discarding := strings.Contains(subject, "discarding the person's changes to f.txt"); discarding != (len(discards) > 0) {
		f.t.Fatalf("subject %q; discards %v", subject, discards)
	}
}

// checkFiles compares want ("path=bytes ...") with the files on disk and,
// with inTip, in the session's tip too.
func (f *fixture) checkFiles(want string, inTip bool) {
	f.t.Helper()
	for _, pair := range strings.Split(want, " ") {
		path, content, _ := strings.Cut(pair, "=")
		disk, rec := gittest.ReadFile(f.t, f.dir, path), f.show(f.tip(), path)
		if disk != gittest.Missing {
			disk = fmt.Sprintf("%q", disk)
		}
		if rec != gittest.Missing {
			rec = fmt.Sprintf("%q", rec)
		}
		if disk != content || inTip && rec != content {
			f.t.Fatalf("%s is %s on disk, %s in the tip; want %s", path, disk, rec, content)
		}
	}
}

// TestPlanRollbackRefusesAMovedSession: targets worked out on one tip are
// not applied once the session moved on; nothing is written.
func TestPlanRollbackRefusesAMovedSession(t *testing.T) {
	f := newFixture(t)
	f.run(edit("e1", put("f.txt", "1\n")))
	rb, err := undo.PrepareRollback(f.s, f.tip(), plumbing.ZeroHash)
	if err != nil {
		t.Fatal(err)
	}
	f.run(edit("e2", put("f.txt", "2\n")))
	_, err = f.apply(session.RefuseOutside, func(tx *session.Tx) (session.Plan, error) {
		pl, _, err := undo.PlanRollback(tx, f.s, rb, false, "test.rollback")
		return pl, err
	})
	if !errors.Is(err, undo.ErrMoved) {
		t.Fatalf("err = %v, want ErrMoved", err)
	}
	if f.tip() != f.at("e2") {
		t.Fatalf("tip moved to %s", f.name(f.tip()))
	}
	f.checkFiles(`f.txt="2\n"`, true)
}

// TestAttackRollbackAfterSelectiveUndo: an undo takes back only the change
// of the commits it names and keeps the person's lines a sync recorded
// after them, so a rollback past it would remove those lines from disk: it
// refuses, whether the undo named one edit or a whole turn, and whatever it
// returns to. Only an undo that put the file back whole removed them.
func TestAttackRollbackAfterSelectiveUndo(t *testing.T) {
	e0 := edit("e0", put("f.txt", "a\nb\nc\nd\n"))
	e1 := edit("e1", put("f.txt", "A\nb\nc\nd\n"))
	e1b := edit("e1b", put("f.txt", "A\nb\nc\nD\n"))
	s := outside("s", put("f.txt", "A\nb\nP\nD\n"))
	e2 := edit("e2", put("f.txt", "A\nB\nP\nD\n"))
	one := []step{e0, e1, s, e2, undone("u", "e1", put("f.txt", "a\nB\nP\nD\n"))}
	turn := []step{e0, e1, e1b, s, e2, {name: "u", op: session.OpUndo, undoes: "e1b", also: []string{"e1"}, changes: []change{put("f.txt", "a\nB\nP\nd\n")}}}
	cases := []rollbackCase{
		{name: "undo of one edit, to the start", steps: one, to: "start",
			wantErr: undo.ErrPersonsWork, wantDiscards: "sync f.txt s", wantFiles: `f.txt="a\nB\nP\nD\n"`},
		{name: "undo of one edit, to an edit before the sync", steps: one, to: "e0",
			wantErr: undo.ErrPersonsWork, wantDiscards: "sync f.txt s", wantFiles: `f.txt="a\nB\nP\nD\n"`},
		{name: "undo of one edit, forced", steps: one, to: "e0", force: true,
			wantDiscards: "sync f.txt s", wantFiles: `f.txt="a\nb\nc\nd\n"`},
		{name: "undo of one edit, to an edit after the sync", steps: one, to: "e2", wantFiles: `f.txt="A\nB\nP\nD\n"`},
		{name: "undo of a turn, to the start", steps: turn, to: "start",
			wantErr: undo.ErrPersonsWork, wantDiscards: "sync f.txt s", wantFiles: `f.txt="a\nB\nP\nd\n"`},
		{name: "undo of a turn, to an edit before the sync", steps: turn, to: "e0",
			wantErr: undo.ErrPersonsWork, wantDiscards: "sync f.txt s", wantFiles: `f.txt="a\nB\nP\nd\n"`},
		{name: "undo of a turn that put the file back whole", to: "e0",
			steps:     []step{e0, e1, e1b, s, e2, {name: "u", op: session.OpUndo, undoes: "e1b", also: []string{"e1"}, changes: []change{put("f.txt", "a\nb\nc\nd\n")}}, edit("e3", put("f.txt", "a\nb\nc\nd\ne\n"))},
			wantFiles: `f.txt="a\nb\nc\nd\n"`},
		{name: "a redo of the undo", to: "e0",
			steps:   append(append([]step{}, one...), redone("r", "u", put("f.txt", "A\nB\nP\nD\n"))),
			wantErr: undo.ErrPersonsWork, wantDiscards: "sync f.txt s", wantFiles: `f.txt="A\nB\nP\nD\n"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { runRollbackCase(t, tc) })
	}
}

// TestAttackRollbackAfterPlannedUndo is the case end to end with
// the real planners: agent edit, the person changes a line, agent edit,
// selective undo of the first edit (planned by PickUndo and PlanSelective),
// then a plain rollback: refused, the person's line still on disk, the ref
// where it was.
func TestAttackRollbackAfterPlannedUndo(t *testing.T) {
	f := newFixture(t)
	f.run(edit("e0", put("f.txt", "a\nb\nc\nd\ne\nf\ng\nh\n")), edit("e1", put("f.txt", "A\nb\nc\nd\ne\nf\ng\nh\n")),
		outside("s", put("f.txt", "A\nb\nc\nd\ne\nf\ng\nP\n")), // the person's line 8
		edit("e2", put("f.txt", "A\nb\nc\nD\ne\nf\ng\nP\n")))
	tip := f.tip()
	r, err := undo.PickUndo(f.s, tip, f.at("e1").String())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.apply(session.RefuseOutside, func(tx *session.Tx) (session.Plan, error) {
		pl, err := undo.PlanSelectiveAt(tx, f.s, tip, []undo.Reversal{r}, session.OpUndo, "test.undo", false)
		return pl.Plan, err
	}); err != nil {
		t.Fatal(err)
	}
	f.checkFiles(`f.txt="a\nb\nc\nD\ne\nf\ng\nP\n"`, true)
	for _, to := range []string{"start", "e0"} {
		before, refs := f.tip(), gittest.Git(t, f.dir, "for-each-ref")
		rb, err := undo.PrepareRollback(f.s, before, f.rollbackTo(to))
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.apply(session.RefuseOutside, func(tx *session.Tx) (session.Plan, error) {
			pl, _, err := undo.PlanRollback(tx, f.s, rb, false, "test.rollback")
			return pl, err
		})
		var refusal *undo.PersonsWorkError
		if !errors.As(err, &refusal) || len(refusal.Discards) != 1 || refusal.Discards[0].Kind != undo.DiscardSync || f.name(refusal.Discards[0].Commit) != "s" {
			t.Fatalf("rollback to %s after a selective undo: err %v, want a refusal naming sync commit s", to, err)
		}
		if f.tip() != before || gittest.Git(t, f.dir, "for-each-ref") != refs {
			t.Fatalf("refused rollback to %s changed the refs", to)
		}
		f.checkFiles(`f.txt="a\nb\nc\nD\ne\nf\ng\nP\n"`, true)
	}
}
