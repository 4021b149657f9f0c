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

// gitDirInWorktree makes a worktree w whose git directory is w/gitdata,
// named to git through a symlink above the worktree (base/link -> w), so
// that the git dir's name (base/link/gitdata) and the path a file argument
// resolves to (base/w/gitdata/...) differ while the directory is the same:
// what a case-insensitive file system does with w/GITDATA, as far as Linux
// can show it. It sets GIT_DIR and GIT_WORK_TREE and returns base and w.
func gitDirInWorktree(t *testing.T) (base, w string) {
	t.Helper()
	gittest.Isolate(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w = filepath.Join(base, "w")
	gittest.Git(t, base, "init", "-q", w)
	gittest.WriteFile(t, w, "f.txt", "f\n")
	gittest.Git(t, w, "add", "f.txt")
	gittest.Git(t, w, "commit", "-q", "-m", "one")
	if err := os.Rename(filepath.Join(w, ".git"), filepath.Join(w, "gitdata")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(w, filepath.Join(base, "link")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_DIR", filepath.Join(base, "link", "gitdata"))
	t.Setenv("GIT_WORK_TREE", w)
	return base, w
}

// TestAttackGitDirUnderAnotherNameIsRefused reaches the git directory by a
// name that is not the one the repository was opened with: Resolve must
// compare directories by identity, not by name.
func TestAttackGitDirUnderAnotherNameIsRefused(t *testing.T) {
	_, w := gitDirInWorktree(t)
	r, err := repo.Open(w)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if !strings.HasSuffix(r.GitDir, filepath.Join("link", "gitdata")) {
		t.Fatalf("GitDir = %s; the test needs it named through the link", r.GitDir)
	}
	resolvers := map[string]func(root, arg string) (repo.Path, error){
		"Resolve": r.Resolve, "ResolveRecorded": r.ResolveRecorded,
	}
	for name, resolve := range resolvers {
		for _, arg := range []string{"gitdata/config", "gitdata/hooks/pre-commit", filepath.Join(w, "gitdata", "HEAD"), "gitdata/refs/heads/new"} {
			_, err := resolve(w, arg)
			if !errors.Is(err, repo.ErrPathRefused) || !strings.Contains(err.Error(), "inside the git directory") {
				t.Errorf("%s(%q) = %v; want a refusal: it is inside the git directory", name, arg, err)
			}
		}
		for _, arg := range []string{"f.txt", "gitdatax/y", "new/file.txt"} {
			if _, err := resolve(w, arg); err != nil {
				t.Errorf("%s(%q) = %v; want it accepted", name, arg, err)
			}
		}
	}
}
