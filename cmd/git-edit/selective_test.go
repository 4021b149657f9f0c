package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// mergeFile is the reference: `git merge-file -p` on the three versions.
func mergeFile(t *testing.T, base, ours, theirs string) (string, bool) {
	t.Helper()
	d := t.TempDir()
	for name, c := range map[string]string{"base": base, "ours": ours, "theirs": theirs} {
		if err := os.WriteFile(filepath.Join(d, name), []byte(c), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("git", "merge-file", "-p", "ours", "base", "theirs")
	cmd.Dir = d
	out, err := cmd.Output()
	return string(out), err == nil
}

// tipOf is the session ref's commit.
func tipOf(t *testing.T, dir string) string {
	return strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "refs/edits/s"))
}

// Issue 16, "Done when": undo of the 2nd of 5 edits to one file keeps
// edits 3-5 and a person's later line elsewhere; the result is what git
// merge-file makes of the three versions; redo puts the edit back the same
// way; the undo named its target in Edit-Undoes and recorded the person's
// line first.
func TestSelectiveUndoOfTheSecondOfFive(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\n"})
	for _, e := range [][2]string{{"l1", "E1"}, {"l3", "E2"}, {"l5", "E3"}, {"l7", "E4"}, {"l9", "E5"}} {
		agentEdit(t, dir, "f.txt", e[0], e[1])
	}
	second := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "refs/edits/s~3"))
	gittest.WriteFile(t, dir, "f.txt", "E1\nl2\nE2\nl4\nE3\nl6\nE4\nl8\nE5\nperson\n")
	head := gittest.Snapshot(t, dir)

	before, after := gittest.Git(t, dir, "show", second+"~1:f.txt"), gittest.Git(t, dir, "show", second+":f.txt")
	want, clean := mergeFile(t, after, "E1\nl2\nE2\nl4\nE3\nl6\nE4\nl8\nE5\nperson\n", before)
	if !clean || want != "E1\nl2\nl3\nl4\nE3\nl6\nE4\nl8\nE5\nperson\n" {
		t.Fatalf("git merge-file gives %q (clean %v)", want, clean)
	}
	out := mustRun(t, dir, "", "undo", "--session", "s", second[:9])
	if !strings.Contains(out, "Undid text_editor.str_replace ("+second[:7]+"); the changes on disk were recorded first as ") {
		t.Fatalf("undo said %q", out)
	}
	if got := gittest.ReadFile(t, dir, "f.txt"); got != want {
		t.Fatalf("after undo of the 2nd edit f.txt = %q, want %q", got, want)
	}
	if got := gittest.Git(t, dir, "log", "-1", "--format=%(trailers:key=Edit-Undoes,valueonly)", "refs/edits/s"); strings.TrimSpace(got) != second {
		t.Fatalf("Edit-Undoes %q, want %s", got, second)
	}
	if got := gittest.Git(t, dir, "log", "-1", "--format=%s", "refs/edits/s~1"); !strings.HasPrefix(got, "sync: f.txt") {
		t.Fatalf("the person's line was not recorded first: %q", got)
	}
	if gittest.Snapshot(t, dir) != head {
		t.Fatal("undo changed HEAD, the index, branches, config or stash")
	}
	// undo EDIT again: done already, says by which undo.
	undo := tipOf(t, dir)
	r := runCLI(t, "", "undo", "--root", dir, "--session", "s", second[:9])
	if r.code != 1 || !strings.Contains(r.stderr, "was undone already (by "+undo[:7]+"); re-apply it with `git edit redo --session s "+undo[:7]+"`") {
		t.Fatalf("second undo of it: exit %d, stderr %q", r.code, r.stderr)
	}
	// A later edit, then redo of the undo by name: selective too.
	agentEdit(t, dir, "f.txt", "l8", "E6")
	mustRun(t, dir, "", "redo", "--session", "s", undo[:9])
	if got := gittest.ReadFile(t, dir, "f.txt"); got != "E1\nl2\nE2\nl4\nE3\nl6\nE4\nE6\nE5\nperson\n" {
		t.Fatalf("after redo f.txt = %q", got)
	}
	// tip~N names an edit too: the E6 edit is tip~1 now.
	mustRun(t, dir, "", "undo", "--session", "s", "tip~1")
	if got := gittest.ReadFile(t, dir, "f.txt"); got != "E1\nl2\nE2\nl4\nE3\nl6\nE4\nl8\nE5\nperson\n" {
		t.Fatalf("after undo tip~1 f.txt = %q", got)
	}
	gittest.Fsck(t, dir)
}

