package session_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
)

// replaceFirst is a planner that edits what is on disk now (as every
// dialect does): the first occurrence of old becomes new, or the file is
// deleted when del.
func replaceFirst(path, old, new string, del bool) func(*session.Tx) (session.Plan, error) {
	return func(tx *session.Tx) (session.Plan, error) {
		pl := session.Plan{Meta: session.Meta{Op: session.OpEdit, Tool: "test.replace"}}
		if del {
			pl.Changes = []session.Change{{Path: path, Delete: true}}
			return pl, nil
		}
		cur := tx.Files[path].Content
		pl.Changes = []session.Change{{Path: path, Content: bytes.Replace(cur, []byte(old), []byte(new), 1)}}
		return pl, nil
	}
}

// appendLine appends a line as a person's editor or a shell `>>` does:
// open by name, write, close.
func appendLine(t testing.TB, path, line string) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Error(err)
		return
	}
	if _, err := f.WriteString(line + "\n"); err != nil {
		t.Error(err)
	}
	f.Close()
}

// history is every version of every file the session recorded.
func history(t *testing.T, dir, name string) string {
	return gittest.Git(t, dir, "log", "-p", "refs/edits/"+name)
}

// TestAttackPersonWritingDuringEditLosesNothing appends a line to the file
// at each point between git-edit's read and its rename (after planning;
// right before the check of the old bytes; between that check and the
// rename, where only the re-read after the rename can notice). The edit
// must start over, so the person's line is kept on disk (an edit) or in a
// sync commit (a delete), and the agent's change is applied on top.
func TestAttackPersonWritingDuringEditLosesNothing(t *testing.T) {
	for _, point := range []string{"objects-written", "before-rename", "checked"} {
		for _, del := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/delete=%v", point, del), func(t *testing.T) {
				dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\ntwo\n"})
				r, s := open(t, dir, "s")
				file := filepath.Join(dir, "f.txt")
				hits := 0
				restore := repo.SetPauseHook(func(at, _ string) {
					if at == point && hits == 0 {
						hits++
						appendLine(t, file, "person")
					}
				})
				_, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside, replaceFirst("f.txt", "one", "ONE", del))
				restore()
				if err != nil {
					t.Fatalf("the edit failed instead of starting over: %v", err)
				}
				if hits != 1 {
					t.Fatalf("pause point %q reached %d times", point, hits)
				}
				if del {
					if _, err := os.Stat(file); !os.IsNotExist(err) {
						t.Fatalf("the file was not deleted: %v", err)
					}
					if !strings.Contains(history(t, dir, "s"), "+person") {
						t.Fatalf("the person's line is neither on disk nor in the session's history")
					}
					return
				}
				if got := gittest.ReadFile(t, dir, "f.txt"); got != "ONE\ntwo\nperson\n" {
					t.Fatalf("file = %q, want the agent's change on top of the person's line", got)
				}
				sync := gittest.Git(t, dir, "show", "refs/edits/s~1:f.txt")
				if sync != "one\ntwo\nperson\n" {
					t.Fatalf("the sync commit holds %q, want the person's bytes", sync)
				}
			})
		}
	}
}

// TestAttackSameSizeOverwriteIsNoticed overwrites bytes in place between
// git-edit's check and its rename (the size stays the same): the re-read
// after the rename must still notice, and the person's bytes survive.
func TestAttackSameSizeOverwriteIsNoticed(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\ntwo\n"})
	r, s := open(t, dir, "s")
	file := filepath.Join(dir, "f.txt")
	done := false
	restore := repo.SetPauseHook(func(at, _ string) {
		if at == "checked" && !done {
			done = true
			f, err := os.OpenFile(file, os.O_WRONLY, 0)
			if err != nil {
				t.Error(err)
				return
			}
			f.WriteAt([]byte("TWO"), 4)
			f.Close()
		}
	})
	_, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside, replaceFirst("f.txt", "one", "ONE", false))
	restore()
	if err != nil || !done {
		t.Fatalf("edit: %v (overwrote: %v)", err, done)
	}
	if got := gittest.ReadFile(t, dir, "f.txt"); got != "ONE\nTWO\n" {
		t.Fatalf("file = %q, want the agent's change on top of the person's", got)
	}
}

