package session_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
)

// The swap without exchange (FreeBSD, macOS off APFS/HFS+, NFS): the file
// is moved aside, proven, and the new file renamed in without replacing.
// These tests force it with repo.SetNoExchange, so that they run it on
// Linux too; with -tags gitedit_portable it is the only swap there is.

// TestAttackFileCreatedWhileTheNameIsAsideIsKept creates f.txt (as a
// shell's `>>` does, O_CREAT, when it finds no file) in the moment the
// swap without exchange has moved it aside and not yet renamed git-edit's
// file in: the rename in must not replace the newcomer; the newcomer is
// moved to a kept name (named in the refusal), the file moved aside goes
// back, and the edit starts over on it. No byte of either is lost, and
// the file keeps everything it held.
func TestAttackFileCreatedWhileTheNameIsAsideIsKept(t *testing.T) {
	defer repo.SetNoExchange(true)()
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\ntwo\n"})
	r, s := open(t, dir, "s")
	file := filepath.Join(dir, "f.txt")
	created := false
	restore := repo.SetPauseHook(func(at, _ string) {
		if at == "aside" && !created {
			created = true
			if _, err := os.Lstat(file); !os.IsNotExist(err) {
				t.Errorf("at the pause point \"aside\", f.txt is there (%v), want it moved aside", err)
			}
			f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644) // as `>>` opens
			must(t, err)
			_, err = f.WriteString("newcomer\n")
			must(t, err)
			must(t, f.Close())
		}
	})
	_, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside, replaceFirst("f.txt", "one", "ONE", false))
	restore()
	if !created {
		t.Fatal("the swap without exchange never paused at \"aside\"")
	}
	if err != nil {
		t.Fatalf("edit: %v, want success after starting over", err)
	}
	if got := gittest.ReadFile(t, dir, "f.txt"); got != "ONE\ntwo\n" {
		t.Fatalf("f.txt = %q, want the file put back and edited", got)
	}
	kept, _ := filepath.Glob(filepath.Join(dir, ".f.txt.git-edit-*"))
	if len(kept) != 1 || !strings.Contains(kept[0], ".git-edit-kept-") {
		t.Fatalf("files left beside f.txt: %q, want the newcomer, kept", kept)
	}
	if got, _ := os.ReadFile(kept[0]); string(got) != "newcomer\n" {
		t.Fatalf("%s = %q, want the file created while f.txt was aside", kept[0], got)
	}
	gittest.Fsck(t, dir)
}

