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

func TestResolveConfinement(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"sub/f.txt": "x\n"})
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644)
	os.Symlink(outside, filepath.Join(dir, "escape"))
	os.Symlink("loop", filepath.Join(dir, "loop"))
	os.Symlink("missing-target", filepath.Join(dir, "dangling"))
	os.Symlink("sub", filepath.Join(dir, "inside"))
	nested := filepath.Join(dir, "nested")
	os.MkdirAll(nested, 0o777)
	gittest.Git(t, nested, "init", "-q")
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	refused := []struct{ root, arg, says string }{
		{dir, "../x", "outside the root"},
		{dir, "/etc/passwd", "outside the root"},
		{dir, "escape/secret", "outside the root"},
		{dir, "loop", "cannot resolve its symlinks"},
		{dir, "dangling", "symlink whose target does not exist"},
		{dir, ".git/config", "inside the git directory"},
		{dir, "sub/.git/x", "inside a .git directory"},
		{dir, "nested/file", "nested repository or submodule"},
		{filepath.Join(dir, "sub"), "../other.txt", "outside the root"},
		{dir, "", "the path is empty"},
		{dir, ".", "top directory"},
	}
	for _, tc := range refused {
		_, err := r.Resolve(tc.root, tc.arg)
		if !errors.Is(err, repo.ErrPathRefused) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("Resolve(%q) = %v, want refusal saying %q", tc.arg, err, tc.says)
		}
	}
	ok := []struct{ root, arg, rel string }{
		{dir, "sub/f.txt", "sub/f.txt"},
		{dir, filepath.Join(dir, "sub/f.txt"), "sub/f.txt"},
		{dir, "inside/f.txt", "sub/f.txt"},
		{dir, "new/dir/file.txt", "new/dir/file.txt"},
		{filepath.Join(dir, "sub"), "f.txt", "sub/f.txt"},
	}
	for _, tc := range ok {
		p, err := r.Resolve(tc.root, tc.arg)
		if err != nil || p.Rel != tc.rel {
			t.Errorf("Resolve(%q) = %+v, %v; want %s", tc.arg, p, err, tc.rel)
		}
	}
}

func TestReadWorkFileRefusesSpecialFiles(t *testing.T) {
	dir := gittest.New(t)
	os.MkdirAll(filepath.Join(dir, "d"), 0o777)
	mkfifo(t, filepath.Join(dir, "fifo"), 0o644)
	gittest.WriteFile(t, dir, "big", strings.Repeat("x", 100))
	r, _ := repo.Open(dir)
	cases := []struct {
		arg  string
		max  int64
		want error
	}{
		{"d", 0, repo.ErrIsDirectory},
		{"fifo", 0, repo.ErrNotRegular},
		{"big", 99, repo.ErrTooLarge},
	}
	for _, tc := range cases {
		p, err := r.Resolve(dir, tc.arg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := repo.ReadWorkFile(p, tc.max); !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.arg, err, tc.want)
		}
	}
}