// TestAttackPersistentWriterIsRefused writes to the file on every attempt
// between git-edit's check and its rename: after its attempts git-edit
// refuses, saying so, with every line the person wrote on disk and no ref
// moved.
func TestAttackPersistentWriterIsRefused(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n"})
	r, s := open(t, dir, "s")
	file := filepath.Join(dir, "f.txt")
	n := 0
	restore := repo.SetPauseHook(func(at, _ string) {
		if at == "checked" {
			n++
			appendLine(t, file, "person "+strconv.Itoa(n))
		}
	})
	_, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside, replaceFirst("f.txt", "one", "ONE", false))
	restore()
	if !errors.Is(err, repo.ErrFileChanged) || !strings.Contains(err.Error(), "the file changed while editing; nothing was written") {
		t.Fatalf("err = %v, want the file-changed refusal", err)
	}
	want := "one\n"
	for i := 1; i <= n; i++ {
		want += "person " + strconv.Itoa(i) + "\n"
	}
	if got := gittest.ReadFile(t, dir, "f.txt"); got != want || n < 2 {
		t.Fatalf("after %d attempts the file holds %q, want %q", n, got, want)
	}
	if refs := gittest.Git(t, dir, "for-each-ref", "refs/edits/"); refs != "" {
		t.Fatalf("a refused edit moved a ref: %s", refs)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 { // .git and f.txt
		t.Fatalf("temporary files left: %v", entries)
	}
}

// TestAttackAppenderLosesNothing is the randomized form: a person appends
// a numbered line every millisecond while the agent edits the same file;
// every appended line must end up on disk.
func TestAttackAppenderLosesNothing(t *testing.T) {
	edits := 100
	if testing.Short() {
		edits = 25
	}
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "counter 0\n"})
	r, s := open(t, dir, "s")
	file := filepath.Join(dir, "f.txt")
	var stop atomic.Bool
	var appended atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 1; !stop.Load(); i++ {
			appendLine(t, file, "person "+strconv.Itoa(i))
			appended.Store(int64(i))
			time.Sleep(time.Millisecond)
		}
	}()
	for i := range edits {
		_, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside,
			replaceFirst("f.txt", "counter "+strconv.Itoa(i)+"\n", "counter "+strconv.Itoa(i+1)+"\n", false))
		if err != nil && !errors.Is(err, repo.ErrFileChanged) {
			t.Fatalf("edit %d: %v", i, err)
		}
	}
	stop.Store(true)
	wg.Wait()
	got := gittest.ReadFile(t, dir, "f.txt")
	for i := 1; i <= int(appended.Load()); i++ {
		if !strings.Contains(got, "person "+strconv.Itoa(i)+"\n") {
			t.Fatalf("line %d of %d appended by the person is lost", i, appended.Load())
		}
	}
	if out, err := gittest.GitErr(dir, "fsck", "--strict"); err != nil {
		t.Fatalf("fsck: %v\n%s", err, out)
	}
}

// TestAttackPruneNowCannotRemoveAnEditsObjects runs `git gc --prune=now`
// while an edit's objects are written and its ref not yet moved. The
// objects must survive (they sit in a kept pack), the ref must name a
// commit that exists, and the person's own gc and fsck must keep working.
func TestAttackPruneNowCannotRemoveAnEditsObjects(t *testing.T) {
	for _, point := range []string{"objects-written", "files-written"} {
		t.Run(point, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n", "d/g.txt": "g\n"})
			gittest.WriteFile(t, dir, "f.txt", "person's change\n") // so a sync commit is written too
			r, s := open(t, dir, "s")
			ran := false
			restore := repo.SetPauseHook(func(at, _ string) {
				if at == point && !ran {
					ran = true
					gittest.Git(t, dir, "gc", "--prune=now", "--quiet")
				}
			})
			_, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt", "d/g.txt"), session.RecordOutside,
				setContent("test.set", map[string]string{"f.txt": "agent\n", "d/g.txt": "G\n"}))
			restore()
			if err != nil || !ran {
				t.Fatalf("edit: %v (gc ran: %v)", err, ran)
			}
			if out, err := gittest.GitErr(dir, "fsck", "--strict", "--no-dangling"); err != nil || out != "" {
				t.Fatalf("fsck after a concurrent gc --prune=now: %v\n%s", err, out)
			}
			if got := gittest.Git(t, dir, "show", "refs/edits/s:d/g.txt"); got != "G\n" {
				t.Fatalf("the edit's commit reads %q", got)
			}
			gittest.Git(t, dir, "gc", "--prune=now", "--quiet")
			if keeps, _ := filepath.Glob(filepath.Join(dir, ".git/objects/pack/*.keep")); len(keeps) != 0 {
				t.Fatalf("keep files outlived the edit: %v", keeps)
			}
			if got := gittest.Git(t, dir, "rev-list", "--count", "refs/edits/s"); got != "3\n" {
				t.Fatalf("session history has %q commits, want 3 (base, sync, edit)", got)
			}
		})
	}
}

