package ops_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
)

// rejectBase and rejectEdited: a file whose session change is three hunks
// (lines 2, 10 and 18 changed, each far enough from the next).
const rejectBase = "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nl11\nl12\nl13\nl14\nl15\nl16\nl17\nl18\nl19\nl20\n"

var rejectEdited = strings.NewReplacer("l2\n", "TWO\n", "l10\n", "TEN\n", "l18\n", "EIGHTEEN\n").Replace(rejectBase)

// rejectSession is a repository whose HEAD has a.txt and sub/a.txt =
// rejectBase and target.txt, and an engine on session s whose one edit wrote
// rejectEdited to a.txt.
func rejectSession(t *testing.T) (string, *ops.Engine) {
	t.Helper()
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": rejectBase, "sub/a.txt": rejectBase, "target.txt": "target\n"})
	e, err := ops.Open(ops.Options{Root: dir, Session: "s"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	args, _ := json.Marshal(map[string]string{"command": "write", "path": "a.txt", "file_text": rejectEdited})
	if res, err := e.Call(context.Background(), "text_editor", args); err != nil || !res.OK {
		t.Fatalf("the session's edit: %v %s", err, res.Text)
	}
	return dir, e
}

// A person writes a.txt at each point between reject's read of the file
// and its rename: once a line far from the hunk, once the hunk's own
// line. The reject starts over on what the person wrote, so the person's
// bytes are never lost: with the far line the hunk is taken back and the
// person's line stays (on disk, and recorded as a sync first); with the
// hunk's own line the reject is refused as a changed hunk, the file holds
// exactly the person's bytes and no ref moved.
func TestAttackRejectRacesAPersonsWrite(t *testing.T) {
	for _, point := range []string{"locked", "objects-written", "before-rename", "checked"} {
		for _, inHunk := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/in-hunk=%v", point, inHunk), func(t *testing.T) {
				dir, e := rejectSession(t)
				tip := gittest.Rev(t, dir, "refs/edits/s")
				person := rejectEdited + "person\n"
				if inHunk {
					person = strings.Replace(rejectEdited, "TEN\n", "ten by hand\n", 1)
				}
				hits := 0
				restore := repo.SetPauseHook(func(at, path string) {
					if at == point && (path == "" || path == "a.txt") && hits == 0 {
						hits++
						if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte(person), 0o644); err != nil {
							t.Error(err)
						}
					}
				})
				res, err := e.Reject(context.Background(), []ops.HunkPick{{Path: "a.txt", Hunks: []int{2}}}, false)
				restore()
				if hits != 1 {
					t.Fatalf("pause point %q reached %d times (err %v)", point, hits, err)
				}
				got := gittest.ReadFile(t, dir, "a.txt")
				if inHunk {
					if !errors.Is(err, ops.ErrHunkChanged) || !strings.Contains(err.Error(), "hunk 2 of a.txt (@@ -7,7 +7,7 @@) (line 10 of the file on disk) was changed since the session's edit") {
						t.Fatalf("err = %v, want the changed-hunk refusal naming hunk 2", err)
					}
					if got != person {
						t.Fatalf("after the refusal a.txt = %q, want the person's bytes", got)
					}
					if now := gittest.Rev(t, dir, "refs/edits/s"); now != tip {
						t.Fatalf("the refused reject moved the session from %s to %s", tip, now)
					}
					return
				}
				if err != nil {
					t.Fatalf("the reject failed instead of starting over: %v", err)
				}
				if want := strings.Replace(person, "TEN\n", "l10\n", 1); got != want {
					t.Fatalf("a.txt = %q, want hunk 2 taken back and the person's line kept: %q", got, want)
				}
				if sync := gittest.Git(t, dir, "show", "refs/edits/s~1:a.txt"); sync != person {
					t.Fatalf("the commit before the reject holds %q, want the person's bytes", sync)
				}
				if len(res.Rejected) != 1 || res.Rejected[0].Label != "hunk 2" {
					t.Fatalf("rejected %+v, want hunk 2", res.Rejected)
				}
				gittest.Fsck(t, dir)
			})
		}
	}
}

// A reject of a path that is now a symlink (to a tracked file, to a file
// outside the root, or a dangling one) is refused: nothing is written
// through the link, the link and every file stay as they were, and no ref
// moves. The same holds when a directory on the way is the link.
func TestAttackRejectNeverWritesThroughASymlink(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "a.txt"), []byte(rejectEdited), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		link string // what a.txt (or sub, for a directory) points to
		path string
		want string // the refusal; %s is the link's target
	}{
		{"to a tracked file", "target.txt", "a.txt", "the recorded path is no longer a regular file: a.txt is now a symlink (to %s); reject acts on the file recorded as a.txt and will not follow or open it; nothing was changed. To go on, replace the symlink with a regular file, or remove it, or reject target.txt by name (not a regular file: a.txt is a symlink)"},
		{"outside the root", filepath.Join(outside, "a.txt"), "a.txt", "the recorded path is no longer a regular file: a.txt is now a symlink (to %s); reject acts on the file recorded as a.txt and will not follow or open it; nothing was changed. To go on, replace the symlink with a regular file, or remove it (not a regular file: a.txt is a symlink)"},
		{"dangling", "nowhere.txt", "a.txt", "the recorded path is no longer a regular file: a.txt is now a symlink (to %s); reject acts on the file recorded as a.txt and will not follow or open it; nothing was changed. To go on, replace the symlink with a regular file, or remove it, or reject nowhere.txt by name (not a regular file: a.txt is a symlink)"},
		{"directory outside the root", outside, "sub/a.txt", "path refused: sub/a.txt: the directory sub is now a symlink (to %s); a path recorded in history is not followed through it, so that the operation never acts on another file; put the directory back, or name the file by the path it has now"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, e := rejectSession(t)
			if c.path == "sub/a.txt" {
				// The session edits sub/a.txt; then sub becomes a link to a
				// directory outside holding an a.txt with the same bytes.
				args, _ := json.Marshal(map[string]string{"command": "write", "path": "sub/a.txt", "file_text": rejectEdited})
				if res, err := e.Call(context.Background(), "text_editor", args); err != nil || !res.OK {
					t.Fatalf("edit of sub/a.txt: %v %s", err, res.Text)
				}
				if err := os.RemoveAll(filepath.Join(dir, "sub")); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(c.link, filepath.Join(dir, "sub")); err != nil {
					t.Fatal(err)
				}
			} else {
				if err := os.Remove(filepath.Join(dir, "a.txt")); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(c.link, filepath.Join(dir, "a.txt")); err != nil {
					t.Fatal(err)
				}
			}
			before := fmt.Sprint(gittest.TreeSnapshot(t, dir), gittest.TreeSnapshot(t, outside), gittest.Git(t, dir, "for-each-ref"))
			_, err := e.Reject(context.Background(), []ops.HunkPick{{Path: c.path, Hunks: []int{1}}}, false)
			if err == nil {
				t.Fatal("the reject through a symlink was not refused")
			}
			if want := fmt.Sprintf(c.want, c.link); err.Error() != want {
				t.Fatalf("refusal:\n%s\nwant\n%s", err, want)
			}
			after := fmt.Sprint(gittest.TreeSnapshot(t, dir), gittest.TreeSnapshot(t, outside), gittest.Git(t, dir, "for-each-ref"))
			if after != before {
				t.Fatalf("the refused reject changed something (%v):\nbefore %s\nafter  %s", err, before, after)
			}
			gittest.Fsck(t, dir)
		})
	}
}
