package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// A scripted step: what the person does, the command, and everything that
// must hold afterwards.
type cliStep struct {
	person map[string]string // written before the command; gittest.Missing deletes
	stdin  string
	args   []string
	code   int
	out    string            // exact stdout, ids and ages normalized (see normalizeCLI); "-" skips
	err    string            // stderr must contain this
	errIs  string            // exact stderr, normalized as out (see normalizeCLI); "" skips
	files  map[string]string // exact bytes afterwards (gittest.Missing: absent)
}

var (
	cliID = regexp.MustCompile(`\b[0-9a-f]{7,40}\b`)
	// An age and the padding after it, which depends on the age's width
	// ("1 second ago", "10 seconds ago") when columns are aligned.
	cliAge = regexp.MustCompile(`\b\d+ (second|minute)s? ago\b`)
)

var (
	cliDate = regexp.MustCompile(`(?m)^Date:   .*$`)
	cliTime = regexp.MustCompile(`\b\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}\b`)
)

func normalizeCLI(s string) string {
	s = cliDate.ReplaceAllString(s, "Date:   DATE")
	s = cliTime.ReplaceAllString(s, "<time>")
	s = cliAge.ReplaceAllString(cliID.ReplaceAllString(s, "<id>"), "<age>")
	// The age column is padded to its widest age: "1 second ago" beside
	// "0 seconds ago" when a second passes during the test.
	return cliAgePad.ReplaceAllString(s, "<age>  ")
}

var cliAgePad = regexp.MustCompile(`<age> {2,}`)

// play runs steps in dir (session s unless a step names another) and checks
// each: a refused or misused command must leave files and the ref as they
// were. It runs the CLI in this process (`--root dir`); playGitEdit runs
// the same steps through the built binary.
func play(t *testing.T, dir string, steps []cliStep) {
	t.Helper()
	playVia(t, dir, steps, false)
}

// playGitEdit plays steps as a person types them: `git edit ARGS…` in dir,
// the built binary on PATH (see gitEdit).
func playGitEdit(t *testing.T, dir string, steps []cliStep) {
	t.Helper()
	playVia(t, dir, steps, true)
}

func playVia(t *testing.T, dir string, steps []cliStep, binary bool) {
	t.Helper()
	for i, st := range steps {
		for p, c := range st.person {
			if c == gittest.Missing {
				os.Remove(filepath.Join(dir, p))
			} else {
				gittest.WriteFile(t, dir, p, c)
			}
		}
		tips := gittest.Git(t, dir, "for-each-ref", "refs/edits/")
		before := snapshotFiles(t, dir, st.files)
		var r cliResult
		if binary {
			r = gitEdit(t, dir, st.stdin, nil, st.args...)
		} else {
			r = runCLI(t, st.stdin, append([]string{st.args[0], "--root", dir}, st.args[1:]...)...)
		}
		if r.code != st.code {
			t.Fatalf("step %d %v: exit %d, want %d\nstdout %s\nstderr %s", i, st.args, r.code, st.code, r.stdout, r.stderr)
		}
		if st.out != "-" && normalizeCLI(r.stdout) != st.out {
			t.Fatalf("step %d %v: stdout\n%s\nwant\n%s", i, st.args, normalizeCLI(r.stdout), st.out)
		}
		if st.errIs != "" && normalizeCLI(r.stderr) != st.errIs {
			t.Fatalf("step %d %v: stderr\n%s\nwant\n%s", i, st.args, normalizeCLI(r.stderr), st.errIs)
		}
		if stderr := withoutCallLog(r.stderr); st.errIs == "" && (!strings.Contains(stderr, st.err) || (st.err == "" && stderr != "")) {
			t.Fatalf("step %d %v: stderr %q, want it to contain %q", i, st.args, r.stderr, st.err)
		}
		for p, want := range st.files {
			if got := gittest.ReadFile(t, dir, p); got != want {
				t.Fatalf("step %d %v: %s = %q, want %q", i, st.args, p, got, want)
			}
		}
		if st.code != 0 {
			if gittest.Git(t, dir, "for-each-ref", "refs/edits/") != tips {
				t.Fatalf("step %d %v: a refused command moved a session ref", i, st.args)
			}
			for p, c := range before {
				if gittest.ReadFile(t, dir, p) != c {
					t.Fatalf("step %d %v: a refused command changed %s", i, st.args, p)
				}
			}
		}
	}
	gittest.Fsck(t, dir)
}

