package session_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
)

// snapshot is what a refusal must leave exactly as it was: the session's
// ref, and the files of both worktrees.
func snapshot(t *testing.T, dirs ...string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(gittest.Git(t, dirs[0], "for-each-ref", "refs/edits/"))
	for _, d := range dirs {
		for _, f := range []string{"a.txt", "b.txt"} {
			c, _ := os.ReadFile(filepath.Join(d, f))
			b.WriteString(d + "/" + f + ":" + string(c) + "\n")
		}
	}
	return b.String()
}

// TestAttackSessionFromAnotherWorktree: two worktrees of one repository,
// on branches whose a.txt differ, both using session default. The
// worktree that wrote it first owns it; an edit, a dry run, a record and
// a checkpoint from the other are refused before anything is read or
// written (ref and both worktrees' files byte for byte as they were),
// with a message naming both worktrees and the flag to use; the owner's
// audit (git diff HEAD refs/edits/default) shows only its own change.
// A session of its own works in the second worktree. A session written
// before owners were recorded is claimed by its next writer, and a
// session whose owner worktree was removed goes to the next writer.
func TestAttackSessionFromAnotherWorktree(t *testing.T) {
	a := gittest.NewWithCommit(t, map[string]string{"a.txt": "main\n", "b.txt": "b\n"})
	b := filepath.Join(t.TempDir(), "wt-b")
	gittest.Git(t, a, "worktree", "add", "-q", "-b", "other", b)
	must(t, os.WriteFile(filepath.Join(b, "a.txt"), []byte("other branch\n"), 0o644))
	gittest.Git(t, b, "commit", "-q", "-am", "other")
	ctx := context.Background()

	ra, sa := open(t, a, "default")
	if _, err := sa.Apply(ctx, resolve(t, ra, a, "a.txt"), session.RecordOutside, setContent("t", map[string]string{"a.txt": "main, edited\n"})); err != nil {
		t.Fatal(err)
	}
	topA, topB := ra.Top, ""

	rb, sb := open(t, b, "default")
	topB = rb.Top
	before := snapshot(t, a, b)
	refused := func(what string, err error) {
		t.Helper()
		var we *session.WorktreeError
		if !errors.As(err, &we) || !errors.Is(err, session.ErrOtherWorktree) {
			t.Fatalf("%s from the other worktree: %v, want a WorktreeError", what, err)
		}
		msg := err.Error()
		for _, want := range []string{"session default belongs to the worktree at " + topA, "this is the worktree at " + topB, "--session NAME", "--session default-wt-b"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: message %q does not say %q", what, msg, want)
			}
		}
		if got := snapshot(t, a, b); got != before {
			t.Errorf("%s: refused, but changed\n%s\nwas\n%s", what, got, before)
		}
	}
	_, err := sb.Apply(ctx, resolve(t, rb, b, "a.txt"), session.RecordOutside, setContent("t", map[string]string{"a.txt": "other, edited\n"}))
	refused("edit", err)
	_, err = sb.Preview(ctx, resolve(t, rb, b, "a.txt"), session.RecordOutside, setContent("t", map[string]string{"a.txt": "other, edited\n"}))
	refused("dry run", err)
	must(t, os.WriteFile(filepath.Join(b, "b.txt"), []byte("shell\n"), 0o644))
	before = snapshot(t, a, b)
	_, err = sb.Record(ctx, resolve(t, rb, b, "b.txt"), session.OpRecord, "", "")
	refused("record", err)
	_, err = sb.Checkpoint(ctx, "cp", false)
	refused("checkpoint", err)

	if diff := gittest.Git(t, a, "diff", "HEAD", "refs/edits/default"); !strings.Contains(diff, "+main, edited") || strings.Contains(diff, "other") {
		t.Errorf("the owner's audit shows another worktree's content:\n%s", diff)
	}
	if n := strings.Count(gittest.Git(t, a, "log", "--format=%s", "HEAD..refs/edits/default"), "\n"); n != 1 {
		t.Errorf("session default has %d commits, want 1 (its edit)", n)
	}

	// The second worktree's own session.
	_, sb2 := open(t, b, "default-wt-b")
	if _, err := sb2.Apply(ctx, resolve(t, rb, b, "a.txt"), session.RecordOutside, setContent("t", map[string]string{"a.txt": "other, edited\n"})); err != nil {
		t.Fatal(err)
	}
	if diff := gittest.Git(t, b, "diff", "HEAD", "refs/edits/default-wt-b"); !strings.Contains(diff, "+other, edited") || strings.Contains(diff, "main") {
		t.Errorf("the second worktree's session:\n%s", diff)
	}
	// The owner goes on writing its session.
	if _, err := sa.Apply(ctx, resolve(t, ra, a, "a.txt"), session.RecordOutside, setContent("t", map[string]string{"a.txt": "main, again\n"})); err != nil {
		t.Fatal(err)
	}

	// A session written before owners were recorded: its next writer
	// claims it, and the other worktree is then refused.
	must(t, os.Remove(filepath.Join(a, ".git", "git-edit", "sessions", "default", "worktree")))
	_, sb = open(t, b, "default")
	if _, err := sb.Checkpoint(ctx, "", false); err != nil {
		t.Fatalf("the next writer of a session with no owner: %v", err)
	}
	_, sa = open(t, a, "default")
	before = snapshot(t, a, b)
	_, err = sa.Apply(ctx, resolve(t, ra, a, "a.txt"), session.RecordOutside, setContent("t", map[string]string{"a.txt": "main, third\n"}))
	if !errors.Is(err, session.ErrOtherWorktree) || !strings.Contains(err.Error(), "belongs to the worktree at "+topB) {
		t.Errorf("after the claim, the first worktree: %v", err)
	}
	if got := snapshot(t, a, b); got != before {
		t.Errorf("refused, but changed\n%s\nwas\n%s", got, before)
	}

	// The owner worktree removed: the session goes to the next writer.
	gittest.Git(t, a, "worktree", "remove", "--force", b)
	_, sa = open(t, a, "default")
	if _, err := sa.Apply(ctx, resolve(t, ra, a, "a.txt"), session.RecordOutside, setContent("t", map[string]string{"a.txt": "main, third\n"})); err != nil {
		t.Errorf("the owner worktree removed: %v", err)
	}
	gittest.Git(t, a, "fsck", "--strict")
}
