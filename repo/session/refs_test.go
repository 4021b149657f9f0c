package session_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/go-git/go-git/v5/plumbing"
)

// The child process that TestHelperRefWriter runs in is told its
// repository and session by these variables.
const (
	helperDirEnv     = "GIT_EDIT_TEST_HELPER_DIR"
	helperSessionEnv = "GIT_EDIT_TEST_HELPER_SESSION"
)

// TestHelperRefWriter is no test of its own: startWriter runs it in a child
// process (this test binary again), where it makes one edit of
// <session>.txt in session <session>, so that GIT_EDIT_TEST_CRASH can kill
// or stop a real writer at a named point.
func TestHelperRefWriter(t *testing.T) {
	dir := os.Getenv(helperDirEnv)
	if dir == "" {
		t.Skip("run as a child process by startWriter only")
	}
	name := os.Getenv(helperSessionEnv)
	// The library never reads the environment for its crash point: the
	// child sets it as git-edit's main does.
	repo.SetCrashPoint(os.Getenv("GIT_EDIT_TEST_CRASH"))
	file := name + ".txt"
	r, s := open(t, dir, name)
	if _, err := s.Apply(context.Background(), resolve(t, r, dir, file), session.RecordOutside,
		setContent("writer", map[string]string{file: "from the writer\n"})); err != nil {
		t.Fatal(err)
	}
}

// startWriter starts TestHelperRefWriter in a child process with
// GIT_EDIT_TEST_CRASH=point.
func startWriter(t *testing.T, dir, name, point string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperRefWriter$", "-test.count=1")
	cmd.Env = append(gittest.Env(), helperDirEnv+"="+dir, helperSessionEnv+"="+name, "GIT_EDIT_TEST_CRASH="+point)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// killedHoldingRefLock runs a writer in session that is SIGKILLed right
// after taking refs/edits/<session>.lock, and checks that it left the lock.
func killedHoldingRefLock(t *testing.T, dir, name string) {
	t.Helper()
	cmd := startWriter(t, dir, name, "ref-locked")
	err := cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the writer was not killed holding the ref lock: %v", err)
	}
	if _, err := os.Stat(refLockPath(dir, name)); err != nil {
		t.Fatalf("the killed writer left no lock: %v", err)
	}
}

func refLockPath(dir, name string) string {
	return filepath.Join(dir, ".git", "refs", "edits", name+".lock")
}

// editSession edits <session>.txt in session.
func editSession(t *testing.T, dir, name, content string) error {
	t.Helper()
	file := name + ".txt"
	r, s := open(t, dir, name)
	_, err := s.Apply(context.Background(), resolve(t, r, dir, file), session.RecordOutside,
		setContent("t", map[string]string{file: content}))
	return err
}

// leftovers lists the ref locks under refs/ and git-edit's lock records.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	var found []string
	for _, root := range []string{filepath.Join(dir, ".git", "refs"), filepath.Join(dir, ".git", "git-edit", "ref-locks")} {
		filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".lock") || strings.Contains(path, "ref-locks")) {
				found = append(found, path)
			}
			return nil
		})
	}
	return found
}

