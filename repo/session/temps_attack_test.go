package session_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
)

// TestAttackKilledEditsTemporaryIsCleared kills a git-edit process (this
// test binary, run again) while it edits sub/f.txt (1 MB): after its
// temporary file is written, and while a deletion has moved the file
// aside. What it left is never recorded by `record` (git status's list
// of changed paths leaves it out), and the next operation, whatever file
// it edits, clears it: a temporary file of new bytes is removed, a file
// moved aside goes back to its name. Then `git status` shows only that
// operation's own change.
func TestAttackKilledEditsTemporaryIsCleared(t *testing.T) {
	if dir := os.Getenv("GIT_EDIT_TEST_KILLED_DIR"); dir != "" {
		repo.SetCrashPoint(os.Getenv("GIT_EDIT_TEST_KILLED_AT"))
		r, s := open(t, dir, "s")
		s.Apply(context.Background(), resolve(t, r, dir, "sub/f.txt"), session.RecordOutside,
			replaceFirst("sub/f.txt", "line", "LINE", os.Getenv("GIT_EDIT_TEST_KILLED_AT") == "moved-aside"))
		t.Fatal("the process was not killed")
	}
	big := strings.Repeat("line of a big file\n", 1<<20/19)
	for _, point := range []string{"temp-written", "moved-aside"} {
		t.Run(point, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"sub/f.txt": big, "other.txt": "o\n"})
			child := exec.Command(os.Args[0], "-test.run=^TestAttackKilledEditsTemporaryIsCleared$", "-test.count=1")
			child.Env = append(os.Environ(), "GIT_EDIT_TEST_KILLED_DIR="+dir, "GIT_EDIT_TEST_KILLED_AT="+point)
			if out, err := child.CombinedOutput(); err == nil || !strings.Contains(err.Error(), "killed") {
				t.Fatalf("the child was not killed: %v\n%s", err, out)
			}
			temps, _ := filepath.Glob(filepath.Join(dir, "sub", ".f.txt.git-edit-*"))
			if len(temps) != 1 {
				t.Fatalf("precondition: the killed process left %q", temps)
			}
			r, s := open(t, dir, "s")
			changed, err := r.StatusPaths(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range changed {
				if strings.Contains(p, ".git-edit-") {
					t.Fatalf("git status's changed paths, which record records, name git-edit's temporary file %s", p)
				}
			}
			if _, err := s.Apply(context.Background(), resolve(t, r, dir, "other.txt"), session.RecordOutside,
				replaceFirst("other.txt", "o", "O", false)); err != nil {
				t.Fatal(err)
			}
			if temps, _ := filepath.Glob(filepath.Join(dir, "sub", ".f.txt.git-edit-*")); len(temps) != 0 {
				t.Fatalf("an edit of another file left the dead process's %q", temps)
			}
			if got := gittest.ReadFile(t, dir, "sub/f.txt"); got != big {
				t.Fatalf("sub/f.txt is not as before the killed edit (%d bytes)", len(got))
			}
			if st := gittest.Status(t, dir); st != " M other.txt\n" {
				t.Fatalf("git status:\n%s\nwant only the edit of other.txt", st)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// TestAttackFileMovedAsideBeforeAPowerCutIsKept: a power cut right after a
// deletion or a swap without exchange moved f.txt aside, before the
// journal's line reached the disk, leaves the person's only copy under a
// temporary name with no note of it. A later edit that creates f.txt (in a
// new process, as after a power cut: this test binary, run again) must
// keep that copy (as `.f.txt.git-edit-kept-…`), never delete it as a
// stale temporary (the review found it deleted).
func TestAttackFileMovedAsideBeforeAPowerCutIsKept(t *testing.T) {
	if dir := os.Getenv("GIT_EDIT_TEST_AFTER_POWER_CUT"); dir != "" {
		r, s := open(t, dir, "s")
		if _, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside,
			setContent("test.set", map[string]string{"f.txt": "new\n"})); err != nil {
			t.Fatal(err)
		}
		return
	}
	dir := gittest.NewWithCommit(t, map[string]string{"other.txt": "o\n"})
	must(t, os.WriteFile(filepath.Join(dir, ".f.txt.git-edit-0123456789ab"), []byte("the person's only copy\n"), 0o644))
	child := exec.Command(os.Args[0], "-test.run=^TestAttackFileMovedAsideBeforeAPowerCutIsKept$", "-test.count=1")
	child.Env = append(os.Environ(), "GIT_EDIT_TEST_AFTER_POWER_CUT="+dir)
	if out, err := child.CombinedOutput(); err != nil {
		t.Fatalf("the edit after the power cut: %v\n%s", err, out)
	}
	kept, _ := filepath.Glob(filepath.Join(dir, ".f.txt.git-edit-kept-*"))
	if len(kept) != 1 {
		left, _ := filepath.Glob(filepath.Join(dir, ".f.txt.git-edit-*"))
		t.Fatalf("beside f.txt: %q, want the copy kept", left)
	}
	if b, _ := os.ReadFile(kept[0]); string(b) != "the person's only copy\n" {
		t.Fatalf("%s = %q", kept[0], b)
	}
	if got := gittest.ReadFile(t, dir, "f.txt"); got != "new\n" {
		t.Fatalf("f.txt = %q", got)
	}
}
