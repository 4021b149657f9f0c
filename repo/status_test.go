package repo_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
)

// StatusPaths names what git status names, each path once, with the
// names as they are (spaces, newlines, non-ASCII): modified, staged
// (a staged rename as both paths), deleted, untracked; not ignored files,
// not an untracked nested repository; pathspecs narrow it.
func TestStatusPaths(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n", "c d.txt": "c\n", "sub/e.txt": "e\n", "mv.txt": "m\n", ".gitignore": "*.log\n"})
	gittest.WriteFile(t, dir, "a.txt", "a2\n")
	gittest.WriteFile(t, dir, "b.txt", "b2\n")
	gittest.Git(t, dir, "add", "b.txt")
	gittest.WriteFile(t, dir, "b.txt", "b3\n") // staged and changed again
	os.Remove(filepath.Join(dir, "c d.txt"))
	gittest.Git(t, dir, "mv", "mv.txt", "moved.txt")
	gittest.WriteFile(t, dir, "new\nline.txt", "n\n")
	gittest.WriteFile(t, dir, "sub/ünï.txt", "u\n")
	gittest.WriteFile(t, dir, "x.log", "ignored\n")
	gittest.Git(t, filepath.Join(dir, "sub"), "init", "-q", "nested")
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.StatusPaths(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	want := []string{"a.txt", "b.txt", "c d.txt", "moved.txt", "mv.txt", "new\nline.txt", "sub/ünï.txt"}
	if !slices.Equal(got, want) {
		t.Errorf("StatusPaths = %q, want %q", got, want)
	}
	got, err = r.StatusPaths(context.Background(), []string{"sub", "a.txt"})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if want := []string{"a.txt", "sub/ünï.txt"}; !slices.Equal(got, want) {
		t.Errorf("StatusPaths(sub, a.txt) = %q, want %q", got, want)
	}
	// Literal pathspecs: "*.txt" names no file.
	if got, err = r.StatusPaths(context.Background(), []string{"*.txt"}); err != nil || len(got) != 0 {
		t.Errorf("StatusPaths(*.txt) = %q, %v; want nothing", got, err)
	}
}
