package repo

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Issue 22, item 10: EditTree removes nothing its changes do not name. A
// path under a file, or a file where a directory is, used to replace the
// entry in the way silently (a record commit deleted c.txt while its
// output said c.txt was not recorded); now it fails naming both, and the
// same replacement with the entry in the way removed by name is done.
// git ls-tree checks every tree written.
func TestAttackEditTreeNeverDropsWhatItIsNotTold(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"c.txt": "c\n", "d/x.txt": "x\n", "d/y.txt": "y\n"})
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	base, err := r.TreeOf(plumbing.NewHash(strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))))
	if err != nil {
		t.Fatal(err)
	}
	blob, err := r.StoreBlob([]byte("new\n"))
	if err != nil {
		t.Fatal(err)
	}
	file := Entry{Hash: blob, Mode: filemode.Regular}
	gone := Entry{}
	lsTree := func(tree plumbing.Hash) string {
		t.Helper()
		out, err := exec.Command("git", "-C", dir, "ls-tree", "-r", "--name-only", tree.String()).Output()
		if err != nil {
			t.Fatalf("git ls-tree %s: %v", tree, err)
		}
		return strings.ReplaceAll(strings.TrimSpace(string(out)), "\n", " ")
	}
	for _, tc := range []struct {
		name    string
		changes map[string]Entry
		want    string // the tree's files, or "" for a refusal
		path    string // the refusal's path and the entry in its way
		other   string
	}{
		{"a path under a file", map[string]Entry{"c.txt/d.txt": file}, "", "c.txt/d.txt", "c.txt"},
		{"a file where a directory is", map[string]Entry{"d": file}, "", "d", "d"},
		{"a file where a directory is, part of it removed", map[string]Entry{"d": file, "d/x.txt": gone}, "", "d", "d"},
		{"a removal where a directory is", map[string]Entry{"d": gone}, "", "d", "d"},
		{"the file removed by name", map[string]Entry{"c.txt": gone, "c.txt/d.txt": file}, "c.txt/d.txt d/x.txt d/y.txt", "", ""},
		{"the directory emptied by name", map[string]Entry{"d": file, "d/x.txt": gone, "d/y.txt": gone}, "c.txt d", "", ""},
		{"removals under a file change nothing", map[string]Entry{"c.txt/z": gone}, "c.txt d/x.txt d/y.txt", "", ""},
		{"a file set and a path under it", map[string]Entry{"n": file, "n/m": file}, "", "n", "n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tree, err := r.EditTree(base, tc.changes)
			if tc.want != "" {
				if err != nil {
					t.Fatal(err)
				}
				if got := lsTree(tree); got != tc.want {
					t.Errorf("tree holds %q, want %q", got, tc.want)
				}
				return
			}
			tce, ok := errors.AsType[*TreeConflictError](err)
			if !ok || !errors.Is(err, ErrTreeConflict) || tce.Path != tc.path || tce.Other != tc.other {
				t.Fatalf("err = %v, want a conflict of %s with %s", err, tc.path, tc.other)
			}
		})
	}
}