// TestAttackKilledFallbackSwapLosesNothing kills a git-edit process (this
// test binary, run again) in the swap without exchange: after the file is
// moved aside (the name is absent, the new bytes are in a temporary
// file), and after the new file is renamed in (the old one is still
// aside). The next operation, whatever file it edits, clears up: at the
// first point the file goes back to its name and the new bytes (of an
// operation that never moved its ref) go; at the second the file holds
// the new bytes, and the old ones are removed when history has them (they
// were HEAD's) and kept beside it when not (the person wrote them by
// hand). The old bytes are never lost, and `record` never takes a
// temporary file for work.
func TestAttackKilledFallbackSwapLosesNothing(t *testing.T) {
	if dir := os.Getenv("GIT_EDIT_TEST_SWAP_KILLED_DIR"); dir != "" {
		repo.SetNoExchange(true)
		repo.SetCrashPoint(os.Getenv("GIT_EDIT_TEST_SWAP_KILLED_AT"))
		r, s := open(t, dir, "s")
		s.Apply(context.Background(), resolve(t, r, dir, "sub/f.txt"), session.RecordOutside,
			replaceFirst("sub/f.txt", "line", "LINE", false))
		t.Fatal("the process was not killed")
	}
	big := strings.Repeat("line of a big file\n", 1<<20/19)
	for _, c := range []struct {
		name, point string
		byHand      bool // the person changed the file before: no history has its bytes
		left        int  // temporary files the killed process leaves
		edited      bool // f.txt holds the edit's bytes after the next operation
		kept        bool // the old bytes kept beside it
	}{
		{"swap-aside", "swap-aside", false, 2, false, false},
		// The old bytes are HEAD's: history has them, they go.
		{"swap-in", "swap-in", false, 1, true, false},
		{"swap-in, bytes by hand", "swap-in", true, 1, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"sub/f.txt": big, "other.txt": "o\n"})
			old := big
			if c.byHand {
				old = "written by hand\n" + big
				gittest.WriteFile(t, dir, "sub/f.txt", old)
			}
			want := old
			if c.edited {
				want = strings.Replace(old, "line", "LINE", 1)
			}
			child := exec.Command(os.Args[0], "-test.run=^TestAttackKilledFallbackSwapLosesNothing$", "-test.count=1")
			child.Env = append(os.Environ(), "GIT_EDIT_TEST_SWAP_KILLED_DIR="+dir, "GIT_EDIT_TEST_SWAP_KILLED_AT="+c.point)
			if out, err := child.CombinedOutput(); err == nil || !strings.Contains(err.Error(), "killed") {
				t.Fatalf("the child was not killed: %v\n%s", err, out)
			}
			temps, _ := filepath.Glob(filepath.Join(dir, "sub", ".f.txt.git-edit-*"))
			if len(temps) != c.left {
				t.Fatalf("precondition: the killed process left %q, want %d temporary files", temps, c.left)
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
			if got := gittest.ReadFile(t, dir, "sub/f.txt"); got != want {
				t.Fatalf("sub/f.txt after the next operation: %d bytes, want %d", len(got), len(want))
			}
			left, _ := filepath.Glob(filepath.Join(dir, "sub", ".f.txt.git-edit-*"))
			switch {
			case !c.kept && len(left) != 0:
				t.Fatalf("an edit of another file left the dead process's %q", left)
			case c.kept && (len(left) != 1 || !strings.Contains(left[0], ".git-edit-kept-")):
				t.Fatalf("beside sub/f.txt: %q, want the old bytes kept under a kept name", left)
			case c.kept:
				if got, _ := os.ReadFile(left[0]); string(got) != old {
					t.Fatalf("%s holds %d bytes, want the old %d", left[0], len(got), len(old))
				}
			}
			status := " M other.txt\n"
			switch {
			case c.kept:
				status = " M other.txt\n M sub/f.txt\n?? sub/" + filepath.Base(left[0]) + "\n"
			case c.edited || c.byHand:
				status = " M other.txt\n M sub/f.txt\n"
			}
			if st := gittest.Status(t, dir); st != status {
				t.Fatalf("git status:\n%s\nwant:\n%s", st, status)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// TestAttackEditorSaveWhileDeletingByLinkIsKept saves f.txt the way
// editors do (write a new file, rename it over the old) while a deletion
// moves f.txt aside, in the moment a rename without replacing that links
// and unlinks (FreeBSD; NFS) has both names on the file: the unlink would
// take the editor's save with it, and the proof of the file moved aside
// (the file checked, unchanged) would pass. The move aside is therefore a
// plain rename to a fresh name, which moves whichever file is at the name
// for the proof to see. Where the move aside never links (renameat2), the
// pause never comes and the deletion must simply be whole.
func TestAttackEditorSaveWhileDeletingByLinkIsKept(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\ntwo\n"})
	r, s := open(t, dir, "s")
	file := filepath.Join(dir, "f.txt")
	saved := false
	restore := repo.SetPauseHook(func(at, path string) {
		if at == "linked" && path == "f.txt" && !saved {
			saved = true
			swp := filepath.Join(dir, ".f.txt.swp")
			must(t, os.WriteFile(swp, []byte("one\ntwo\neditor save\n"), 0o644))
			must(t, os.Rename(swp, file))
		}
	})
	_, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside, replaceFirst("f.txt", "one", "ONE", true))
	restore()
	if err != nil {
		t.Fatalf("delete: %v", err)
	}
	if saved && !strings.Contains(gittest.ReadFile(t, dir, "f.txt")+history(t, dir, "s"), "editor save") {
		t.Fatal("the editor's save, made while f.txt was linked aside, is neither on disk nor in history")
	}
	if got := gittest.ReadFile(t, dir, "f.txt"); got != gittest.Missing {
		t.Fatalf("f.txt = %q, want it deleted", got)
	}
	if st := gittest.Status(t, dir); st != " D f.txt\n" {
		t.Fatalf("git status:\n%s\nwant only the deletion", st)
	}
	gittest.Fsck(t, dir)
}

// TestAttackShellAppendsToTheNewFileDuringSwapBackAreKept: without read
// leases, a shell's `>>` lands in the file moved aside (so the last proof
// fails and the swap is undone) and its next `>>`, opened at the name once
// git-edit's new file is there, lands in git-edit's file: undoing the swap
// must keep that line (the review found it deleted with git-edit's file).
func TestAttackShellAppendsToTheNewFileDuringSwapBackAreKept(t *testing.T) {
	defer repo.SetNoExchange(true)()
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\ntwo\n"})
	if caps, err := repo.Capabilities(dir); err != nil {
		t.Fatal(err)
	} else if caps.Leases {
		// With leases the second open would wait for git-edit's lease on
		// its own file (TestAttackWriterOpeningDuringTheSwapIsKept).
		t.Skip("read leases hold the second writer off here; the case is the one without leases (-tags gitedit_portable)")
	}
	r, s := open(t, dir, "s")
	file := filepath.Join(dir, "f.txt")
	var aside string
	appended := 0
	restore := repo.SetPauseHook(func(at, _ string) {
		switch {
		case at == "aside" && appended == 0:
			names, _ := filepath.Glob(filepath.Join(dir, ".f.txt.git-edit-*"))
			for _, n := range names {
				if b, _ := os.ReadFile(n); string(b) == "one\ntwo\n" {
					aside = n
				}
			}
			f, err := os.OpenFile(aside, os.O_WRONLY|os.O_APPEND, 0) // a handle opened before the swap
			must(t, err)
			_, err = f.WriteString("first\n")
			must(t, err)
			must(t, f.Close())
			appended++
		case at == "swapped-in" && appended == 1:
			f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644) // the next `>>`
			must(t, err)
			_, err = f.WriteString("second\n")
			must(t, err)
			must(t, f.Close())
			appended++
		}
	})
	_, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside, replaceFirst("f.txt", "one", "ONE", false))
	restore()
	if appended != 2 {
		t.Fatalf("appended %d times, want 2 (aside %q)", appended, aside)
	}
	var all strings.Builder
	all.WriteString(gittest.ReadFile(t, dir, "f.txt"))
	kept, _ := filepath.Glob(filepath.Join(dir, ".f.txt.git-edit-kept-*"))
	for _, k := range kept {
		b, _ := os.ReadFile(k)
		all.Write(b)
	}
	for _, line := range []string{"first\n", "second\n"} {
		if strings.Count(all.String(), line) != 1 {
			t.Errorf("%q is not once in f.txt and the kept files (%q; edit: %v)", line, all.String(), err)
		}
	}
	gittest.Fsck(t, dir)
}