// A conflicting undo refuses, naming the lines of the file as it is now,
// and changes nothing (bytes, refs, reflog); --force records the person's
// bytes first, then puts the file back whole as it was before the edit.
func TestSelectiveUndoConflict(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "a\nb\nc\nd\n"})
	agentEdit(t, dir, "f.txt", "b", "B")
	edit := tipOf(t, dir)
	agentEdit(t, dir, "f.txt", "d", "D")
	gittest.WriteFile(t, dir, "f.txt", "a\nB by hand\nc\nD\n")
	frozen := freeze(t, dir, "f.txt")
	r := runCLI(t, "", "undo", "--root", dir, "--session", "s", edit[:8])
	if r.code != 1 || !strings.Contains(r.stderr, "undo of "+edit[:7]+" conflicts with later changes to the same lines: f.txt line 2. Nothing was changed.") ||
		!strings.Contains(r.stderr, "--force to put f.txt back whole as it was before "+edit[:7]) {
		t.Fatalf("conflicting undo: exit %d, stderr %q", r.code, r.stderr)
	}
	frozen.check(t, dir, "a conflicting undo")

	out := mustRun(t, dir, "", "undo", "--session", "s", "--force", edit[:8])
	if !strings.Contains(out, "f.txt conflicted and went back whole (--force) to its state before "+edit[:7]) {
		t.Fatalf("undo --force said %q", out)
	}
	if got := gittest.ReadFile(t, dir, "f.txt"); got != "a\nb\nc\nd\n" {
		t.Fatalf("after undo --force f.txt = %q", got)
	}
	if got := gittest.Git(t, dir, "show", "refs/edits/s~1:f.txt"); got != "a\nB by hand\nc\nD\n" {
		t.Fatalf("the sync commit holds %q, want the person's bytes", got)
	}
	gittest.Fsck(t, dir)
}

// Undo of a creation removes the file only while it is as created; undo
// of a deletion puts the file back; both through `undo EDIT`.
func TestSelectiveUndoCreationAndDeletion(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"gone.txt": "keep me\r\nno newline"})
	mustRun(t, dir, `{"command":"create","path":"new.txt","file_text":"fresh\n"}`, "call", "--session", "s", "text_editor")
	created := tipOf(t, dir)
	mustRun(t, dir, `{"input":"*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch"}`, "call", "--session", "s", "apply_patch")
	deleted := tipOf(t, dir)

	gittest.WriteFile(t, dir, "new.txt", "fresh\nand more\n")
	frozen := freeze(t, dir, "new.txt")
	r := runCLI(t, "", "undo", "--root", dir, "--session", "s", created[:8])
	if r.code != 1 || !strings.Contains(r.stderr, "new.txt (created by it and changed since") {
		t.Fatalf("undo of a changed creation: exit %d, stderr %q", r.code, r.stderr)
	}
	frozen.check(t, dir, "a refused undo of a creation")
	gittest.WriteFile(t, dir, "new.txt", "fresh\n")
	mustRun(t, dir, "", "undo", "--session", "s", created[:8])
	if _, err := os.Lstat(filepath.Join(dir, "new.txt")); !os.IsNotExist(err) {
		t.Fatalf("new.txt still there after undo of its creation: %v", err)
	}
	mustRun(t, dir, "", "undo", "--session", "s", deleted[:8])
	if got := gittest.ReadFile(t, dir, "gone.txt"); got != "keep me\r\nno newline" {
		t.Fatalf("gone.txt came back as %q", got)
	}
	if got := gittest.Status(t, dir); got != "" {
		t.Fatalf("git status after both undos: %q", got)
	}
	gittest.Fsck(t, dir)
}