// withoutCallLog drops the INFO lines `call` logs for every tool call.
func withoutCallLog(stderr string) string {
	var keep []string
	for _, line := range strings.SplitAfter(stderr, "\n") {
		if !strings.Contains(line, `msg="[tool] Execution`) {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "")
}

func snapshotFiles(t *testing.T, dir string, files map[string]string) map[string]string {
	m := map[string]string{}
	for p := range files {
		m[p] = gittest.ReadFile(t, dir, p)
	}
	return m
}

func call(tool, args string) cliStep {
	return cliStep{stdin: args, args: []string{"call", "--session", "s", tool}, out: "-"}
}

func TestHistoryScript(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a1\na2\na3\n", "b.go": "package b\n\nfunc B() {}\n"})
	gittest.Git(t, dir, "config", "edit.requireRead", "false")
	start := gittest.Status(t, dir)
	person := gittest.Snapshot(t, dir)
	steps := []cliStep{
		{stdin: `{"command":"str_replace","path":"a.txt","old_str":"a2","new_str":"A2"}`, args: []string{"call", "--session", "s", "text_editor"}, out: "-",
			files: map[string]string{"a.txt": "a1\nA2\na3\n"}},
		{stdin: `{"path":"b.go","operations":[{"op":"insert","afterLine":3,"content":["func C() {}"]}]}`, args: []string{"call", "--session", "s", "edit_lines"}, out: "-",
			files: map[string]string{"b.go": "package b\n\nfunc B() {}\nfunc C() {}\n"}},
		{person: map[string]string{"a.txt": "a1\nA2\na3\nperson\n"},
			stdin: `{"file_path":"a.txt","old_string":"a3","new_string":"A3"}`, args: []string{"call", "--session", "s", "Edit"}, out: "-",
			files: map[string]string{"a.txt": "a1\nA2\nA3\nperson\n"}},
		{stdin: `{"command":"write","path":"c.txt","file_text":"new\n"}`, args: []string{"call", "--session", "s", "text_editor"}, out: "-",
			files: map[string]string{"c.txt": "new\n"}},
		{args: []string{"undo", "--session", "s"}, out: "Undid text_editor.write (<id>), recorded as <id>:\n  removed    c.txt\n",
			files: map[string]string{"c.txt": gittest.Missing, "a.txt": "a1\nA2\nA3\nperson\n"}},
		{args: []string{"redo", "--session", "s"}, out: "Redid what <id> undid (<id>), recorded as <id>:\n  restored   c.txt\n",
			files: map[string]string{"c.txt": "new\n"}},
		{args: []string{"undo", "--session", "s", "b.go"}, out: "Undid edit_lines (<id>), recorded as <id>:\n  changed    b.go (+0 -1)\n",
			files: map[string]string{"b.go": "package b\n\nfunc B() {}\n"}},
		{args: []string{"undo", "--session", "s", "b.go"}, code: 1, out: "",
			err: `nothing to undo: session "s" has no edit of b.go left to undo`, files: map[string]string{"b.go": "package b\n\nfunc B() {}\n"}},
		{args: []string{"undo", "--session", "s", "a.txt"}, out: "Undid Edit (<id>), recorded as <id>:\n  changed    a.txt (+1 -1)\n",
			files: map[string]string{"a.txt": "a1\nA2\na3\nperson\n"}},
		// Undo passes the person's line (a sync commit) and keeps it.
		{args: []string{"undo", "--session", "s", "a.txt"}, out: "Undid text_editor.str_replace (<id>), recorded as <id>:\n  changed    a.txt (+1 -1)\n",
			files: map[string]string{"a.txt": "a1\na2\na3\nperson\n"}},
		{args: []string{"redo", "--session", "s", "a.txt"}, out: "Redid what <id> undid (<id>), recorded as <id>:\n  changed    a.txt (+1 -1)\n",
			files: map[string]string{"a.txt": "a1\nA2\na3\nperson\n"}},
		{args: []string{"redo", "--session", "s", "a.txt"}, out: "Redid what <id> undid (<id>), recorded as <id>:\n  changed    a.txt (+1 -1)\n",
			files: map[string]string{"a.txt": "a1\nA2\nA3\nperson\n"}},
		{args: []string{"redo", "--session", "s", "a.txt"}, code: 1, out: "", err: "nothing to redo"},
	}
	play(t, dir, steps)

	// Rollback to the middle: right after the edit_lines edit (the 2nd commit).
	second := strings.Fields(gittest.Git(t, dir, "rev-list", "--reverse", "HEAD..refs/edits/s"))[1]
	play(t, dir, []cliStep{
		// The person's line in a.txt (the sync commit) lies after the
		// target: a plain rollback refuses, naming it.
		{args: []string{"rollback", "--session", "s", "--to", second[:8]}, code: 1, out: "",
			err:   "rollback would discard your work, and without --force it never does; nothing was changed:\n  a.txt: holds changes you made outside git-edit, recorded in sync commit ",
			files: map[string]string{"a.txt": "a1\nA2\nA3\nperson\n", "c.txt": "new\n"}},
		{args: []string{"rollback", "--session", "s", "--to", second[:8], "--force"}, out: "Rolled back to <id>, recorded as <id>:\n  changed    a.txt (+1 -2)\n  changed    b.go (+1 -0)\n  removed    c.txt\n" +
			"Discarded from the worktree (--force), still in history:\n  a.txt: changes you made outside git-edit, recorded in sync commit <id> at <time>\n" +
			"The rollback reversed the session's 9 commits after <id>:\n" +
			"  <id> redo git-edit undo on a.txt (<id>)\n" +
			"  <id> redo git-edit undo on a.txt (<id>)\n" +
			"  <id> undo text_editor.str_replace on a.txt (<id>)\n" +
			"  <id> undo Edit on a.txt (<id>)\n" +
			"  <id> undo edit_lines on b.go (<id>)\n" +
			"  <id> redo git-edit undo on c.txt (<id>)\n" +
			"  <id> undo text_editor.write on c.txt (<id>)\n" +
			"  <id> text_editor.write: create c.txt\n" +
			"  <id> Edit: a.txt\n" +
			"Get it all back with `git edit undo --session s` (it undoes this rollback, <id>), or see a file as it was with `git show <id>^:a.txt`.\n",
			files: map[string]string{"a.txt": "a1\nA2\na3\n", "b.go": "package b\n\nfunc B() {}\nfunc C() {}\n", "c.txt": gittest.Missing}},
		// The person changes a file: rollback refuses, naming it and showing the change.
		{person: map[string]string{"b.go": "package b\n// person\n"}, args: []string{"rollback", "--session", "s"}, code: 1, out: "",
			err:   "b.go was changed outside git-edit since the session last recorded it, and rollback would overwrite that; nothing was changed. Run it again with --force",
			files: map[string]string{"b.go": "package b\n// person\n", "a.txt": "a1\nA2\na3\n"}},
		{args: []string{"rollback", "--session", "s", "--force"}, out: "Rolled back to the start of the session; the changes on disk were recorded first as <id>, recorded as <id>:\n  changed    a.txt (+1 -1)\n  changed    b.go (+2 -1)\n  unchanged  c.txt\n" +
			"Discarded from the worktree (--force), still in history:\n  b.go: its bytes on disk, changed outside git-edit (recorded first as sync commit <id>)\n" +
			"Get it all back with `git edit undo --session s` (it undoes this rollback, <id>), or see a file as it was with `git show <id>^:a.txt`.\n",
			files: map[string]string{"a.txt": "a1\na2\na3\n", "b.go": "package b\n\nfunc B() {}\n", "c.txt": gittest.Missing}},
	})
	if got := gittest.Status(t, dir); got != start {
		t.Fatalf("after rollback, git status is\n%s\nwas\n%s", got, start)
	}
	if gittest.Snapshot(t, dir) != person {
		t.Fatal("HEAD, index, branches, config or stash changed")
	}
	// History only grew, and says what happened, oldest first.
	ops := gittest.Git(t, dir, "log", "--reverse", "--format=%(trailers:key=Edit-Op,valueonly,separator=) %(trailers:key=Edit-Tool,valueonly,separator=)", "HEAD..refs/edits/s")
	want := `edit text_editor.str_replace
edit edit_lines
sync 
edit Edit
edit text_editor.write
undo git-edit undo
redo git-edit redo
undo git-edit undo
undo git-edit undo
undo git-edit undo
redo git-edit redo
redo git-edit redo
rollback git-edit rollback
sync 
rollback git-edit rollback
`
	if ops != want {
		t.Fatalf("session history:\n%s\nwant\n%s", ops, want)
	}
	// The person's deleted line is still in history: nothing was lost.
	if !strings.Contains(gittest.Git(t, dir, "log", "-p", "HEAD..refs/edits/s"), "+// person") {
		t.Fatal("the person's change is not in the session's history")
	}
}

func TestUndoDepthFromConfigAndFlag(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"d.txt": "0\n"})
	gittest.Git(t, dir, "config", "edit.undoDepth", "2")
	var steps []cliStep
	for _, v := range []string{"1", "2", "3"} {
		steps = append(steps, call("text_editor", `{"command":"write","path":"d.txt","file_text":"`+v+`\n"}`))
	}
	steps = append(steps,
		cliStep{args: []string{"undo", "--session", "s"}, out: "-", files: map[string]string{"d.txt": "2\n"}},
		cliStep{args: []string{"undo", "--session", "s"}, out: "-", files: map[string]string{"d.txt": "1\n"}},
		cliStep{args: []string{"undo", "--session", "s"}, code: 1, out: "",
			err:   "undo depth reached: the next edit to undo is the 3rd most recent edit of d.txt, and edit.undoDepth allows 2; raise it with `git config edit.undoDepth N` (0 = unlimited)",
			files: map[string]string{"d.txt": "1\n"}},
		// The flag overrides git config.
		cliStep{args: []string{"undo", "--session", "s", "--undo-depth", "0"}, out: "-", files: map[string]string{"d.txt": "0\n"}},
	)
	play(t, dir, steps)
}

