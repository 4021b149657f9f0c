package ops_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

// The tests below hold every dialect to issue 13's contract in
// repositories that convert files between worktree and object store: the
// agent writes "\n" text, the file gets it in the worktree's convention,
// and the session records what `git add` of the new bytes records.

// convSetup is one kind of repository that converts a.txt.
type convSetup struct {
	name       string
	config     [][2]string
	attributes string
	// worktree is what `git checkout` writes for the LF text s; stored
	// is the blob git stores for it (nil: s itself).
	worktree, stored func(s string) string
}

func rot13(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = 'a' + (c-'a'+13)%26
		case c >= 'A' && c <= 'Z':
			b[i] = 'A' + (c-'A'+13)%26
		}
	}
	return string(b)
}

func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

func utf16LEBOM(s string) string {
	b := []byte{0xff, 0xfe}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return string(b)
}

var convSetups = []convSetup{
	{name: "core.autocrlf=true", config: [][2]string{{"core.autocrlf", "true"}}, worktree: crlf},
	{name: "text=auto eol=crlf", attributes: "* text=auto eol=crlf\n", worktree: crlf},
	{
		// A filter that changes the text both ways: the stored form
		// differs from the worktree's in every line.
		name: "clean/smudge filter",
		config: [][2]string{
			{"filter.rot13.clean", "tr A-Za-z N-ZA-Mn-za-m"},
			{"filter.rot13.smudge", "tr A-Za-z N-ZA-Mn-za-m"},
			{"filter.rot13.required", "true"},
		},
		attributes: "*.txt filter=rot13\n",
		worktree:   func(s string) string { return s },
		stored:     rot13,
	},
	{name: "working-tree-encoding=UTF-16LE-BOM", attributes: "*.txt text working-tree-encoding=UTF-16LE-BOM\n", worktree: utf16LEBOM},
}

// convTestRepo is a repository set up as cs whose HEAD holds a.txt with
// text (LF, as stored) and b.txt, both checked out afresh by git.
func convTestRepo(t *testing.T, cs convSetup, text string) string {
	t.Helper()
	dir := gittest.New(t)
	for _, kv := range cs.config {
		gittest.Git(t, dir, "config", kv[0], kv[1])
	}
	if cs.attributes != "" {
		gittest.WriteFile(t, dir, ".gitattributes", cs.attributes)
	}
	gittest.WriteFile(t, dir, "a.txt", cs.worktree(text))
	gittest.WriteFile(t, dir, "b.txt", cs.worktree("other\n"))
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "person's commit")
	for _, f := range []string{"a.txt", "b.txt"} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	gittest.Git(t, dir, "checkout", "--", "a.txt", "b.txt")
	if got := gittest.ReadFile(t, dir, "a.txt"); got != cs.worktree(text) {
		t.Fatalf("git checked out %q, the test expects %q", got, cs.worktree(text))
	}
	want := text
	if cs.stored != nil {
		want = cs.stored(text)
	}
	if got := gittest.Git(t, dir, "cat-file", "blob", "HEAD:a.txt"); got != want {
		t.Fatalf("git stored %q, the test expects %q", got, want)
	}
	return dir
}

// engineCall runs one call on e and fails the test unless it succeeds.
func engineCall(t *testing.T, e *ops.Engine, tool string, args any) string {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Call(context.Background(), tool, raw)
	if err != nil || !res.OK {
		t.Fatalf("%s %s: refused: %v %s", tool, raw, err, res.Text)
	}
	return res.Text
}