// TestAttackEditsSurviveGCAndRepackLoops edits while the person runs `git
// gc --prune=now` and `git repack -adf` in a loop: no edit may fail, and
// the repository must stay whole.
func TestAttackEditsSurviveGCAndRepackLoops(t *testing.T) {
	edits := 60
	if testing.Short() {
		edits = 15
	}
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "0\n"})
	r, s := open(t, dir, "s")
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; !stop.Load(); i++ {
			args := []string{"gc", "--prune=now", "--quiet"}
			if i%2 == 1 {
				args = []string{"repack", "-adf", "--quiet"}
			}
			if out, err := gittest.GitErr(dir, args...); err != nil {
				t.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, out)
				return
			}
		}
	}()
	for i := range edits {
		_, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside,
			setContent("test.set", map[string]string{"f.txt": strconv.Itoa(i+1) + "\n"}))
		if err != nil {
			stop.Store(true)
			wg.Wait()
			t.Fatalf("edit %d failed while gc and repack ran: %v", i+1, err)
		}
	}
	stop.Store(true)
	wg.Wait()
	if out, err := gittest.GitErr(dir, "fsck", "--strict", "--no-dangling"); err != nil || out != "" {
		t.Fatalf("fsck: %v\n%s", err, out)
	}
	if got := gittest.Git(t, dir, "rev-list", "--count", "refs/edits/s"); got != strconv.Itoa(edits+1)+"\n" {
		t.Fatalf("session has %q commits, want %d", got, edits+1)
	}
}

// TestAttackRewriteKeepsOwner rewrites a file owned by another user (as
// root): the file keeps its owner and group, and so does a file in a
// directory git-edit creates nothing in.
func TestAttackRewriteKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to own a file as another user")
	}
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n"})
	file := filepath.Join(dir, "f.txt")
	if err := os.Chown(file, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	r, s := open(t, dir, "s")
	if _, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside, setContent("test.set", map[string]string{"f.txt": "two\n"})); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if uid, gid := ownerOf(fi); uid != 65534 || gid != 65534 {
		t.Fatalf("owner after the edit = %d:%d, want 65534:65534", uid, gid)
	}
	if got := gittest.ReadFile(t, dir, "f.txt"); got != "two\n" {
		t.Fatalf("file = %q", got)
	}
}

// TestAttackTrailingSlashIsNotADirectory refuses "f.txt/" and its kin
// instead of editing f.txt.
func TestAttackTrailingSlashIsNotADirectory(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n", "d/g.txt": "g\n"})
	r, _ := open(t, dir, "s")
	for _, arg := range []string{"f.txt/", "f.txt/.", "d/g.txt//", "d/g.txt/..", filepath.Join(dir, "f.txt") + "/"} {
		_, err := r.Resolve(dir, arg)
		if !errors.Is(err, repo.ErrPathRefused) || !strings.Contains(err.Error(), "is not a directory") {
			t.Errorf("Resolve(%q) = %v, want a not-a-directory refusal", arg, err)
		}
	}
}

// TestAttackEditorSaveBetweenCheckAndSwapIsKept saves the file the way
// editors do (write a new file, rename it over the old) between git-edit's
// check and its swap: the check of the swapped-out file must notice that it
// is not the file checked, put the editor's file back and start over. It
// runs with the atomic exchange and, as where there is none, with the
// swap without exchange (which moves the file aside before it proves it).
func TestAttackEditorSaveBetweenCheckAndSwapIsKept(t *testing.T) {
	for _, c := range []struct {
		del, noExchange bool
	}{{false, false}, {true, false}, {false, true}} {
		t.Run(fmt.Sprintf("delete=%v", c.del)+map[bool]string{true: "/no-exchange"}[c.noExchange], func(t *testing.T) {
			del := c.del
			defer repo.SetNoExchange(c.noExchange)()
			dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\ntwo\n"})
			r, s := open(t, dir, "s")
			file := filepath.Join(dir, "f.txt")
			saved := false
			restore := repo.SetPauseHook(func(at, _ string) {
				if at == "checked" && !saved {
					saved = true
					swp := filepath.Join(dir, ".f.txt.swp")
					must(t, os.WriteFile(swp, []byte("one\ntwo\neditor save\n"), 0o644))
					must(t, os.Rename(swp, file))
				}
			})
			_, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside, replaceFirst("f.txt", "one", "ONE", del))
			restore()
			if err != nil || !saved {
				t.Fatalf("edit: %v (saved: %v)", err, saved)
			}
			if del {
				if !strings.Contains(history(t, dir, "s"), "+editor save") {
					t.Fatal("the editor's save is neither on disk nor in history")
				}
				return
			}
			if got := gittest.ReadFile(t, dir, "f.txt"); got != "ONE\ntwo\neditor save\n" {
				t.Fatalf("file = %q, want the agent's change on top of the editor's save", got)
			}
		})
	}
}