// A session that creates and removes files rolls back to exactly the tree
// it started from, the person's uncommitted and untracked work included.
func TestRollbackRestoresTreeExactly(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"t.txt": "tracked\n", "m.txt": "committed\n"})
	gittest.WriteFile(t, dir, "m.txt", "person's uncommitted change\n")
	gittest.WriteFile(t, dir, "u.txt", "person's untracked file\n")
	start, person := gittest.Status(t, dir), gittest.Snapshot(t, dir)
	play(t, dir, []cliStep{
		call("text_editor", `{"command":"create","path":"new/one.txt","file_text":"1\n"}`),
		call("text_editor", `{"command":"write","path":"t.txt","file_text":"rewritten\n"}`),
		call("code_edit", `{"edits":[{"file_path":"m.txt","search":"person's uncommitted change\n","replace":"agent\n"},{"file_path":"two.txt","search":"","replace":"2\n"}]}`),
		call("text_editor", `{"command":"str_replace","path":"u.txt","old_str":"untracked","new_str":"edited"}`),
		call("text_editor", `{"command":"undo_edit","path":"new/one.txt"}`),
		{args: []string{"rollback", "--session", "s"}, out: "-",
			files: map[string]string{"new/one.txt": gittest.Missing, "two.txt": gittest.Missing, "t.txt": "tracked\n",
				"m.txt": "person's uncommitted change\n", "u.txt": "person's untracked file\n"}},
	})
	if got := gittest.Status(t, dir); got != start {
		t.Fatalf("git status after rollback:\n%s\nbefore the session:\n%s", got, start)
	}
	if gittest.Snapshot(t, dir) != person {
		t.Fatal("the person's repository state changed")
	}
	// Rolling back to right after the create brings the removed file back.
	first := strings.Fields(gittest.Git(t, dir, "rev-list", "--reverse", "--grep=text_editor.create", "HEAD..refs/edits/s"))[0]
	play(t, dir, []cliStep{{args: []string{"rollback", "--session", "s", "--to", first}, out: "-",
		files: map[string]string{"new/one.txt": "1\n", "t.txt": "tracked\n"}}})
}