func openEngine(t *testing.T, dir string) *ops.Engine {
	t.Helper()
	e, err := ops.Open(ops.Options{Root: dir, Session: "s"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// TestConvertedEveryWritingTool: every tool that writes (from the
// registry), in every kind of converting repository, after a Read: the
// agent's "\n" text matches, the file on disk is the result the same call
// gives on a plain LF file, in the worktree's convention (what `git
// checkout` writes); `git diff HEAD refs/edits/s` is what `git add` of
// those bytes shows; no sync commit and no Edit-Raw; git status changes
// for a.txt only; undo puts back the exact bytes; git fsck is clean.
func TestConvertedEveryWritingTool(t *testing.T) {
	gittest.Isolate(t)
	const text = "one\ntwo\nthree\n"
	const old, repl = "two", "TWO\nand a new line"
	for _, tool := range ops.Registry() {
		if tool.WriteCall == nil {
			continue
		}
		t.Run(tool.Name, func(t *testing.T) {
			// The reference: the same call on a plain LF file.
			plain := gittest.NewWithCommit(t, map[string]string{"a.txt": text})
			pe := openEngine(t, plain)
			engineCall(t, pe, "Read", map[string]any{"file_path": "a.txt"})
			engineCall(t, pe, tool.Name, tool.WriteCall("a.txt", old, repl))
			ref := gittest.ReadFile(t, plain, "a.txt")
			if ref == text || strings.Contains(ref, "\r") {
				t.Fatalf("the reference edit gave %q", ref)
			}
			for _, cs := range convSetups {
				t.Run(cs.name, func(t *testing.T) {
					dir := convTestRepo(t, cs, text)
					head := gittest.Rev(t, dir, "HEAD")
					checkedOut := gittest.ReadFile(t, dir, "a.txt")
					e := openEngine(t, dir)
					engineCall(t, e, "Read", map[string]any{"file_path": "a.txt"})
					engineCall(t, e, tool.Name, tool.WriteCall("a.txt", old, repl))

					if got, want := gittest.ReadFile(t, dir, "a.txt"), cs.worktree(ref); got != want {
						t.Fatalf("on disk %q\nwant %q (the plain result in the worktree's convention)", got, want)
					}
					if got, hand := gittest.Git(t, dir, "diff", "HEAD", "refs/edits/s"), gittest.AddedByHand(t, dir, "a.txt"); got != hand {
						t.Errorf("git diff HEAD refs/edits/s:\n%s\nwhat git add shows for the same change:\n%s", got, hand)
					}
					log := gittest.Git(t, dir, "log", "--format=%B", head+"..refs/edits/s")
					if strings.Contains(log, "Edit-Op: sync") || strings.Contains(log, "Edit-Raw") || strings.Count(log, "Edit-Op: edit") != 1 {
						t.Errorf("the session's history:\n%s", log)
					}
					if st := gittest.StatusExcept(t, dir, "a.txt"); st != "" {
						t.Errorf("git status of the other files:\n%s", st)
					}
					engineCall(t, e, "text_editor", map[string]any{"command": "undo_edit", "path": "a.txt"})
					if got := gittest.ReadFile(t, dir, "a.txt"); got != checkedOut {
						t.Errorf("after undo %q, want the exact bytes %q", got, checkedOut)
					}
					if st := gittest.Status(t, dir); st != "" {
						t.Errorf("git status after undo:\n%s", st)
					}
					if d := gittest.Git(t, dir, "diff", "HEAD", "refs/edits/s"); d != "" {
						t.Errorf("after undo the session differs from HEAD:\n%s", d)
					}
					gittest.Fsck(t, dir)
				})
			}
		})
	}
}

// callRefused runs one call on e and fails the test unless it is refused
// with a text that holds want.
func callRefused(t *testing.T, e *ops.Engine, tool string, args any, want string) {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Call(context.Background(), tool, raw)
	if err != nil || res.OK || !strings.Contains(res.Text, want) {
		t.Fatalf("%s %s: %v %v %s\nwant a refusal saying %q", tool, raw, err, res.OK, res.Text, want)
	}
}

// TestConvertedReadBeforeEdit: read-before-edit compares in the form the
// agent saw, on converted files and on a UTF-16 file without attributes:
// an Edit right after Read, right after a view, and right after its own
// edit is never refused as changed since read; a person's change between
// the read and the edit still is, and nothing changes then.
func TestConvertedReadBeforeEdit(t *testing.T) {
	gittest.Isolate(t)
	const text = "one\ntwo\nthree\n"
	setups := append(convSetups[:len(convSetups):len(convSetups)], convSetup{
		name:     "UTF-16LE without attributes",
		worktree: utf16LEBOM,
		stored:   utf16LEBOM,
	})
	reads := map[string]func(string) (string, map[string]any){
		"Read": func(p string) (string, map[string]any) { return "Read", map[string]any{"file_path": p} },
		"view": func(p string) (string, map[string]any) {
			return "text_editor", map[string]any{"command": "view", "path": p}
		},
	}
	for _, cs := range setups {
		for how, read := range reads {
			t.Run(cs.name+"/"+how, func(t *testing.T) {
				dir := convTestRepo(t, cs, text)
				e := openEngine(t, dir)
				readIt := func() {
					t.Helper()
					tool, args := read("a.txt")
					engineCall(t, e, tool, args)
				}
				edit := func(old, new string) map[string]any {
					return map[string]any{"file_path": "a.txt", "old_string": old, "new_string": new}
				}
				callRefused(t, e, "Edit", edit("two", "2"), "Read")
				readIt()
				engineCall(t, e, "Edit", edit("two", "TWO"))
				engineCall(t, e, "Edit", edit("one", "ONE")) // its own edit is seen
				engineCall(t, e, "MultiEdit", map[string]any{"file_path": "a.txt", "edits": []any{map[string]any{"old_string": "three", "new_string": "THREE"}}})
				if got, want := gittest.ReadFile(t, dir, "a.txt"), cs.worktree("ONE\nTWO\nTHREE\n"); got != want {
					t.Fatalf("on disk %q, want %q", got, want)
				}

				// The person changes a line between the read and the edit.
				readIt()
				person := cs.worktree("ONE\nTWO\nTHREE\nmine\n")
				gittest.WriteFile(t, dir, "a.txt", person)
				before := observe(t, dir)
				callRefused(t, e, "Edit", edit("TWO", "two"), "modified since")
				if after := observe(t, dir); after != before {
					t.Errorf("the refusal changed something:\n%s\nwas:\n%s", after, before)
				}
				readIt()
				engineCall(t, e, "Edit", edit("TWO", "two"))
				if got, want := gittest.ReadFile(t, dir, "a.txt"), cs.worktree("ONE\ntwo\nTHREE\nmine\n"); got != want {
					t.Errorf("on disk %q, want %q", got, want)
				}
				gittest.Fsck(t, dir)
			})
		}
	}
}

// TestIdentRecordedAsGitAddsIt: with the ident attribute, the file on disk
// holds "$Id: <blob> $" and `git add` stores "$Id$". Edits of other lines
// are recorded as `git add` records them (no Edit-Raw, and `git diff HEAD
// refs/edits/s` shows only the edited lines), a later edit sees the file
// as unchanged (no sync commit), a selective undo of the earlier edit
// merges without a conflict on the keyword line, and undo of the rest
// leaves the session equal to HEAD and git status clean.
func TestIdentRecordedAsGitAddsIt(t *testing.T) {
	gittest.Isolate(t)
	dir := gittest.New(t)
	gittest.WriteFile(t, dir, ".gitattributes", "*.txt ident\n")
	gittest.WriteFile(t, dir, "a.txt", "// $Id$\none\ntwo\nthree\nfour\nfive\n")
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "person's commit")
	gittest.Git(t, dir, "rm", "-q", "--cached", "a.txt")
	gittest.Git(t, dir, "reset", "-q", "--hard")
	head := gittest.Rev(t, dir, "HEAD")
	checkedOut := gittest.ReadFile(t, dir, "a.txt")
	if !strings.HasPrefix(checkedOut, "// $Id: "+gittest.Rev(t, dir, "HEAD:a.txt")+" $\n") {
		t.Fatalf("checked out %q", checkedOut)
	}

	e := openEngine(t, dir)
	engineCall(t, e, "text_editor", map[string]any{"command": "str_replace", "path": "a.txt", "old_str": "two\n", "new_str": "TWO\n"})
	if got, hand := gittest.Git(t, dir, "diff", "HEAD", "refs/edits/s"), gittest.AddedByHand(t, dir, "a.txt"); got != hand {
		t.Errorf("git diff HEAD refs/edits/s:\n%s\nwhat git add shows:\n%s", got, hand)
	}
	engineCall(t, e, "text_editor", map[string]any{"command": "str_replace", "path": "a.txt", "old_str": "five\n", "new_str": "FIVE\n"})
	if got, hand := gittest.Git(t, dir, "diff", "HEAD", "refs/edits/s"), gittest.AddedByHand(t, dir, "a.txt"); got != hand {
		t.Errorf("after the second edit, git diff HEAD refs/edits/s:\n%s\nwhat git add shows:\n%s", got, hand)
	}
	log := gittest.Git(t, dir, "log", "--format=%B", head+"..refs/edits/s")
	if strings.Contains(log, "Edit-Op: sync") || strings.Contains(log, "Edit-Raw") || strings.Count(log, "Edit-Op: edit") != 2 {
		t.Errorf("the session's history:\n%s", log)
	}

	// The first edit, taken back under the second: a merge.
	first := gittest.Rev(t, dir, "refs/edits/s~1")
	engineCall(t, e, "edit_undo", map[string]any{"edit": first})
	if got, want := gittest.Git(t, dir, "show", "refs/edits/s:a.txt"), "// $Id$\none\ntwo\nthree\nfour\nFIVE\n"; got != want {
		t.Errorf("after undo of the first edit the session records %q, want %q", got, want)
	}
	if got, hand := gittest.Git(t, dir, "diff", "HEAD", "refs/edits/s"), gittest.AddedByHand(t, dir, "a.txt"); got != hand {
		t.Errorf("after the selective undo, git diff HEAD refs/edits/s:\n%s\nwhat git add shows:\n%s", got, hand)
	}
	engineCall(t, e, "text_editor", map[string]any{"command": "undo_edit", "path": "a.txt"})
	if d := gittest.Git(t, dir, "diff", "HEAD", "refs/edits/s"); d != "" {
		t.Errorf("after undoing both, the session differs from HEAD:\n%s", d)
	}
	if st := gittest.Status(t, dir); st != "" {
		t.Errorf("git status after undoing both:\n%s\non disk %q, git diff:\n%s", st, gittest.ReadFile(t, dir, "a.txt"), gittest.Git(t, dir, "diff"))
	}
	gittest.Fsck(t, dir)
}
