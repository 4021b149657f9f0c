package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// Issue 11, findings 7 and 12: rollback and undo never discard the
// person's work, and never act on another file than the one recorded.

// frozen is everything a refused history command must leave as it was:
// the session refs, git status, the person's HEAD, index, branches, config
// and stash, and the bytes (or link destination) of every file named.
type frozen struct {
	refs, status string
	state        gittest.State
	files        map[string]string
}

func freeze(t *testing.T, dir string, paths ...string) frozen {
	t.Helper()
	f := frozen{refs: gittest.Git(t, dir, "for-each-ref", "refs/edits/"), status: gittest.Status(t, dir), state: gittest.Snapshot(t, dir), files: map[string]string{}}
	for _, p := range paths {
		f.files[p] = entryOf(t, dir, p)
	}
	return f
}

// entryOf is a path as it is on disk: "link -> DEST" for a symlink, else
// its bytes (gittest.Missing when absent).
func entryOf(t *testing.T, dir, p string) string {
	t.Helper()
	abs := filepath.Join(dir, filepath.FromSlash(p))
	if fi, err := os.Lstat(abs); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		dest, err := os.Readlink(abs)
		if err != nil {
			t.Fatal(err)
		}
		return "link -> " + dest
	}
	return gittest.ReadFile(t, dir, p)
}

func (f frozen) check(t *testing.T, dir, what string) {
	t.Helper()
	if got := gittest.Git(t, dir, "for-each-ref", "refs/edits/"); got != f.refs {
		t.Errorf("%s moved a session ref:\n%s\nwas\n%s", what, got, f.refs)
	}
	if got := gittest.Status(t, dir); got != f.status {
		t.Errorf("%s changed git status:\n%s\nwas\n%s", what, got, f.status)
	}
	if got := gittest.Snapshot(t, dir); got != f.state {
		t.Errorf("%s changed the person's repository state", what)
	}
	for p, want := range f.files {
		if got := entryOf(t, dir, p); got != want {
			t.Errorf("%s changed %s: %q, was %q", what, p, got, want)
		}
	}
	gittest.Fsck(t, dir)
}