func TestSessionsRollBackIndependently(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	play(t, dir, []cliStep{
		{stdin: `{"command":"write","path":"a.txt","file_text":"A\n"}`, args: []string{"call", "--session", "one", "text_editor"}, out: "-"},
		{stdin: `{"command":"write","path":"b.txt","file_text":"B\n"}`, args: []string{"call", "--session", "two", "text_editor"}, out: "-"},
		{args: []string{"rollback", "--session", "one"}, out: "-", files: map[string]string{"a.txt": "a\n", "b.txt": "B\n"}},
		{args: []string{"rollback", "--session", "two"}, out: "-", files: map[string]string{"a.txt": "a\n", "b.txt": "b\n"}},
	})
}

func TestHistoryInLinkedWorktree(t *testing.T) {
	main := gittest.NewWithCommit(t, map[string]string{"f.txt": "main\n"})
	gittest.Git(t, main, "branch", "side")
	wt := filepath.Join(t.TempDir(), "wt")
	gittest.Git(t, main, "worktree", "add", "-q", wt, "side")
	wt, _ = filepath.EvalSymlinks(wt)
	play(t, wt, []cliStep{
		{stdin: `{"command":"write","path":"f.txt","file_text":"edited in the worktree\n"}`, args: []string{"call", "--session", "w", "text_editor"}, out: "-"},
		{args: []string{"undo", "--session", "w", "f.txt"}, out: "-", files: map[string]string{"f.txt": "main\n"}},
	})
	// The ref is shared, in the common git dir: visible from the main worktree.
	if n := gittest.Git(t, main, "rev-list", "--count", "side..refs/edits/w"); n != "2\n" {
		t.Fatalf("commits on refs/edits/w seen from the main worktree: %s", n)
	}
	if gittest.ReadFile(t, main, "f.txt") != "main\n" {
		t.Fatal("the main worktree's file changed")
	}
}

