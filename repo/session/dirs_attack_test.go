package session_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
)

// dirsOf lists every directory of the worktree at dir, .git left out.
func dirsOf(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if e.Name() == ".git" {
				return filepath.SkipDir
			}
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestAttackFailedWriteLeavesNoDirectories: an operation that creates 40
// files in new directories (some sharing a parent) and fails on its last
// file (made read-only after git-edit read it, before it wrote any) leaves no file and no
// directory it created; a directory that existed stays.
func TestAttackFailedWriteLeavesNoDirectories(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"z.txt": "z\n", "old/keep.txt": "k\n"})
	must(t, os.Mkdir(filepath.Join(dir, "empty"), 0o777)) // the person's, empty
	r, s := open(t, dir, "s")
	var rels []string
	for i := range 40 {
		rels = append(rels, fmt.Sprintf("new/d%02d/deep/f.txt", i), fmt.Sprintf("old/n%02d/f.txt", i%4), fmt.Sprintf("empty/e%02d/f.txt", i%3))
	}
	rels = slices.Compact(slices.Sorted(slices.Values(rels)))
	rels = append(rels, "z.txt")
	before := dirsOf(t, dir)
	status := gittest.Status(t, dir)
	restore := repo.SetPauseHook(func(at, _ string) {
		if at == "objects-written" {
			os.Chmod(filepath.Join(dir, "z.txt"), 0o444)
		}
	})
	defer restore()
	_, err := s.Apply(context.Background(), resolve(t, r, dir, rels...), session.RecordOutside, func(tx *session.Tx) (session.Plan, error) {
		pl := session.Plan{Meta: session.Meta{Op: session.OpEdit, Tool: "test.create"}}
		for _, p := range rels {
			pl.Changes = append(pl.Changes, session.Change{Path: p, Content: []byte("new " + p + "\n")})
		}
		return pl, nil
	})
	if !errors.Is(err, repo.ErrReadOnly) {
		t.Fatalf("err = %v, want the read-only refusal", err)
	}
	if after := dirsOf(t, dir); !slices.Equal(after, before) {
		t.Fatalf("directories after the failed operation:\n%q\nwant as before:\n%q", after, before)
	}
	if got := gittest.Status(t, dir); got != status {
		t.Fatalf("git status after the failed operation:\n%s\nwant:\n%s", got, status)
	}
}

// TestDeletionRemovesDirectoriesItEmptied: deleting a file (as undo of its
// creation does) removes the directories it leaves empty, as `git rm`
// does, and no other: a directory with another file stays, and so does
// the worktree top.
func TestDeletionRemovesDirectoriesItEmptied(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a/keep.txt": "k\n"})
	r, s := open(t, dir, "s")
	before := dirsOf(t, dir)
	for _, c := range []string{"new\n", gittest.Missing} {
		if _, err := s.Apply(context.Background(), resolve(t, r, dir, "a/b/c/new.txt", "top/x/y.txt"), session.RecordOutside,
			setContent("test.set", map[string]string{"a/b/c/new.txt": c, "top/x/y.txt": c})); err != nil {
			t.Fatal(err)
		}
	}
	if after := dirsOf(t, dir); !slices.Equal(after, before) {
		t.Fatalf("directories after creating and deleting the files:\n%q\nwant:\n%q", after, before)
	}
	if st := gittest.Status(t, dir); st != "" {
		t.Fatalf("git status:\n%s", st)
	}
	// The same as git: `git rm` of a file alone in its directories.
	gittest.WriteFile(t, dir, "g/h/i.txt", "x\n")
	gittest.Git(t, dir, "add", "g/h/i.txt")
	gittest.Git(t, dir, "rm", "-qf", "g/h/i.txt")
	if after := dirsOf(t, dir); !slices.Equal(after, before) {
		t.Fatalf("git rm left %q; git-edit's deletion is meant to match it", after)
	}
}