// TestAttackDirectoryInPlaceOfTheFileGoesBack: a directory put in place of
// the file between git-edit's check and its move aside is moved aside with
// it; the proof fails and the directory must go back to the name, also
// where renameNoReplace links and unlinks (a directory cannot be linked),
// never left hidden under a temporary name.
func TestAttackDirectoryInPlaceOfTheFileGoesBack(t *testing.T) {
	for _, del := range []bool{false, true} {
		t.Run(fmt.Sprintf("delete=%v", del), func(t *testing.T) {
			defer repo.SetNoExchange(true)()
			dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\ntwo\n"})
			r, s := open(t, dir, "s")
			file := filepath.Join(dir, "f.txt")
			swapped := false
			restore := repo.SetPauseHook(func(at, _ string) {
				if at == "leased" && !swapped {
					swapped = true
					must(t, os.Rename(file, filepath.Join(dir, "saved.txt")))
					must(t, os.Mkdir(file, 0o755))
					must(t, os.WriteFile(filepath.Join(file, "inside"), []byte("keep\n"), 0o644))
				}
			})
			_, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside, replaceFirst("f.txt", "one", "ONE", del))
			restore()
			if !swapped {
				t.Fatal("never paused at \"leased\"")
			}
			if err == nil {
				t.Fatal("the edit succeeded with a directory at f.txt")
			}
			if b, rerr := os.ReadFile(filepath.Join(file, "inside")); rerr != nil || string(b) != "keep\n" {
				t.Fatalf("f.txt/inside = %q, %v after %v; want the directory back at its name", b, rerr, err)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, ".f.txt.git-edit-*")); len(left) != 0 {
				t.Fatalf("left beside f.txt: %q (edit: %v)", left, err)
			}
		})
	}
}