// A file inside a submodule is recorded in the submodule's repository, and
// undone there.
func TestSubmoduleFileRecordedInSubmodule(t *testing.T) {
	src := gittest.NewWithCommit(t, map[string]string{"lib.txt": "library\n"})
	super := gittest.NewWithCommit(t, map[string]string{"top.txt": "top\n"})
	gittest.Git(t, super, "-c", "protocol.file.allow=always", "submodule", "add", "-q", src, "sub")
	gittest.Git(t, super, "commit", "-qm", "add submodule")
	subState := gittest.Snapshot(t, filepath.Join(super, "sub"))
	play(t, super, []cliStep{
		{stdin: `{"command":"str_replace","path":"sub/lib.txt","old_str":"library","new_str":"LIBRARY"}`, args: []string{"call", "--session", "s", "text_editor"}, out: "-",
			files: map[string]string{"sub/lib.txt": "LIBRARY\n"}},
	})
	sub := filepath.Join(super, "sub")
	if gittest.Rev(t, super, "refs/edits/s") != "" {
		t.Fatal("the edit was recorded in the parent repository")
	}
	if got := gittest.Git(t, sub, "show", "refs/edits/s:lib.txt"); got != "LIBRARY\n" {
		t.Fatalf("submodule's session records %q", got)
	}
	if parent := gittest.Rev(t, sub, "refs/edits/s^"); parent != gittest.Rev(t, sub, "HEAD") {
		t.Fatal("the submodule's session does not start from the submodule's HEAD")
	}
	play(t, super, []cliStep{{args: []string{"undo", "--session", "s", "sub/lib.txt"}, out: "-", files: map[string]string{"sub/lib.txt": "library\n"}}})
	gittest.Fsck(t, sub)
	if gittest.Snapshot(t, sub) != subState {
		t.Fatal("the submodule's HEAD, index or branches changed")
	}
}