// TestAttackPermissionsAndOwnersAreExact edits files whose bits or group a
// careless rewrite would change: an executable with only the owner's x bit,
// a file in a setgid directory whose group is not the directory's, and a
// 0600 file that a failed multi-file operation deletes and must put back.
func TestAttackPermissionsAndOwnersAreExact(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"x.sh": "#!/bin/sh\n", "g/f.txt": "one\n", "secret.txt": "s\n", "sub/b.txt": "b\n"})
	must(t, os.Chmod(filepath.Join(dir, "x.sh"), 0o744))
	must(t, os.Chmod(filepath.Join(dir, "secret.txt"), 0o600))
	r, s := open(t, dir, "s")
	if _, err := s.Apply(context.Background(), resolve(t, r, dir, "x.sh"), session.RecordOutside, replaceFirst("x.sh", "sh", "bash", false)); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "x.sh")); fi.Mode().Perm() != 0o744 {
		t.Errorf("x.sh is %v after an edit, want -rwxr--r--", fi.Mode().Perm())
	}
	if os.Geteuid() == 0 {
		must(t, os.Chown(filepath.Join(dir, "g"), 0, 4242))
		must(t, os.Chmod(filepath.Join(dir, "g"), 0o775|os.ModeSetgid))
		if _, err := s.Apply(context.Background(), resolve(t, r, dir, "g/f.txt"), session.RecordOutside, replaceFirst("g/f.txt", "one", "ONE", false)); err != nil {
			t.Fatal(err)
		}
		fi, _ := os.Stat(filepath.Join(dir, "g", "f.txt"))
		if _, gid := ownerOf(fi); gid != 0 {
			t.Errorf("g/f.txt's group became %d in a setgid directory, want 0", gid)
		}
	}
	// Delete secret.txt and rewrite sub/b.txt, which a person keeps writing
	// to: the operation fails, and secret.txt must come back as it was.
	n := 0
	restore := repo.SetPauseHook(func(at, path string) {
		if at == "checked" && path == "sub/b.txt" {
			n++
			appendLine(t, filepath.Join(dir, "sub", "b.txt"), "person "+strconv.Itoa(n))
		}
	})
	plan := func(tx *session.Tx) (session.Plan, error) {
		return session.Plan{Meta: session.Meta{Op: session.OpEdit, Tool: "test"}, Changes: []session.Change{
			{Path: "secret.txt", Delete: true}, {Path: "sub/b.txt", Content: []byte("agent\n")}}}, nil
	}
	_, err := s.Apply(context.Background(), resolve(t, r, dir, "secret.txt", "sub/b.txt"), session.RecordOutside, plan)
	restore()
	if !errors.Is(err, repo.ErrFileChanged) {
		t.Fatalf("err = %v, want the file-changed refusal", err)
	}
	fi, err := os.Stat(filepath.Join(dir, "secret.txt"))
	if err != nil || fi.Mode().Perm() != 0o600 || gittest.ReadFile(t, dir, "secret.txt") != "s\n" {
		t.Fatalf("secret.txt after the failed operation: %v %v", fi, err)
	}
}

// TestAttackLookalikeOfATemporaryFileSurvives keeps a person's file whose
// name starts like git-edit's temporary files.
func TestAttackLookalikeOfATemporaryFileSurvives(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n", ".f.txt.git-edit-notes": "mine\n", ".f.txt.git-edit-0123456789AB": "mine too\n"})
	r, s := open(t, dir, "s")
	if _, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside, replaceFirst("f.txt", "one", "two", false)); err != nil {
		t.Fatal(err)
	}
	if gittest.Status(t, dir) != " M f.txt\n" {
		t.Fatalf("status: %q", gittest.Status(t, dir))
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
