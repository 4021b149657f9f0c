package repo_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
)

// ResolveRecorded keeps a recorded path as named: a symlink at its final
// component is not followed to the file it points to, a symlinked
// directory below the root is refused, and Resolve's confinement holds.
func TestAttackResolveRecordedKeepsFinalSymlink(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"target.txt": "t\n", "sub/f.txt": "f\n", "other/f.txt": "o\n"})
	outside := t.TempDir()
	for link, dest := range map[string]string{
		"app.txt":      "target.txt",
		"escape.txt":   filepath.Join(outside, "x"),
		"dangling.txt": "missing",
		"dirlink":      "other",
		"out":          outside,
	} {
		if err := os.Symlink(dest, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	nested := filepath.Join(dir, "nested")
	os.MkdirAll(nested, 0o777)
	gittest.Git(t, nested, "init", "-q")
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ok := []struct{ root, arg, rel string }{
		{dir, "app.txt", "app.txt"}, // Resolve gives target.txt
		{dir, "escape.txt", "escape.txt"},
		{dir, "dangling.txt", "dangling.txt"},
		{dir, filepath.Join(dir, "app.txt"), "app.txt"},
		{filepath.Join(dir, "sub"), "f.txt", "sub/f.txt"},
		{dir, "new/file.txt", "new/file.txt"},
	}
	for _, tc := range ok {
		p, err := r.ResolveRecorded(tc.root, tc.arg)
		if err != nil || p.Rel != tc.rel || p.Abs != filepath.Join(dir, filepath.FromSlash(tc.rel)) {
			t.Errorf("ResolveRecorded(%q) = %+v, %v; want %s", tc.arg, p, err, tc.rel)
		}
	}
	refused := []struct{ root, arg, says string }{
		{dir, "dirlink/f.txt", "the directory dirlink is now a symlink (to other)"},
		{dir, "out/x", "the directory out is now a symlink"},
		{dir, "../x", "outside the root"},
		{filepath.Join(dir, "sub"), "../target.txt", "outside the root"},
		{dir, "/etc/passwd", "outside the root"},
		{dir, ".git/config", "inside the git directory"},
		{dir, "sub/.git", "inside a .git directory"},
		{dir, "nested/file", "nested repository or submodule"},
		{dir, "", "the path is empty"},
		{dir, ".", "top directory"},
	}
	for _, tc := range refused {
		_, err := r.ResolveRecorded(tc.root, tc.arg)
		if !errors.Is(err, repo.ErrPathRefused) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("ResolveRecorded(%q) = %v, want a refusal saying %q", tc.arg, err, tc.says)
		}
	}
	var nestedErr *repo.NestedRepoError
	if _, err := r.ResolveRecorded(dir, "nested/file"); !errors.As(err, &nestedErr) || nestedErr.Top != nested {
		t.Errorf("nested/file: %v, want *NestedRepoError for %s", err, nested)
	}
}