func TestLogShowDiffSessionsPrune(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "one\ntwo\n", "b.txt": "b\n"})
	play(t, dir, []cliStep{
		call("text_editor", `{"command":"str_replace","path":"a.txt","old_str":"two","new_str":"TWO\nthree"}`),
		call("edit_lines", `{"path":"b.txt","operations":[{"op":"delete","startLine":1,"endLine":1}]}`),
		call("text_editor", `{"command":"create","path":"c.txt","file_text":"c\n"}`),
		{stdin: `{"command":"create","path":"other.txt","file_text":"o\n"}`, args: []string{"call", "--session", "other", "text_editor"}, out: "-"},
		{args: []string{"undo", "--session", "s", "c.txt"}, out: "-"},
		{args: []string{"log", "--session", "s"}, out: "" +
			"<id>  <age>  undo  git-edit undo            +0 -1  c.txt  (reverts <id>)\n" +
			"<id>  <age>  edit  text_editor.create       +1 -0  c.txt\n" +
			"<id>  <age>  edit  edit_lines               +0 -1  b.txt\n" +
			"<id>  <age>  edit  text_editor.str_replace  +2 -1  a.txt\n"},
		{args: []string{"log", "--session", "s", "-n", "1", "a.txt"}, out: "<id>  <age>  edit  text_editor.str_replace  +2 -1  a.txt\n"},
		{args: []string{"log", "--all", "-n", "2"}, out: "-"},
		{args: []string{"diff", "--session", "s"}, out: "" +
			"--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,3 @@ hunk 1\n one\n-two\n+TWO\n+three\n" +
			"--- a/b.txt\n+++ b/b.txt\n@@ -1 +0,0 @@ hunk 1\n-b\n"},
		{args: []string{"diff", "--session", "s", "b.txt"}, out: "--- a/b.txt\n+++ b/b.txt\n@@ -1 +0,0 @@ hunk 1\n-b\n"},
		{args: []string{"show", "--session", "s", "s~3"}, out: "" +
			"commit <id>\nSession: s\nDate:   DATE\n\n    text_editor.str_replace: a.txt\n    \n    Edit-Op: edit\n    Edit-Tool: text_editor.str_replace\n    Edit-Session: s\n    Edit-Path: a.txt\n    Edit-Stat: 2 1 a.txt\n    Edit-Seq: 0 1\n\n" +
			"--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,3 @@\n one\n-two\n+TWO\n+three\n"},
		{args: []string{"show", "nope"}, code: 1, out: "", err: `no such edit "nope"`},
		{args: []string{"show"}, code: 2, out: "", err: "show takes one EDIT"},
		{args: []string{"sessions"}, out: "other  1 commit (1 edit)  1 path  base <id>  last <age>\ns      4 commits (3 edits)  3 paths  base <id>  last <age>\n"},
		{args: []string{"prune", "--older-than", "1h"}, out: "no session is older than 1h\n"},
		{args: []string{"prune", "--older-than", "soon"}, code: 2, out: "", err: `--older-than "soon" is not a date git-edit reads; write it as git gc --prune= does (2.weeks.ago, 3.days, 1.month.ago, 2026-11-01, "2026-11-01 12:00", now) or in hours, days or weeks (72h, 14d, 2w)`},
	})
	// show prints the date as git does; check it apart from the normalized text.
	r := runCLI(t, "", "show", "--root", dir, "--session", "s", "s~3")
	if !regexp.MustCompile(`\nDate:   \w{3} \w{3} \d+ \d\d:\d\d:\d\d \d{4} [+-]\d{4}\n`).MatchString(r.stdout) {
		t.Fatalf("show's date line: %s", r.stdout)
	}

	// --json carries at least commit, session, op, tool, paths, time, undoes.
	r = runCLI(t, "", "log", "--root", dir, "--session", "s", "--json", "-n", "1")
	var entries []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &entries); err != nil || len(entries) != 1 {
		t.Fatalf("log --json: %v\n%s", err, r.stdout)
	}
	for _, k := range []string{"commit", "session", "op", "tool", "paths", "time", "undoes"} {
		if _, ok := entries[0][k]; !ok {
			t.Errorf("log --json lacks %q: %v", k, entries[0])
		}
	}
	if entries[0]["undoes"] != gittest.Rev(t, dir, "refs/edits/s~1") {
		t.Errorf("undoes = %v", entries[0]["undoes"])
	}

	// prune deletes old sessions only, with their reflog and state; a
	// packed ref goes too.
	gittest.Git(t, dir, "pack-refs", "--all")
	r = runCLI(t, "", "prune", "--root", dir, "--older-than", "0s")
	if r.code != 0 || normalizeCLI(r.stdout) != "pruning refs/edits/other (1 commit, last <age>, was at <id>)\n"+restoreLine("other")+"pruning refs/edits/s (4 commits, last <age>, was at <id>)\n"+restoreLine("s")+prunedLine(2) {
		t.Fatalf("prune: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if refs := gittest.Git(t, dir, "for-each-ref", "refs/edits/"); refs != "" {
		t.Fatalf("refs left: %s", refs)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "git-edit", "sessions", "s")); !os.IsNotExist(err) {
		t.Fatal("session state left behind")
	}
	gittest.Fsck(t, dir)
}

func TestColourOnlyOnATerminal(t *testing.T) {
	tty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer tty.Close()
	pipeR, pipeW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pipeR.Close()
	defer pipeW.Close()
	t.Setenv("NO_COLOR", "")
	if !newPainter(tty).on || newPainter(pipeW).on || newPainter(&strings.Builder{}).on {
		t.Fatal("colour must be on for a terminal and off for a pipe or buffer")
	}
	t.Setenv("NO_COLOR", "1")
	if newPainter(tty).on {
		t.Fatal("NO_COLOR must turn colour off")
	}
}