// The merge is git's, byte for byte: CRLF, no final newline, edits on
// adjacent lines (which git merge-file counts as a conflict), a person's
// line at the end. Each case: the file at HEAD, the agent's edit
// (old->new), what the person writes after; the undo's result (or its
// refusal) must be what `git merge-file` makes of the same three inputs.
func TestSelectiveUndoIsGitMergeFile(t *testing.T) {
	cases := []struct {
		name, head, old, new, person string
	}{
		{"CRLF, person's line elsewhere", "a\r\nb\r\nc\r\nd\r\ne\r\n", "b", "B", "a\r\nB\r\nc\r\nd\r\nE\r\n"},
		{"no final newline, change at the end", "a\nb\nc\nd\ne", "b", "B", "a\nB\nc\nd\ne!"},
		{"adjacent lines", "a\nb\nc\nd\n", "b", "B", "a\nB\nC\nd\n"},
		{"same line", "a\nb\nc\n", "b", "B", "a\nBB\nc\n"},
		{"person removes the edit's neighbour", "a\nb\nc\nd\ne\nf\n", "c", "C", "a\nb\nC\nd\nf\n"},
		{"mixed endings kept", "a\r\nb\nc\r\nd\ne\r\n", "b", "B", "a\r\nB\nc\r\nd\ne\r\nf"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"f.txt": tc.head})
			gittest.Git(t, dir, "config", "edit.requireRead", "false")
			agentEdit(t, dir, "f.txt", tc.old, tc.new)
			edit := tipOf(t, dir)
			after := gittest.ReadFile(t, dir, "f.txt")
			gittest.WriteFile(t, dir, "f.txt", tc.person)
			want, clean := mergeFile(t, after, tc.person, tc.head)
			r := runCLI(t, "", "undo", "--root", dir, "--session", "s", edit[:8])
			got := gittest.ReadFile(t, dir, "f.txt")
			switch {
			case clean && (r.code != 0 || got != want):
				t.Fatalf("git merge-file merges cleanly to %q; undo: exit %d, f.txt %q, stderr %q", want, r.code, got, r.stderr)
			case !clean && (r.code != 1 || got != tc.person || !strings.Contains(r.stderr, "conflicts with later changes")):
				t.Fatalf("git merge-file conflicts; undo: exit %d, f.txt %q, stderr %q", r.code, got, r.stderr)
			}
		})
	}
}

// text_editor's undo_edit is the same code: it keeps a person's later line
// elsewhere, and refuses a conflict naming the lines.
func TestUndoEditIsSelective(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "a\nb\nc\nd\n"})
	agentEdit(t, dir, "f.txt", "b", "B")
	gittest.WriteFile(t, dir, "f.txt", "a\nB\nc\nd\nperson\n")
	mustRun(t, dir, `{"command":"undo_edit","path":"f.txt"}`, "call", "--session", "s", "text_editor")
	if got := gittest.ReadFile(t, dir, "f.txt"); got != "a\nb\nc\nd\nperson\n" {
		t.Fatalf("after undo_edit f.txt = %q", got)
	}
	agentEdit(t, dir, "f.txt", "c", "C")
	gittest.WriteFile(t, dir, "f.txt", "a\nb\nC!\nd\nperson\n")
	frozen := freeze(t, dir, "f.txt")
	r := runCLI(t, `{"command":"undo_edit","path":"f.txt"}`, "call", "--root", dir, "--session", "s", "text_editor")
	if !strings.Contains(r.stdout+r.stderr, "cannot be undone: the lines it changed were changed again since (line 3 of the file as it is now)") {
		t.Fatalf("undo_edit of a conflict: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	frozen.check(t, dir, "a refused undo_edit")
}
