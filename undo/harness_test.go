package undo_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/go-git/go-git/v5/plumbing"
)

// The tests build a session's history on a real repository, one step at a
// time, and name every commit by the step that made it, so that each case
// writes its expected answer out by hand ("the commit of step e2"). Undo,
// redo and rollback steps are recorded with the op and trailers the case
// gives (see step), not planned by the code under test: a history is built
// without the rules it is then asked about.

// sessionName is the session every fixture records in.
const sessionName = "h"

// basePaths are the files of the commit the session starts from; n.txt is
// not among them, so a session that writes it creates it.
var basePaths = map[string]string{"f.txt": "0\n", "g.txt": "g0\n"}

// fixture is a repository whose HEAD holds basePaths, with session h.
type fixture struct {
	t    *testing.T
	dir  string
	s    *session.Session
	base plumbing.Hash // HEAD when the session started
	// steps maps a step's name to the commit it recorded.
	steps map[string]plumbing.Hash
	// pendingSync names the sync commit the next recorded step makes of
	// the person's change on disk (see outside).
	pendingSync string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := gittest.NewWithCommit(t, basePaths)
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.New(r, sessionName)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, dir: dir, s: s, base: plumbing.NewHash(gittest.Rev(t, dir, "HEAD")), steps: map[string]plumbing.Hash{}}
}

// change is one path's new state in a step: content, or removed.
type change struct {
	path, content string
	del           bool
}

func put(path, content string) change { return change{path: path, content: content} }
func del(path string) change          { return change{path: path, del: true} }

// step is one thing that happens to the session: a commit with op (its
// Edit-Undoes naming step undoes, its Edit-Rollback-To step rollbackTo or
// "start"), or, with op "", the person changing files on disk outside
// git-edit, which the next recorded step records first as sync commit name.
type step struct {
	name, op, undoes, rollbackTo string
	// also are further steps an undo takes back (Edit-Undoes after
	// undoes'), newest first, as an undo of a turn names them.
	also []string
	// turn is the Edit-Turn of an edit ("": none).
	turn    string
	changes []change
}

func edit(name string, cs ...change) step { return step{name: name, op: session.OpEdit, changes: cs} }
func outside(name string, cs ...change) step {
	return step{name: name, changes: cs}
}

// undone is an undo commit reversing step target with the given changes.
func undone(name, target string, cs ...change) step {
	return step{name: name, op: session.OpUndo, undoes: target, changes: cs}
}

// redone is a redo commit reversing undo step target.
func redone(name, target string, cs ...change) step {
	return step{name: name, op: session.OpRedo, undoes: target, changes: cs}
}

// rolledBack is a rollback commit returning to step to ("start": before
// the session).
func rolledBack(name, to string, cs ...change) step {
	return step{name: name, op: session.OpRollback, rollbackTo: to, changes: cs}
}

// run performs the steps in order.
func (f *fixture) run(steps ...step) {
	f.t.Helper()
	for _, st := range steps {
		if _, dup := f.steps[st.name]; dup || st.name == "" {
			f.t.Fatalf("step name %q is empty or used twice", st.name)
		}
		if st.op == "" {
			f.writeDisk(st.changes)
			f.pendingSync = st.name
			continue
		}
		f.record(st)
	}
}

func (f *fixture) writeDisk(cs []change) {
	f.t.Helper()
	for _, c := range cs {
		if c.del {
			if err := os.Remove(filepath.Join(f.dir, c.path)); err != nil {
				f.t.Fatal(err)
			}
			continue
		}
		gittest.WriteFile(f.t, f.dir, c.path, c.content)
	}
}

