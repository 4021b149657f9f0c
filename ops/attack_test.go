package ops_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
)

// snapshotDir lists every file below dir with its bytes (symlinks as
// "-> target"), to prove a directory was not read into history, written or
// emptied.
func snapshotDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			files[rel] = "-> " + target
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func sameFiles(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func keys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// TestAttackSwappedDirectoryCannotEscape swaps a directory on the edited
// path for a symlink to a directory outside the repository at each point
// of an operation where a race could strike (after the path was resolved
// and the lock taken; after the file was read and the objects stored; right
// before the rename), for writes, creation, replacement, undo and a forced
// rollback that deletes a file. Nothing outside the root may be read into
// history, written, created or removed, and no temporary file may be left
// there.
func TestAttackSwappedDirectoryCannotEscape(t *testing.T) {
	type op struct {
		name string
		// prepare runs before the attack (session edits to undo or roll back).
		prepare func(t *testing.T, e *ops.Engine)
		run     func(e *ops.Engine) (ok bool, msg string)
	}
	call := func(tool string, args any) func(e *ops.Engine) (bool, string) {
		return func(e *ops.Engine) (bool, string) {
			raw, _ := json.Marshal(args)
			res, err := e.Call(context.Background(), tool, raw)
			if err != nil {
				return false, err.Error()
			}
			out, _ := json.Marshal(res.Value)
			return res.OK, string(out)
		}
	}
	edit := func(t *testing.T, e *ops.Engine, args any) {
		t.Helper()
		if ok, msg := call("text_editor", args)(e); !ok {
			t.Fatalf("preparing edit refused: %s", msg)
		}
	}
	steps := []op{
		{name: "write", run: call("text_editor", map[string]any{"command": "write", "path": "sub/app.txt", "file_text": "agent\n"})},
		{name: "create", run: call("text_editor", map[string]any{"command": "create", "path": "sub/new.txt", "file_text": "agent\n"})},
		{name: "str_replace", run: call("text_editor", map[string]any{"command": "str_replace", "path": "sub/app.txt", "old_str": "one", "new_str": "agent"})},
		{name: "undo", prepare: func(t *testing.T, e *ops.Engine) {
			edit(t, e, map[string]any{"command": "str_replace", "path": "sub/app.txt", "old_str": "one", "new_str": "uno"})
		}, run: func(e *ops.Engine) (bool, string) {
			_, err := e.Undo(context.Background(), "sub/app.txt", false)
			return err == nil, errString(err)
		}},
		{name: "rollback --force", prepare: func(t *testing.T, e *ops.Engine) {
			edit(t, e, map[string]any{"command": "create", "path": "sub/made.txt", "file_text": "made\n"})
		}, run: func(e *ops.Engine) (bool, string) {
			_, err := e.Rollback(context.Background(), "", true)
			return err == nil, errString(err)
		}},
	}
	for _, point := range []string{"locked", "objects-written", "before-rename"} {
		for _, o := range steps {
			t.Run(point+"/"+o.name, func(t *testing.T) {
				dir := gittest.NewWithCommit(t, map[string]string{"sub/app.txt": "one\ntwo\n", "keep.txt": "k\n"})
				gittest.Git(t, dir, "config", "edit.requireRead", "false")
				outside := t.TempDir()
				for _, name := range []string{"app.txt", "new.txt", "made.txt"} {
					must(t, os.WriteFile(filepath.Join(outside, name), []byte("OUTSIDE "+name+"\n"), 0o644))
				}
				e, err := ops.Open(ops.Options{Root: dir, Session: "s"})
				must(t, err)
				if o.prepare != nil {
					o.prepare(t, e)
					// What the prepared edit made outside the attack must
					// look like the outside file's twin, so that a wrongly
					// aimed delete or write would show.
				}
				before := snapshotDir(t, outside)
				swapped := false
				restore := repo.SetPauseHook(func(at, _ string) {
					if at != point || swapped {
						return
					}
					swapped = true
					must(t, os.Rename(filepath.Join(dir, "sub"), filepath.Join(dir, "sub.moved")))
					must(t, os.Symlink(outside, filepath.Join(dir, "sub")))
				})
				ok, msg := o.run(e)
				restore()
				if !swapped {
					t.Fatalf("the operation never reached pause point %q (ok=%v: %s)", point, ok, msg)
				}
				after := snapshotDir(t, outside)
				if !sameFiles(before, after) {
					t.Fatalf("files outside the root changed (ok=%v: %s):\nbefore %v\nafter  %v", ok, msg, before, after)
				}
				// Nothing outside was read into history either.
				if log := gittest.Git(t, dir, "log", "-p", "--all"); strings.Contains(log, "OUTSIDE") {
					t.Fatalf("outside bytes were recorded in a commit:\n%s", log)
				}
				if point != "before-rename" {
					// The directory handle is taken when the operation reaches
					// the directory: from then on the edit follows the real
					// directory (now sub.moved), never the link. Before that,
					// the swap is refused.
					if ok {
						t.Fatalf("the operation went through a directory swapped for a symlink: %s", msg)
					}
					if !strings.Contains(msg, "not a directory") {
						t.Errorf("the refusal does not say the directory was replaced: %s", msg)
					}
				}
				if out := gittest.Git(t, dir, "fsck", "--strict"); strings.Contains(out, "error") {
					t.Fatalf("fsck: %s", out)
				}
			})
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
