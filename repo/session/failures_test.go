package session_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
)

// Apply's failures after planning: what a write that cannot go on leaves,
// and when Apply starts over.

// TestAttackFileMadeReadOnlyMidOperationIsKept makes the file read-only
// after Apply read it and stored its objects, before any file is written:
// a rewrite and a deletion alike are refused as read-only (as Apply refuses
// a file that is read-only when it reads it), the file keeps its bytes and
// bits, and the ref stays put.
func TestAttackFileMadeReadOnlyMidOperationIsKept(t *testing.T) {
	for _, del := range []bool{false, true} {
		name := map[bool]string{false: "rewrite", true: "delete"}[del]
		t.Run(name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n"})
			r, s := open(t, dir, "s")
			file := filepath.Join(dir, "f.txt")
			restore := repo.SetPauseHook(func(at, _ string) {
				if at == "objects-written" {
					must(t, os.Chmod(file, 0o444))
				}
			})
			_, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside, replaceFirst("f.txt", "one", "ONE", del))
			restore()
			if !errors.Is(err, repo.ErrReadOnly) {
				t.Fatalf("err = %v, want the read-only refusal", err)
			}
			fi, serr := os.Stat(file)
			if serr != nil || fi.Mode().Perm() != 0o444 || gittest.ReadFile(t, dir, "f.txt") != "one\n" {
				t.Fatalf("f.txt after the refusal: %v %v", fi, serr)
			}
			if refs := gittest.Git(t, dir, "for-each-ref", "refs/edits/"); refs != "" {
				t.Fatalf("a refused %s moved a ref: %s", name, refs)
			}
			if packs := packFiles(t, dir); len(packs) != 0 {
				t.Fatalf("a refused %s left its pack: %v", name, packs)
			}
		})
	}
}

// TestApplyDoesNotStartOverAfterAFailedRestore writes a.txt, then finds
// b.txt written by a person; putting a.txt back fails too, as the person
// wrote to it as well. Apply must return that error at once instead of
// starting over: a new attempt would read the agent's bytes in a.txt as
// the person's. Both files keep every line the person wrote, and the ref
// stays put.
func TestApplyDoesNotStartOverAfterAFailedRestore(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	r, s := open(t, dir, "s")
	attempts, hits := 0, 0
	restore := repo.SetPauseHook(func(at, path string) {
		switch {
		case at == "objects-written":
			attempts++
		case at == "checked" && path == "b.txt":
			hits++
			appendLine(t, filepath.Join(dir, "a.txt"), "person a")
			appendLine(t, filepath.Join(dir, "b.txt"), "person b")
		}
	})
	plan := func(*session.Tx) (session.Plan, error) {
		return session.Plan{Meta: session.Meta{Op: session.OpEdit, Tool: "test"}, Changes: []session.Change{
			{Path: "a.txt", Content: []byte("agent a\n")}, {Path: "b.txt", Content: []byte("agent b\n")}}}, nil
	}
	_, err := s.Apply(context.Background(), resolve(t, r, dir, "a.txt", "b.txt"), session.RecordOutside, plan)
	restore()
	if !errors.Is(err, repo.ErrRestoreFailed) || !errors.Is(err, repo.ErrFileChanged) {
		t.Fatalf("err = %v, want the file-changed refusal and the failed restore", err)
	}
	if attempts != 1 || hits != 1 {
		t.Fatalf("Apply ran %d attempts (b.txt checked %d times), want 1: it started over after a failed restore", attempts, hits)
	}
	if got := gittest.ReadFile(t, dir, "a.txt"); got != "agent a\nperson a\n" {
		t.Fatalf("a.txt = %q, want the bytes the person wrote to", got)
	}
	if got := gittest.ReadFile(t, dir, "b.txt"); got != "b\nperson b\n" {
		t.Fatalf("b.txt = %q, want the person's bytes", got)
	}
	if refs := gittest.Git(t, dir, "for-each-ref", "refs/edits/"); refs != "" {
		t.Fatalf("a failed operation moved a ref: %s", refs)
	}
	if st := gittest.Status(t, dir); st != " M a.txt\n M b.txt\n" {
		t.Fatalf("status %q: something besides the two files was left", st)
	}
	if packs := packFiles(t, dir); len(packs) != 0 {
		t.Fatalf("a failed operation left its pack: %v", packs)
	}
}

// packFiles lists the pack directory's files (the test repositories start
// with loose objects only, so an operation that failed must leave none).
func packFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}