// record commits st through session.Apply, as an operation of git-edit
// would, recording first any change the person made on disk.
func (f *fixture) record(st step) {
	f.t.Helper()
	meta := session.Meta{Op: st.op, Tool: "test." + st.op, Turn: st.turn}
	switch st.rollbackTo {
	case "":
	case "start":
		meta.RollbackTo = "start"
	default:
		meta.RollbackTo = f.at(st.rollbackTo).String()
	}
	if st.undoes != "" {
		meta.Undoes = f.at(st.undoes)
	}
	for _, a := range st.also {
		meta.AlsoUndoes = append(meta.AlsoUndoes, f.at(a))
	}
	var changes []session.Change
	for _, c := range st.changes {
		changes = append(changes, session.Change{Path: c.path, Delete: c.del, Content: []byte(c.content)})
	}
	out, err := f.apply(session.RecordOutside, func(*session.Tx) (session.Plan, error) {
		return session.Plan{Changes: changes, Subject: st.name, Meta: meta}, nil
	})
	if err != nil {
		f.t.Fatalf("step %s: %v", st.name, err)
	}
	if out.Commit.IsZero() {
		f.t.Fatalf("step %s changed nothing", st.name)
	}
	if !out.Sync.IsZero() {
		if f.pendingSync == "" {
			f.t.Fatalf("step %s recorded a sync commit no step made", st.name)
		}
		f.steps[f.pendingSync] = out.Sync
	}
	f.pendingSync = ""
	f.steps[st.name] = out.Commit
}

// apply runs plan on the session over every file the tests use.
func (f *fixture) apply(policy session.OutsidePolicy, plan func(*session.Tx) (session.Plan, error)) (session.Outcome, error) {
	f.t.Helper()
	var paths []repo.Path
	for _, rel := range []string{"f.txt", "g.txt", "n.txt"} {
		p, err := f.s.Repo.Resolve(f.dir, rel)
		if err != nil {
			f.t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return f.s.Apply(context.Background(), paths, policy, plan)
}

// at is the commit step name made ("base": the commit the session started
// from).
func (f *fixture) at(name string) plumbing.Hash {
	f.t.Helper()
	if name == "base" {
		return f.base
	}
	h, ok := f.steps[name]
	if !ok {
		f.t.Fatalf("no step %q", name)
	}
	return h
}

// name is the step that made commit h, for messages and comparisons.
func (f *fixture) name(h plumbing.Hash) string {
	switch {
	case h.IsZero():
		return "(none)"
	case h == f.base:
		return "base"
	}
	for n, c := range f.steps {
		if c == h {
			return n
		}
	}
	return h.String()[:12]
}

// names lists the steps of commits, in order.
func (f *fixture) names(commits []session.Commit) string {
	var out []string
	for _, c := range commits {
		out = append(out, f.name(c.Hash))
	}
	return strings.Join(out, " ")
}

// tip is the session's ref, as git resolves it.
func (f *fixture) tip() plumbing.Hash {
	f.t.Helper()
	return plumbing.NewHash(gittest.Rev(f.t, f.dir, session.RefName(sessionName)))
}

// show is path in commit rev as git shows it, or gittest.Missing.
func (f *fixture) show(rev plumbing.Hash, path string) string {
	f.t.Helper()
	out, err := gittest.GitErr(f.dir, "cat-file", "blob", fmt.Sprintf("%s:%s", rev, path))
	if err != nil {
		if gittest.Rev(f.t, f.dir, rev.String()+":"+path) == "" {
			return gittest.Missing
		}
		f.t.Fatalf("git cat-file %s:%s: %v\n%s", rev, path, err, out)
	}
	return out
}

// trailer is the value of one trailer of commit rev, as git reads it.
func (f *fixture) trailer(rev plumbing.Hash, key string) string {
	f.t.Helper()
	return strings.TrimSpace(gittest.Git(f.t, f.dir, "log", "-1", "--format=%(trailers:key="+key+",valueonly,separator=%x20)", rev.String()))
}

// reader reads the session's recorded files outside a transaction.
func (f *fixture) reader() *session.Reader {
	f.t.Helper()
	r, err := f.s.Reader(context.Background())
	if err != nil {
		f.t.Fatal(err)
	}
	return r
}
