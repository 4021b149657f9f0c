package session_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
)

// choose is session.Choose of the repository at dir.
func choose(t *testing.T, dir string) (session.Choice, error) {
	t.Helper()
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return session.Choose(r)
}

// setUpdated sets when session name's ref last moved, as Choose reads it:
// the modification times of its reflog and loose ref.
func setUpdated(t *testing.T, dir, name string, when time.Time) {
	t.Helper()
	for _, p := range []string{filepath.Join(dir, ".git", "logs", "refs", "edits", name), filepath.Join(dir, ".git", "refs", "edits", name)} {
		if err := os.Chtimes(p, when, when); err != nil {
			t.Fatal(err)
		}
	}
}

// Issue 23: which session a command means. Every writer notes its session
// as the worktree's current one; Choose returns it whatever the clocks
// say. Once it no longer exists (pruned), Choose falls back to the newest
// of the worktree's sessions by the ref's own update order (the tip's
// second, then the ref's file time to the nanosecond), and says why; a genuine tie is
// refused, naming both; a session of another worktree is never chosen.
func TestAttackChooseSession(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n"})
	if ch, err := choose(t, dir); err != nil || ch != (session.Choice{Name: "default"}) {
		t.Fatalf("no session: %+v %v", ch, err)
	}
	if err := editSession(t, dir, "b", "b2\n"); err != nil {
		t.Fatal(err)
	}
	if err := editSession(t, dir, "a", "a2\n"); err != nil {
		t.Fatal(err)
	}
	if err := editSession(t, dir, "c", "c2\n"); err != nil {
		t.Fatal(err)
	}
	// c wrote last; its ref even seems older than a's and b's.
	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	setUpdated(t, dir, "c", base)
	setUpdated(t, dir, "a", base.Add(2*time.Nanosecond))
	setUpdated(t, dir, "b", base.Add(time.Nanosecond))
	if ch, err := choose(t, dir); err != nil || ch.Name != "c" || ch.Why != "the last written in this worktree" {
		t.Fatalf("after c wrote: %+v %v", ch, err)
	}
	// c pruned: a, newer than b by one nanosecond, in the same second.
	gittest.Git(t, dir, "update-ref", "-d", "refs/edits/c")
	ch, err := choose(t, dir)
	if err != nil || ch.Name != "a" || ch.Why != "the newest of this worktree's sessions (c, the last written here, no longer exists)" {
		t.Fatalf("after c was pruned: %+v %v", ch, err)
	}
	// A genuine tie: refused, naming both. b is pointed at a's tip, so that
	// their commits' seconds are the same whatever second the edits ran in.
	gittest.Git(t, dir, "update-ref", "refs/edits/b", "refs/edits/a")
	setUpdated(t, dir, "a", base.Add(2*time.Nanosecond))
	setUpdated(t, dir, "b", base.Add(2*time.Nanosecond))
	if _, err := choose(t, dir); !errors.Is(err, session.ErrAmbiguousSession) || !strings.Contains(err.Error(), "sessions a, b of this worktree were last updated at the same instant") ||
		!strings.Contains(err.Error(), "choose one with --session NAME") {
		t.Fatalf("a tie: %v", err)
	}
	// b from another worktree (its owner) is not this worktree's.
	other := filepath.Join(t.TempDir(), "wt")
	gittest.Git(t, dir, "worktree", "add", "-q", "--detach", other)
	owner := filepath.Join(dir, ".git", "git-edit", "sessions", "b", "worktree")
	if err := os.WriteFile(owner, []byte("worktrees/wt\n"+other+"\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if ch, err := choose(t, dir); err != nil || ch.Name != "a" {
		t.Fatalf("with b another worktree's: %+v %v", ch, err)
	}
	// The other worktree has no current session of its own: it gets b.
	if ch, err := choose(t, other); err != nil || ch.Name != "b" {
		t.Fatalf("in the other worktree: %+v %v", ch, err)
	}
}

// The person's git gc rewrites every reflog (in name order) and packs the
// refs: the files' times then say nothing of which session moved last.
// With nothing noted as current, the session whose tip is newer is still
// the one chosen (before, an older session whose name sorted first was,
// and a bare record wrote into it).
func TestChooseSessionAfterThePersonsGC(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"aaa-old.txt": "a\n", "zzz-new.txt": "z\n"})
	if err := editSession(t, dir, "zzz-new", "z2\n"); err != nil {
		t.Fatal(err)
	}
	if err := editSession(t, dir, "aaa-old", "a2\n"); err != nil {
		t.Fatal(err)
	}
	// aaa-old's edit is rewritten to be a minute older than zzz-new's.
	old := gittest.Git(t, dir, "cat-file", "commit", "refs/edits/aaa-old")
	var when int64
	for _, l := range strings.Split(old, "\n") {
		if f := strings.Fields(l); len(f) > 2 && f[0] == "committer" {
			if _, err := fmt.Sscan(f[len(f)-2], &when); err != nil {
				t.Fatal(err)
			}
		}
	}
	older := strings.ReplaceAll(old, fmt.Sprint(when)+" ", fmt.Sprint(when-60)+" ")
	cmd := exec.Command("git", "hash-object", "-t", "commit", "-w", "--stdin")
	cmd.Dir, cmd.Env, cmd.Stdin = dir, gittest.Env(), strings.NewReader(older)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	h := strings.TrimSpace(string(out))
	gittest.Git(t, dir, "update-ref", "refs/edits/aaa-old", h)
	if err := os.Remove(filepath.Join(dir, ".git", "git-edit", "current")); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "gc", "-q")
	if ch, err := choose(t, dir); err != nil || ch.Name != "zzz-new" {
		t.Fatalf("after the person's gc: %+v %v", ch, err)
	}
}
