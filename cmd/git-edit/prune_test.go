package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// snapshotTree returns every file under root, path to bytes (symlinks as
// their target), so that "changes nothing" is checked byte for byte.
func snapshotTree(t *testing.T, root string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		var b []byte
		if d.Type()&fs.ModeSymlink != 0 {
			s, err := os.Readlink(p)
			b = []byte("-> " + s)
			if err != nil {
				return err
			}
		} else if b, err = os.ReadFile(p); err != nil {
			return err
		}
		m[p] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func sameTree(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for p, b := range before {
		if a, ok := after[p]; !ok || a != b {
			t.Errorf("%s changed or removed %s", what, p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s created %s", what, p)
		}
	}
}

// prune --session and --dry-run, read-only sessions (issue 15, item 7):
// `sessions` lists every session with its state, a session that only read
// files included; --dry-run prints what prune would remove and leaves
// every byte of the repository (refs, reflogs, objects, read records,
// history index) and the worktree as it was; prune --session removes one
// session, its read records and its history index with it.
func TestPruneSessionDryRunAndReadOnly(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	state := filepath.Join(dir, ".git", "git-edit", "sessions")
	var steps []cliStep
	// Session s: ten edits, so that its history index is written beside
	// the ref (it is written back after more than 8 commits).
	for i := range 10 {
		steps = append(steps, cliStep{stdin: fmt.Sprintf(`{"path":"a.txt","operations":[{"op":"insert","afterLine":0,"content":["%d"]}]}`, i),
			args: []string{"call", "--session", "s", "edit_lines"}, out: "-"})
	}
	steps = append(steps,
		cliStep{args: []string{"log", "--session", "s", "-n", "1"}, out: "-"},
		cliStep{stdin: `{"file_path":"b.txt"}`, args: []string{"call", "--session", "reader", "Read"}, out: "-"},
		cliStep{stdin: `{"command":"view","path":"a.txt"}`, args: []string{"call", "--session", "reader", "text_editor"}, out: "-"},
		cliStep{stdin: `{"command":"create","path":"c.txt","file_text":"c\n"}`, args: []string{"call", "--session", "t", "text_editor"}, out: "-"},
		cliStep{args: []string{"sessions"}, out: "" +
			"reader  read-only: 2 files read, no edits  last <age>\n" +
			"s       10 commits (10 edits)  1 path  base <id>  last <age>\n" +
			"t       1 commit (1 edit)  1 path  base <id>  last <age>\n"},
	)
	playGitEdit(t, dir, steps)
	for _, f := range []string{"reader/seen", "s/history.idx", "s/history.commits"} {
		if _, err := os.Stat(filepath.Join(state, f)); err != nil {
			t.Fatalf("the test needs %s: %v", f, err)
		}
	}

	before := snapshotTree(t, dir)
	playGitEdit(t, dir, []cliStep{
		{args: []string{"prune", "--dry-run", "--older-than", "0s"}, out: "" +
			"would prune read-only session reader (2 files read, last <age>)\n" +
			"would prune refs/edits/s (10 commits, last <age>, was at <id>)\n" +
			"would prune refs/edits/t (1 commit, last <age>, was at <id>)\n" +
			"(dry run: nothing was pruned)\n"},
		{args: []string{"prune", "-n", "--session", "t", "--session", "reader"}, out: "" +
			"would prune refs/edits/t (1 commit, last <age>, was at <id>)\n" +
			"would prune read-only session reader (2 files read, last <age>)\n" +
			"(dry run: nothing was pruned)\n"},
		{args: []string{"prune", "--dry-run", "--older-than", "2w"}, out: "no session is older than 2w\n(dry run: nothing was pruned)\n"},
	})
	sameTree(t, "prune --dry-run", before, snapshotTree(t, dir))

	tTip := gittest.Rev(t, dir, "refs/edits/t")
	playGitEdit(t, dir, []cliStep{
		{args: []string{"prune", "--session", "nosuch"}, code: 1, out: "", err: "no session \"nosuch\" in this repository (nothing was pruned); `git edit sessions` lists them"},
		{args: []string{"prune", "--session", "reader"}, out: "pruned read-only session reader (2 files read, last <age>)\n"},
		{args: []string{"prune", "--session", "s"}, out: "pruned refs/edits/s (10 commits, last <age>, was at <id>)\n"},
		{args: []string{"sessions"}, out: "t  1 commit (1 edit)  1 path  base <id>  last <age>\n"},
	})
	for _, name := range []string{"reader", "s"} {
		if _, err := os.Stat(filepath.Join(state, name)); !os.IsNotExist(err) {
			t.Errorf("the state of session %s is left: %v", name, err)
		}
	}
	if refs := gittest.Git(t, dir, "for-each-ref", "--format=%(refname) %(objectname)", "refs/edits/"); refs != "refs/edits/t "+tTip+"\n" {
		t.Errorf("refs after pruning reader and s:\n%s", refs)
	}
	if got := gittest.ReadFile(t, dir, "a.txt"); got != "9\n8\n7\n6\n5\n4\n3\n2\n1\n0\na\n" {
		t.Errorf("prune changed a worktree file: %q", got)
	}
}

// TestSessionsNamesARefGitEditDidNotWrite: a session ref set by hand to a
// commit git-edit did not write is listed as such, with the way to remove
// it (it used to show "0 commits … last 292 years ago"), and prune removes
// it.
func TestSessionsNamesARefGitEditDidNotWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("drives the built binary")
	}
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	gittest.Git(t, dir, "update-ref", "refs/edits/odd", "HEAD")
	r := gitEdit(t, dir, "", nil, "sessions")
	want := "odd  no git-edit commits: refs/edits/odd names a commit git-edit did not write; remove it with `git edit prune --session odd`\n"
	if r.code != 0 || r.stdout != want {
		t.Fatalf("sessions: %+v\nwant stdout %q", r, want)
	}
	if r := gitEdit(t, dir, "", nil, "prune", "--session", "odd"); r.code != 0 || !strings.HasPrefix(r.stdout, "pruned refs/edits/odd (no session commits") {
		t.Fatalf("prune --session odd: %+v", r)
	}
	if got := gittest.Git(t, dir, "for-each-ref", "refs/edits/"); got != "" {
		t.Errorf("refs left: %s", got)
	}
	gittest.Fsck(t, dir)
}