// Finding 4 of issue 11: a git-edit killed while holding refs/edits/a.lock
// used to be recognized by one shared record, which the next edit of any
// other session overwrote; session a then stayed locked for ever. The lock
// must be cleared by the next edit of a, however many other sessions ran
// in between.
func TestAttackDeadWritersRefLockIsClearedAfterOtherSessions(t *testing.T) {
	for _, tc := range []struct {
		name   string
		others []string
		prune  bool // delete the session instead of editing it
	}{
		{"next edit of the same session", nil, false},
		{"after edits of three other sessions", []string{"b", "c", "d"}, false},
		{"pruned after edits of three other sessions", []string{"b", "c", "d"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "0\n", "b.txt": "0\n", "c.txt": "0\n", "d.txt": "0\n"})
			if err := editSession(t, dir, "a", "1\n"); err != nil {
				t.Fatal(err)
			}
			tip := gittest.Rev(t, dir, "refs/edits/a")
			killedHoldingRefLock(t, dir, "a")
			if gittest.Rev(t, dir, "refs/edits/a") != tip {
				t.Fatal("the killed writer moved the ref")
			}
			for _, other := range tc.others {
				if err := editSession(t, dir, other, "1\n"); err != nil {
					t.Fatalf("edit of session %s: %v", other, err)
				}
			}
			if tc.prune {
				r, err := repo.Open(dir)
				if err != nil {
					t.Fatal(err)
				}
				if err := r.DeleteRef("refs/edits/a", plumbing.NewHash(tip)); err != nil {
					t.Fatalf("session a cannot be pruned after its writer died: %v", err)
				}
				if left := leftovers(t, dir); len(left) != 0 || gittest.Rev(t, dir, "refs/edits/a") != "" {
					t.Fatalf("after prune: left %v, ref %q", left, gittest.Rev(t, dir, "refs/edits/a"))
				}
				gittest.Fsck(t, dir)
				return
			}
			if err := editSession(t, dir, "a", "2\n"); err != nil {
				t.Fatalf("session a stays locked after its writer died: %v", err)
			}
			// The dead writer's bytes are recorded as a sync, then the edit.
			if ops := gittest.Git(t, dir, "log", "--format=%(trailers:key=Edit-Op,valueonly,separator=)", tip+"..refs/edits/a"); ops != "edit\nsync\n" {
				t.Fatalf("history after the dead writer: %q", ops)
			}
			if got := gittest.ReadFile(t, dir, "a.txt"); got != "2\n" {
				t.Fatalf("a.txt = %q", got)
			}
			if left := leftovers(t, dir); len(left) != 0 {
				t.Fatalf("left behind: %v", left)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// A ref lock that is not a dead git-edit's is never removed: another
// program's (even where a dead git-edit's record of an earlier lock at the
// same path remains), or one a running git-edit holds. The update is
// refused with ErrRefLocked after the wait, and the lock, the ref and the
// files stay exactly as they were.
func TestAttackRefLockOfAnotherIsNeverRemoved(t *testing.T) {
	for _, tc := range []struct {
		name    string
		setup   func(t *testing.T, dir string)
		message string
	}{
		{"another program's lock", func(t *testing.T, dir string) {
			gittest.WriteFile(t, dir, ".git/refs/edits/a.lock", "another program\n")
		}, "if none is running, delete that file and retry"},
		{"another program's lock where a dead git-edit's record remains", func(t *testing.T, dir string) {
			killedHoldingRefLock(t, dir, "a")
			// The person deletes the dead writer's lock; then git takes
			// its own at that path.
			if err := os.Remove(refLockPath(dir, "a")); err != nil {
				t.Fatal(err)
			}
			gittest.WriteFile(t, dir, ".git/refs/edits/a.lock", "another program\n")
		}, "if none is running, delete that file and retry"},
		{"a running git-edit's lock", func(t *testing.T, dir string) {
			cmd := startWriter(t, dir, "a", "hang:ref-locked")
			t.Cleanup(func() {
				cmd.Process.Kill()
				cmd.Wait()
			})
			deadline := time.Now().Add(20 * time.Second)
			for len(leftovers(t, dir)) < 2 { // the lock and its record
				if time.Now().After(deadline) {
					t.Fatal("the writer did not take the lock")
				}
				time.Sleep(5 * time.Millisecond)
			}
		}, "held by another git-edit process that is still running"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "0\n"})
			if err := editSession(t, dir, "a", "1\n"); err != nil {
				t.Fatal(err)
			}
			tc.setup(t, dir)
			lockBefore := gittest.ReadFile(t, dir, ".git/refs/edits/a.lock")
			fileBefore := gittest.ReadFile(t, dir, "a.txt")
			refsBefore := gittest.Git(t, dir, "for-each-ref")
			r, err := repo.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			tip, head := plumbing.NewHash(gittest.Rev(t, dir, "refs/edits/a")), plumbing.NewHash(gittest.Rev(t, dir, "HEAD"))
			err = r.UpdateRef("refs/edits/a", tip, head, "test")
			if !errors.Is(err, repo.ErrRefLocked) || !strings.Contains(err.Error(), tc.message) {
				t.Fatalf("got %v, want ErrRefLocked saying %q", err, tc.message)
			}
			if got := gittest.ReadFile(t, dir, ".git/refs/edits/a.lock"); got != lockBefore {
				t.Fatalf("the lock changed: %q, was %q", got, lockBefore)
			}
			if gittest.ReadFile(t, dir, "a.txt") != fileBefore || gittest.Git(t, dir, "for-each-ref") != refsBefore {
				t.Fatal("a refused update changed a file or a ref")
			}
		})
	}
}