// mustRun runs a command that must succeed and returns its stdout.
func mustRun(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	r := runCLI(t, stdin, append([]string{args[0], "--root", dir}, args[1:]...)...)
	if r.code != 0 {
		t.Fatalf("%v: exit %d\nstdout %s\nstderr %s", args, r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

// agentEdit replaces old with new in path through text_editor, as session s.
func agentEdit(t *testing.T, dir, path, old, new string) {
	t.Helper()
	mustRun(t, dir, `{"command":"str_replace","path":"`+path+`","old_str":"`+old+`","new_str":"`+new+`"}`, "call", "--session", "s", "text_editor")
}

// sessionCommit finds the session commit whose message matches grep.
func sessionCommit(t *testing.T, dir, grep string) string {
	t.Helper()
	out := strings.Fields(gittest.Git(t, dir, "rev-list", "--grep="+grep, "HEAD..refs/edits/s"))
	if len(out) != 1 {
		t.Fatalf("session commits matching %q: %v", grep, out)
	}
	return out[0]
}

// The person writes a line mid-session, the agent edits the file again (a
// sync commit records the person's line first): a plain rollback over that
// sync commit refuses, naming the file and the commit, and changes nothing;
// --force proceeds and says what it discarded, which stays in history.
func TestAttackRollbackKeepsPersonsMidSessionLines(t *testing.T) {
	const base, person = "one\ntwo\nthree\n", "one\ntwo\nthree\nperson's line\n"
	setup := func(t *testing.T) (dir, e1, sync string) {
		dir = gittest.NewWithCommit(t, map[string]string{"app.txt": base, "other.txt": "x\n"})
		gittest.Git(t, dir, "config", "edit.requireRead", "false")
		agentEdit(t, dir, "app.txt", "one", "ONE")
		agentEdit(t, dir, "other.txt", "x", "X")
		gittest.WriteFile(t, dir, "app.txt", "ONE\ntwo\nthree\nperson's line\n")
		agentEdit(t, dir, "app.txt", "three", "THREE")
		first := strings.Fields(gittest.Git(t, dir, "rev-list", "--reverse", "HEAD..refs/edits/s"))[0]
		return dir, first, sessionCommit(t, dir, "^sync:")
	}
	t.Run("refused", func(t *testing.T) {
		for _, to := range []string{"", "e1"} {
			dir, e1, sync := setup(t)
			args := []string{"rollback", "--root", dir, "--session", "s"}
			if to != "" {
				args = append(args, "--to", e1[:10])
			}
			before := freeze(t, dir, "app.txt", "other.txt")
			r := runCLI(t, "", args...)
			for _, want := range []string{
				"rollback would discard your work",
				"nothing was changed",
				"app.txt: holds changes you made outside git-edit, recorded in sync commit " + sync[:7] + " at ",
				"rollback would remove them",
				"--force",
				"git edit undo --session s PATH",
			} {
				if r.code != 1 || !strings.Contains(r.stderr, want) {
					t.Fatalf("rollback --to %q: exit %d, stderr %q; want exit 1 and %q", to, r.code, r.stderr, want)
				}
			}
			if strings.Contains(r.stderr, "other.txt") {
				t.Errorf("other.txt holds nothing of the person's, yet the refusal names it: %s", r.stderr)
			}
			before.check(t, dir, "a refused rollback")
		}
	})
	t.Run("a target after the sync keeps the person's line without --force", func(t *testing.T) {
		dir, _, sync := setup(t)
		mustRun(t, dir, "", "rollback", "--session", "s", "--to", sync)
		if got := gittest.ReadFile(t, dir, "app.txt"); got != "ONE\ntwo\nthree\nperson's line\n" {
			t.Fatalf("app.txt = %q", got)
		}
	})
	t.Run("forced", func(t *testing.T) {
		dir, _, sync := setup(t)
		state := gittest.Snapshot(t, dir)
		out := mustRun(t, dir, "", "rollback", "--session", "s", "--force")
		want := "Discarded from the worktree (--force), still in history:\n  app.txt: changes you made outside git-edit, recorded in sync commit " + sync[:7] + " at "
		if !strings.Contains(out, want) || strings.Count(out, "\n  app.txt: ") != 1 || strings.Contains(out, "other.txt: ") {
			t.Fatalf("rollback --force said\n%s\nwant it to list exactly the discarded sync commit:\n%s", out, want)
		}
		for p, want := range map[string]string{"app.txt": base, "other.txt": "x\n"} {
			if got := gittest.ReadFile(t, dir, p); got != want {
				t.Fatalf("after rollback --force, %s = %q, want %q", p, got, want)
			}
		}
		// History only grew: the person's bytes are in the sync commit,
		// and the rollback commit says what it discarded.
		if got := gittest.Git(t, dir, "show", sync+":app.txt"); got != "ONE\ntwo\nthree\nperson's line\n" {
			t.Fatalf("the sync commit holds %q", got)
		}
		msg := gittest.Git(t, dir, "log", "-1", "--format=%B", "refs/edits/s")
		if !strings.Contains(msg, "discarding the person's changes to app.txt") || !strings.Contains(msg, "Edit-Rollback-To: start") {
			t.Fatalf("rollback commit message:\n%s", msg)
		}
		if gittest.Snapshot(t, dir) != state || gittest.Status(t, dir) != "" {
			t.Fatalf("the person's repository changed, or git status is not clean: %q", gittest.Status(t, dir))
		}
		gittest.Fsck(t, dir)
		// What a forced rollback discarded is gone from the worktree; a
		// later plain rollback has nothing of the person's to refuse for.
		agentEdit(t, dir, "app.txt", "two", "TWO")
		mustRun(t, dir, "", "rollback", "--session", "s")
		if got := gittest.ReadFile(t, dir, "app.txt"); got != base {
			t.Fatalf("app.txt = %q", got)
		}
	})
}

// The person commits the agent's work (and rebases it): a plain rollback
// would write the session's old state over their committed change, so it
// refuses, naming the file and HEAD; --force proceeds and says so. A
// commit that moved HEAD without touching the file changes nothing.
func TestAttackRollbackKeepsPersonsCommittedWork(t *testing.T) {
	const app = "alpha\nbeta\n"
	setup := func(t *testing.T) string {
		dir := gittest.NewWithCommit(t, map[string]string{"app.txt": app, "unrelated.txt": "u\n"})
		gittest.Git(t, dir, "branch", "upstream")
		agentEdit(t, dir, "app.txt", "beta", "BETA")
		return dir
	}
	upstream := func(t *testing.T, dir string, files map[string]string) {
		gittest.Git(t, dir, "checkout", "-q", "upstream")
		gittest.Commit(t, dir, files)
		gittest.Git(t, dir, "checkout", "-q", "main")
	}
	cases := []struct {
		name   string
		person func(t *testing.T, dir string)
		says   []string // refusal; nil: the rollback goes through
	}{
		{"commits the agent's work", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "commit", "-qam", "agent's work")
		}, []string{"app.txt: HEAD's version changed since the session started from ", "rollback would revert it in the worktree", "--force"}},
		{"commits and rebases onto an unrelated change", func(t *testing.T, dir string) {
			// Upstream commits on a side branch while the agent works,
			// which the person's rebase keeps app.txt through.
			gittest.Git(t, dir, "stash", "-q")
			upstream(t, dir, map[string]string{"unrelated.txt": "upstream\n"})
			gittest.Git(t, dir, "stash", "pop", "-q")
			gittest.Git(t, dir, "commit", "-qam", "agent's work")
			gittest.Git(t, dir, "rebase", "-q", "upstream")
		}, []string{"app.txt: HEAD's version changed since the session started from ", "rollback would revert it in the worktree"}},
		{"commits and rebases onto a change of the same file", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "stash", "-q")
			upstream(t, dir, map[string]string{"app.txt": "upstream\nalpha\nbeta\n"})
			gittest.Git(t, dir, "stash", "pop", "-q")
			gittest.Git(t, dir, "commit", "-qam", "agent's work")
			gittest.Git(t, dir, "rebase", "-q", "upstream")
		}, []string{"app.txt was changed outside git-edit since the session last recorded it, and rollback would overwrite that"}},
		{"commits only another file", func(t *testing.T, dir string) {
			gittest.WriteFile(t, dir, "unrelated.txt", "person\n")
			gittest.Git(t, dir, "commit", "-qm", "person's own work", "--", "unrelated.txt")
		}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := setup(t)
			tc.person(t, dir)
			before := freeze(t, dir, "app.txt", "unrelated.txt")
			r := runCLI(t, "", "rollback", "--root", dir, "--session", "s")
			if tc.says == nil {
				if r.code != 0 || gittest.ReadFile(t, dir, "app.txt") != app {
					t.Fatalf("exit %d %s; app.txt = %q, want %q", r.code, r.stderr, gittest.ReadFile(t, dir, "app.txt"), app)
				}
				return
			}
			for _, want := range tc.says {
				if r.code != 1 || !strings.Contains(r.stderr, want) {
					t.Fatalf("exit %d, stderr %q; want a refusal saying %q", r.code, r.stderr, want)
				}
			}
			before.check(t, dir, "a refused rollback")
			// --force goes ahead and lists what it discarded.
			head := gittest.Rev(t, dir, "HEAD")
			out := mustRun(t, dir, "", "rollback", "--session", "s", "--force")
			if !strings.Contains(out, "Discarded from the worktree (--force), still in history:\n  app.txt: ") {
				t.Fatalf("rollback --force said\n%s", out)
			}
			if strings.HasPrefix(tc.says[0], "app.txt: HEAD") && !strings.Contains(out, "app.txt: HEAD's version, changed since the session started from ") {
				t.Fatalf("rollback --force does not name HEAD's version as discarded:\n%s", out)
			}
			if gittest.Rev(t, dir, "HEAD") != head || gittest.Snapshot(t, dir) != before.state {
				t.Fatal("a forced rollback changed HEAD, the index, branches, config or stash")
			}
			if got := gittest.ReadFile(t, dir, "app.txt"); got != app {
				t.Fatalf("after rollback --force, app.txt = %q", got)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// Undo reverts the agent's own edit even after the person committed it:
// that is what undo is asked for; HEAD and the index stay as they are, and
// the file shows as modified. After a rebase that changed the file, undo
// records the rebased file first (a sync commit) and takes back only the
// agent's edit: upstream's line stays.
func TestAttackUndoAfterPersonCommits(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"app.txt": "a\nb\nc\nd\ne\nf\n"})
	gittest.Git(t, dir, "branch", "upstream")
	agentEdit(t, dir, "app.txt", "a", "A")
	agentEdit(t, dir, "app.txt", "c", "C")
	gittest.Git(t, dir, "commit", "-qam", "agent's work")
	state := gittest.Snapshot(t, dir)
	mustRun(t, dir, "", "undo", "--session", "s", "app.txt")
	if got := gittest.ReadFile(t, dir, "app.txt"); got != "A\nb\nc\nd\ne\nf\n" {
		t.Fatalf("undo left app.txt = %q, want only the last edit reverted", got)
	}
	if gittest.Snapshot(t, dir) != state || gittest.Status(t, dir) != " M app.txt\n" {
		t.Fatalf("undo changed the person's repository state, or git status is %q", gittest.Status(t, dir))
	}
	mustRun(t, dir, "", "redo", "--session", "s", "app.txt")

	gittest.Git(t, dir, "checkout", "-q", "upstream")
	gittest.Commit(t, dir, map[string]string{"app.txt": "a\nb\nc\nd\ne\nf\nupstream\n"})
	gittest.Git(t, dir, "checkout", "-q", "main")
	gittest.Git(t, dir, "rebase", "-q", "upstream")
	state = gittest.Snapshot(t, dir)
	r := runCLI(t, "", "undo", "--root", dir, "--session", "s", "app.txt")
	if r.code != 0 || !strings.Contains(r.stdout, "the changes on disk were recorded first as") {
		t.Fatalf("undo after a rebase: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if got := gittest.ReadFile(t, dir, "app.txt"); got != "A\nb\nc\nd\ne\nf\nupstream\n" {
		t.Fatalf("undo after a rebase left app.txt = %q, want the agent's C taken back and upstream's line kept", got)
	}
	if gittest.Snapshot(t, dir) != state {
		t.Fatalf("undo after a rebase changed the person's repository state")
	}
	if got := gittest.Git(t, dir, "show", "refs/edits/s~1:app.txt"); got != "A\nb\nC\nd\ne\nf\nupstream\n" {
		t.Fatalf("the sync commit records app.txt as %q, want the rebased file", got)
	}
	gittest.Fsck(t, dir)
}

// A recorded file replaced by a symlink to another tracked file (or a
// directory on its way by a symlink to another directory): every history
// command refuses, naming the path and what it now is, and never acts on
// the file the link points to; never an internal error.
func TestAttackHistoryNeverFollowsSymlinkAtRecordedPath(t *testing.T) {
	// setup: target.txt and app.txt edited by the agent (app.txt last),
	// undone first when the command is a redo; then app.txt becomes a link
	// to target.txt.
	setup := func(t *testing.T, undoFirst bool) string {
		dir := gittest.NewWithCommit(t, map[string]string{"app.txt": "app\n", "target.txt": "target\n"})
		agentEdit(t, dir, "target.txt", "target", "TARGET")
		agentEdit(t, dir, "app.txt", "app", "APP")
		if undoFirst {
			mustRun(t, dir, "", "undo", "--session", "s", "app.txt")
		}
		if err := os.Remove(filepath.Join(dir, "app.txt")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("target.txt", filepath.Join(dir, "app.txt")); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	// setupDir: d/f.txt and other/f.txt edited by the agent; then d is
	// moved away and replaced by a link to other.
	setupDir := func(t *testing.T, undoFirst bool) string {
		dir := gittest.NewWithCommit(t, map[string]string{"d/f.txt": "d\n", "other/f.txt": "other\n"})
		agentEdit(t, dir, "other/f.txt", "other", "OTHER")
		agentEdit(t, dir, "d/f.txt", "d", "D")
		if undoFirst {
			mustRun(t, dir, "", "undo", "--session", "s", "d/f.txt")
		}
		if err := os.Rename(filepath.Join(dir, "d"), filepath.Join(dir, "d.moved")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("other", filepath.Join(dir, "d")); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	const fileSays, dirSays = "app.txt is now a symlink (to target.txt)", "the directory d is now a symlink (to other)"
	cases := []struct {
		name      string
		dirLink   bool
		undoFirst bool
		stdin     string
		args      []string
		says      []string
	}{
		{"undo PATH", false, false, "", []string{"undo", "app.txt"}, []string{fileSays, "undo acts on the file recorded as app.txt", "or undo target.txt by name", "nothing was changed"}},
		{"undo --force PATH", false, false, "", []string{"undo", "--force", "app.txt"}, []string{fileSays}},
		{"undo", false, false, "", []string{"undo"}, []string{fileSays, "undo target.txt by name"}},
		{"redo PATH", false, true, "", []string{"redo", "app.txt"}, []string{fileSays, "redo target.txt by name"}},
		{"redo", false, true, "", []string{"redo"}, []string{fileSays}},
		{"rollback", false, false, "", []string{"rollback"}, []string{fileSays, "rollback acts on the file recorded as app.txt", "nothing was changed"}},
		{"rollback --force", false, false, "", []string{"rollback", "--force"}, []string{fileSays}},
		{"rollback --to", false, false, "", []string{"rollback", "--to", "s~1"}, []string{fileSays}},
		{"text_editor undo_edit", false, false, `{"command":"undo_edit","path":"app.txt"}`, []string{"call", "text_editor"}, []string{fileSays, "undo_edit target.txt by name"}},
		{"directory: undo PATH", true, false, "", []string{"undo", "d/f.txt"}, []string{dirSays, "d/f.txt"}},
		{"directory: undo", true, false, "", []string{"undo"}, []string{dirSays}},
		{"directory: redo", true, true, "", []string{"redo"}, []string{dirSays}},
		{"directory: rollback --force", true, false, "", []string{"rollback", "--force"}, []string{dirSays}},
		{"directory: text_editor undo_edit", true, false, `{"command":"undo_edit","path":"d/f.txt"}`, []string{"call", "text_editor"}, []string{dirSays}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var dir string
			paths := []string{"app.txt", "target.txt"}
			if tc.dirLink {
				dir, paths = setupDir(t, tc.undoFirst), []string{"d", "d.moved/f.txt", "other/f.txt"}
			} else {
				dir = setup(t, tc.undoFirst)
			}
			before := freeze(t, dir, paths...)
			args := append([]string{tc.args[0], "--root", dir, "--session", "s"}, tc.args[1:]...)
			r := runCLI(t, tc.stdin, args...)
			said := r.stdout + r.stderr
			if r.code != 1 || strings.Contains(said, "internal error") {
				t.Fatalf("exit %d, want a refusal (1)\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
			}
			for _, want := range tc.says {
				if !strings.Contains(said, want) {
					t.Fatalf("the refusal does not say %q:\nstdout %s\nstderr %s", want, r.stdout, r.stderr)
				}
			}
			before.check(t, dir, tc.name)
		})
	}
	t.Run("MCP text_editor undo_edit", func(t *testing.T) {
		dir := setup(t, false)
		before := freeze(t, dir, "app.txt", "target.txt")
		cs := connect(t, dir, "s", nil, nil)
		text, _, isError := callTool(t, cs, "text_editor", map[string]any{"command": "undo_edit", "path": "app.txt"})
		if !isError || !strings.Contains(text, fileSays) || !strings.Contains(text, "undo_edit target.txt by name") || strings.Contains(text, "internal error") {
			t.Fatalf("MCP undo_edit: error %v, %s", isError, text)
		}
		before.check(t, dir, "MCP undo_edit")
	})
}
