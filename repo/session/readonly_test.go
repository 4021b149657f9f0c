package session

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
)

// ForgetIfReadOnly removes the read records of a session that made no
// edit, and never touches one that has a ref: its state and ref stay
// byte for byte.
func TestForgetIfReadOnlyKeepsSessionsThatEdited(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"reader", "editor"} {
		seen := filepath.Join(r.StateDir(), "sessions", name, "seen")
		if err := os.MkdirAll(seen, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(seen, "record"), []byte("x"), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	gittest.Git(t, dir, "update-ref", "refs/edits/editor", "HEAD")
	refsBefore := gittest.Git(t, dir, "for-each-ref", "--format=%(refname) %(objectname)")

	removed, err := ForgetIfReadOnly(context.Background(), &Session{Repo: r, Name: "editor"})
	if err != nil || removed {
		t.Fatalf("a session with a ref: removed=%v, %v", removed, err)
	}
	if _, err := os.Stat(filepath.Join(r.StateDir(), "sessions", "editor", "seen", "record")); err != nil {
		t.Fatalf("the state of a session with a ref was touched: %v", err)
	}
	if refs := gittest.Git(t, dir, "for-each-ref", "--format=%(refname) %(objectname)"); refs != refsBefore {
		t.Fatalf("refs changed:\n%s\nwas:\n%s", refs, refsBefore)
	}
	removed, err = ForgetIfReadOnly(context.Background(), &Session{Repo: r, Name: "reader"})
	if err != nil || !removed {
		t.Fatalf("a read-only session: removed=%v, %v", removed, err)
	}
	if _, err := os.Stat(filepath.Join(r.StateDir(), "sessions", "reader")); !os.IsNotExist(err) {
		t.Fatalf("the read-only session's state is still there: %v", err)
	}
	// A session with no state at all: nothing to do.
	if removed, err := ForgetIfReadOnly(context.Background(), &Session{Repo: r, Name: "never"}); err != nil || !removed {
		t.Fatalf("a session with no state: removed=%v, %v", removed, err)
	}
}