// DeleteRefs is all or nothing: with one ref moved, or locked by another
// program, no ref is deleted and the error says which.
func TestAttackDeleteRefsDeletesNothingWhenOneMoved(t *testing.T) {
	for _, tc := range []struct {
		name    string
		spoil   func(t *testing.T, dir string, refs []repo.Ref) []repo.Ref
		want    error
		message string
	}{
		{"a ref moved", func(t *testing.T, dir string, refs []repo.Ref) []repo.Ref {
			refs[1].Hash = plumbing.NewHash(gittest.Rev(t, dir, "HEAD"))
			return refs
		}, repo.ErrRefChanged, "refs/edits/b"},
		{"a ref is gone", func(t *testing.T, dir string, refs []repo.Ref) []repo.Ref {
			return append(refs, repo.Ref{Name: "refs/edits/gone", Hash: refs[0].Hash})
		}, repo.ErrRefChanged, "refs/edits/gone"},
		{"a ref is locked by another program", func(t *testing.T, dir string, refs []repo.Ref) []repo.Ref {
			gittest.WriteFile(t, dir, ".git/refs/edits/b.lock", "")
			return refs
		}, repo.ErrRefLocked, "b.lock"},
		{"packed-refs is locked by another program", func(t *testing.T, dir string, refs []repo.Ref) []repo.Ref {
			gittest.Git(t, dir, "pack-refs", "--all")
			gittest.WriteFile(t, dir, ".git/packed-refs.lock", "")
			return refs
		}, repo.ErrRefLocked, "packed-refs.lock"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "0\n", "b.txt": "0\n"})
			var refs []repo.Ref
			for _, s := range []string{"a", "b"} {
				if err := editSession(t, dir, s, "1\n"); err != nil {
					t.Fatal(err)
				}
				refs = append(refs, repo.Ref{Name: "refs/edits/" + s, Hash: plumbing.NewHash(gittest.Rev(t, dir, "refs/edits/"+s))})
			}
			refs = tc.spoil(t, dir, refs)
			before := gittest.Git(t, dir, "for-each-ref")
			r, err := repo.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			err = r.DeleteRefs(refs)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.message) || !strings.Contains(err.Error(), "nothing was deleted") {
				t.Fatalf("got %v, want %v naming %q", err, tc.want, tc.message)
			}
			if after := gittest.Git(t, dir, "for-each-ref"); after != before {
				t.Fatalf("refs changed:\n%s\nwas\n%s", after, before)
			}
			for _, s := range []string{"a", "b"} {
				if out := gittest.Git(t, dir, "reflog", "refs/edits/"+s); out == "" {
					t.Fatalf("the reflog of %s is gone", s)
				}
			}
		})
	}
}

// Item 2 of issue 22: a git-edit killed holding refs/edits/a.lock made the
// person's `git gc` fail until a later git-edit wrote session a, which an
// MCP server (a new session at every start) never does. Any command, on
// any session, and `sessions` clear it; a lock no running git-edit holds
// and git-edit cannot clear (another program's) is named by StuckLocks and
// left exactly as it is; a running writer's lock is neither removed nor
// named.
func TestAttackDeadWritersRefLockClearedByAnyCommand(t *testing.T) {
	for _, how := range []string{"a command on another session", "sessions"} {
		t.Run(how, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "0\n", "b.txt": "0\n", "c.txt": "0\n"})
			if err := editSession(t, dir, "a", "1\n"); err != nil {
				t.Fatal(err)
			}
			killedHoldingRefLock(t, dir, "a")
			if _, err := gittest.GitErr(dir, "gc", "-q"); err == nil {
				t.Log("git gc passes beside a ref lock with this git")
			}
			// A lock of another program's, at session c: never removed.
			gittest.WriteFile(t, dir, ".git/refs/edits/c.lock", "another program's\n")
			// A running writer, stopped holding session b's lock.
			writer := startWriter(t, dir, "b", "hang:ref-locked")
			defer writer.Process.Kill()
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				if _, err := os.Stat(refLockPath(dir, "b")); err == nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the writer did not take its lock")
				}
			}

			r, err := repo.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			if how == "sessions" {
				if _, err := session.List(r); err != nil {
					t.Fatal(err)
				}
			} else if _, err := session.New(r, "other"); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(refLockPath(dir, "a")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the dead writer's lock is still there: %v", err)
			}
			if _, err := os.Stat(refLockPath(dir, "b")); err != nil {
				t.Errorf("the running writer's lock was removed: %v", err)
			}
			if got := gittest.ReadFile(t, dir, ".git/refs/edits/c.lock"); got != "another program's\n" {
				t.Errorf("another program's lock became %q", got)
			}
			stuck, err := session.StuckLocks(r)
			if err != nil {
				t.Fatal(err)
			}
			if len(stuck) != 1 || !strings.Contains(stuck[0], refLockPath(dir, "c")) || !strings.Contains(stuck[0], "delete it") {
				t.Errorf("StuckLocks = %q; want only c.lock, named with what to do", stuck)
			}
			writer.Process.Kill()
			writer.Wait()
			must(t, os.Remove(refLockPath(dir, "c")))
			r, err = repo.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := session.List(r); err != nil {
				t.Fatal(err)
			}
			if left := leftovers(t, dir); len(left) != 0 {
				t.Errorf("left behind: %v", left)
			}
			gittest.Git(t, dir, "gc", "-q")
			gittest.Fsck(t, dir)
		})
	}
}