// TestAttackSameSizeWriteToTheNewFileDuringSwapBackIsKept: without read
// leases, a program overwrites git-edit's new file in place, same size, in
// the same tick of the coarse clock (its mtime unchanged), while the swap
// is undone because the file moved aside was written to: the overwritten
// bytes are the program's and must be kept, not deleted with git-edit's
// file (size and mtime alone did not see them).
func TestAttackSameSizeWriteToTheNewFileDuringSwapBackIsKept(t *testing.T) {
	defer repo.SetNoExchange(true)()
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\ntwo\n"})
	if caps, err := repo.Capabilities(dir); err != nil {
		t.Fatal(err)
	} else if caps.Leases {
		t.Skip("read leases see the writer here (TestAttackWriterOpeningDuringTheSwapIsKept); the case is the one without leases (-tags gitedit_portable)")
	}
	r, s := open(t, dir, "s")
	file := filepath.Join(dir, "f.txt")
	hit := false
	restore := repo.SetPauseHook(func(at, _ string) {
		if at != "swapped-in" || hit {
			return
		}
		hit = true
		names, _ := filepath.Glob(filepath.Join(dir, ".f.txt.git-edit-*"))
		for _, n := range names {
			if b, _ := os.ReadFile(n); string(b) == "one\ntwo\n" {
				must(t, os.WriteFile(n, []byte("one\ntwo\nfirst\n"), 0o644)) // the proof fails
			}
		}
		fi, err := os.Stat(file)
		must(t, err)
		f, err := os.OpenFile(file, os.O_WRONLY, 0)
		must(t, err)
		_, err = f.WriteAt([]byte("XYZ"), 0) // "ONE" -> "XYZ": same size
		must(t, err)
		must(t, f.Close())
		must(t, os.Chtimes(file, fi.ModTime(), fi.ModTime())) // the same tick
	})
	_, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside, replaceFirst("f.txt", "one", "ONE", false))
	restore()
	if !hit {
		t.Fatal("never paused at \"swapped-in\"")
	}
	var all strings.Builder
	all.WriteString(gittest.ReadFile(t, dir, "f.txt"))
	kept, _ := filepath.Glob(filepath.Join(dir, ".f.txt.git-edit-kept-*"))
	for _, k := range kept {
		b, _ := os.ReadFile(k)
		all.Write(b)
	}
	for _, line := range []string{"first\n", "XYZ\n"} {
		if strings.Count(all.String(), line) != 1 {
			t.Errorf("%q is not once in f.txt and the kept files (%q; edit: %v)", line, all.String(), err)
		}
	}
	gittest.Fsck(t, dir)
}
