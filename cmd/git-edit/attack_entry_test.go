package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo/gittest"
)

// Issue 22, item 6: --root confines the session-wide history operations
// too. A session is the whole worktree's, so its newest edit, a turn or a
// rollback may name files outside the root; every entry point (call, the
// commands, an MCP server started with --root) refuses, naming the path,
// and leaves files, refs and git status exactly as they were.
func TestAttackRootConfinesHistoryOperations(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n", "sub/b.txt": "b\n"})
	sub := filepath.Join(dir, "sub")
	// An edit inside sub, then one outside (the newest), both of turn 1,
	// then a checkpoint.
	for _, e := range []struct{ path, old, new string }{{"sub/b.txt", "b", "B"}, {"a.txt", "a", "A"}} {
		r := runCLI(t, `{"command":"str_replace","path":"`+e.path+`","old_str":"`+e.old+`","new_str":"`+e.new+`"}`, "call", "--root", dir, "--session", "s", "--turn", "1", "text_editor")
		if r.code != 0 {
			t.Fatalf("edit %s: %+v", e.path, r)
		}
	}
	if r := runCLI(t, "", "checkpoint", "--root", dir, "--session", "s", "mid"); r.code != 0 {
		t.Fatalf("checkpoint: %+v", r)
	}
	commits := strings.Fields(gittest.Git(t, dir, "rev-list", "--reverse", "HEAD..refs/edits/s"))
	first, outside := commits[0], commits[1] // sub/b.txt's edit, a.txt's

	cases := []struct {
		name  string
		stdin string
		args  []string
	}{
		{"call edit_undo {}", `{}`, []string{"call", "--root", sub, "--session", "s", "edit_undo"}},
		{"call edit_undo turn", `{"turn":"1"}`, []string{"call", "--root", sub, "--session", "s", "edit_undo"}},
		{"call edit_undo edit", `{"edit":"` + outside + `"}`, []string{"call", "--root", sub, "--session", "s", "edit_undo"}},
		{"call edit_rollback {}", `{}`, []string{"call", "--root", sub, "--session", "s", "edit_rollback"}},
		{"call edit_rollback force", `{"force":true}`, []string{"call", "--root", sub, "--session", "s", "edit_rollback"}},
		{"call edit_rollback dry", `{"dry_run":true}`, []string{"call", "--root", sub, "--session", "s", "edit_rollback"}},
		{"undo", "", []string{"undo", "--root", sub, "--session", "s"}},
		{"undo --turn", "", []string{"undo", "--root", sub, "--session", "s", "--turn", "1"}},
		{"undo EDIT", "", []string{"undo", "--root", sub, "--session", "s", outside}},
		{"undo --dry-run", "", []string{"undo", "--root", sub, "--session", "s", "--dry-run"}},
		{"rollback", "", []string{"rollback", "--root", sub, "--session", "s"}},
		{"rollback --force", "", []string{"rollback", "--root", sub, "--session", "s", "--force"}},
		{"rollback --to", "", []string{"rollback", "--root", sub, "--session", "s", "--to", first}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			was := freeze(t, dir, "a.txt", "sub/b.txt")
			r := runCLI(t, tc.stdin, tc.args...)
			if r.code != 1 {
				t.Fatalf("exit %d, want 1 (refused)\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
			}
			out := r.stdout + r.stderr
			if !strings.Contains(out, "would change a.txt, which is outside the root "+sub+"; nothing was changed") {
				t.Errorf("the refusal does not name a.txt and the root:\nstdout: %s\nstderr: %s", r.stdout, r.stderr)
			}
			was.check(t, dir, tc.name)
		})
	}

	t.Run("mcp --root sub", func(t *testing.T) {
		cs := connect(t, sub, "s", nil, nil)
		for _, tool := range []string{"edit_undo", "edit_rollback"} {
			was := freeze(t, dir, "a.txt", "sub/b.txt")
			text, _, isErr := callTool(t, cs, tool, map[string]any{})
			if !isErr || !strings.Contains(text, "would change a.txt, which is outside the root "+sub) {
				t.Errorf("%s over MCP with --root sub: error %v, %s", tool, isErr, text)
			}
			was.check(t, dir, tool+" over MCP")
		}
	})

	// What lies inside the root is still undone there: undo sub/b.txt's
	// edit by path, then redo it, with --root sub.
	if r := runCLI(t, "", "undo", "--root", sub, "--session", "s", "b.txt"); r.code != 0 || gittest.ReadFile(t, dir, "sub/b.txt") != "b\n" {
		t.Fatalf("undo b.txt inside the root: %+v", r)
	}
	if r := runCLI(t, "", "redo", "--root", sub, "--session", "s"); r.code != 0 || gittest.ReadFile(t, dir, "sub/b.txt") != "B\n" {
		t.Fatalf("redo inside the root: %+v", r)
	}
	if got := gittest.ReadFile(t, dir, "a.txt"); got != "A\n" {
		t.Fatalf("a.txt is %q, want the edit kept", got)
	}
	gittest.Fsck(t, dir)
}

// Issue 22, item 14c: a path that names a file as a directory (a.txt/b.txt
// where a.txt has always been a plain file) is refused saying that a.txt
// is a file, not with the words of a race ("a directory on the path was
// replaced"), by every tool that reads or writes it, and changes nothing.
func TestAttackPathThroughAFileSaysItIsAFile(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	mkfifo(t, filepath.Join(dir, "pipe"), 0o644)
	for _, tc := range []struct{ through, is string }{{"a.txt", "a file"}, {"pipe", "a FIFO"}} {
		for _, call := range []struct{ tool, args string }{
			{"text_editor", `{"command":"create","path":"%s/b.txt","file_text":"x\n"}`},
			{"text_editor", `{"command":"view","path":"%s/b.txt"}`},
			{"Read", `{"file_path":"%s/b.txt"}`},
			{"edit_lines", `{"path":"%s/b.txt","operations":[{"op":"insert","afterLine":0,"content":["x"]}]}`},
		} {
			was := freeze(t, dir, "a.txt")
			r := runCLI(t, fmt.Sprintf(call.args, tc.through), "call", "--root", dir, call.tool)
			if r.code != 1 {
				t.Fatalf("%s %s/b.txt: exit %d, want 1\n%s%s", call.tool, tc.through, r.code, r.stdout, r.stderr)
			}
			if want := tc.through + " is " + tc.is + ", not a directory, so no path lies under it"; !strings.Contains(r.stdout, want) || strings.Contains(r.stdout, "replaced") {
				t.Errorf("%s %s/b.txt says\n%s\nwant it to say %q, and nothing of a replaced directory", call.tool, tc.through, r.stdout, want)
			}
			was.check(t, dir, call.tool)
		}
	}
}

// Issue 22, item 15: file names an agent made with ESC and CR never reach
// the person's terminal raw: record, log, show, diff, undo, rollback,
// sessions and their refusals quote each path as git quotes it
// ("e\033[31m.txt"), and the subjects recorded in git (which git log
// prints) hold no control character.
func TestAttackControlCharactersInNamesNeverReachTheTerminal(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	evil := "e\x1b[31mvil\r.txt"
	quoted := `"e\033[31mvil\r.txt"`
	raw := func(what, out string) {
		t.Helper()
		for _, c := range []byte(out) {
			if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
				t.Errorf("%s printed the control byte %#x:\n%q", what, c, out)
				return
			}
		}
	}
	// The agent creates one through a tool, and one through its shell.
	args, _ := json.Marshal(map[string]any{"command": "create", "path": evil, "file_text": "x\n"})
	if r := runCLI(t, string(args), "call", "--root", dir, "--session", "s", "text_editor"); r.code != 0 {
		t.Fatalf("create: %+v", r)
	}
	gittest.WriteFile(t, dir, "2"+evil, "y\n")
	steps := [][]string{
		{"record", "--root", dir, "--session", "s"},
		{"log", "--root", dir, "--session", "s"},
		{"log", "--root", dir, "--session", "s", "--stat"},
		{"show", "--root", dir, "--session", "s", "s~0"},
		{"show", "--root", dir, "--session", "s", "s~1"},
		{"diff", "--root", dir, "--session", "s", "--stat"},
		{"sessions", "--root", dir},
		{"undo", "--root", dir, "--session", "s", "--dry-run"},
		{"undo", "--root", dir, "--session", "s"},
		{"rollback", "--root", dir, "--session", "s"},
		// A refusal naming the path: nothing left to undo there.
		{"undo", "--root", dir, "--session", "s", "--undo-depth", "1", filepath.Join(dir, "2"+evil)},
	}
	saw := false
	for _, args := range steps {
		r := runCLI(t, "", args...)
		if args[0] == "record" && (r.code != 0 || !strings.Contains(r.stdout, "create mode 100644 \"2e\\033[31mvil\\r.txt\"")) {
			t.Fatalf("record: %+v", r)
		}
		raw(strings.Join(args[:1], " "), r.stdout+r.stderr)
		saw = saw || strings.Contains(r.stdout+r.stderr, quoted)
	}
	if !saw {
		t.Errorf("no output named %s", quoted)
	}
	subjects := gittest.Git(t, dir, "log", "--format=%s", "refs/edits/s")
	raw("git log of the session", subjects)
	if !strings.Contains(subjects, `record: "2e\033[31mvil\r.txt" changed on disk`) {
		t.Errorf("the record's subject does not quote the name:\n%s", subjects)
	}
	gittest.Fsck(t, dir)
}

// Issue 22, item 13: every entry point runs its operation within the same
// deadline (git config edit.timeout, or --timeout): a clean filter that
// hangs is stopped there, the operation is refused saying so, files and
// refs are as they were, and the edit lock is released, so the next
// operation of the same server or command runs. Before, only call had a
// deadline (two minutes, fixed): an MCP tool call held the lock for as
// long as the client waited.
func TestAttackEveryEntryPointHasTheDeadline(t *testing.T) {
	gittest.Isolate(t)
	dir := gittest.New(t)
	gittest.Git(t, dir, "config", "filter.f.clean", "cat")
	gittest.Git(t, dir, "config", "filter.f.smudge", "cat")
	gittest.Git(t, dir, "config", "filter.f.required", "true")
	// d.md is not filtered: an edit of it starts no filter process.
	gittest.Commit(t, dir, map[string]string{".gitattributes": "*.txt filter=f\n", "a.txt": "one\n", "b.txt": "two\n", "d.md": "four\n"})
	if r := runCLI(t, `{"command":"str_replace","path":"b.txt","old_str":"two","new_str":"TWO"}`, "call", "--root", dir, "--session", "s", "text_editor"); r.code != 0 {
		t.Fatalf("edit: %+v", r)
	}
	hang := func(on bool) {
		clean := "cat"
		if on {
			clean = "sleep 30; cat"
		}
		gittest.Git(t, dir, "config", "filter.f.clean", clean)
	}
	// The limit is short for the test's time, and long enough that an
	// edit that starts no hanging filter finishes within it on a loaded
	// machine (at 1s a busy CI machine missed it).
	const limit = "3"
	gittest.Git(t, dir, "config", "edit.timeout", limit)
	cs := connect(t, dir, "s", nil, nil) // edit.timeout is read when the server starts
	hang(true)
	gittest.WriteFile(t, dir, "c.txt", "three\n") // for record

	steps := []struct {
		name string
		run  func() (refused bool, out string)
	}{
		{"mcp tool call", func() (bool, string) {
			text, _, isErr := callTool(t, cs, "text_editor", map[string]any{"command": "str_replace", "path": "a.txt", "old_str": "one", "new_str": "ONE"})
			return isErr, text
		}},
		{"mcp edit_undo", func() (bool, string) {
			text, _, isErr := callTool(t, cs, "edit_undo", map[string]any{})
			return isErr, text
		}},
		{"call", func() (bool, string) {
			r := runCLI(t, `{"command":"str_replace","path":"a.txt","old_str":"one","new_str":"ONE"}`, "call", "--root", dir, "--session", "s", "text_editor")
			return r.code == 1, r.stdout
		}},
		{"call --timeout", func() (bool, string) {
			gittest.Git(t, dir, "config", "edit.timeout", "0") // no limit, but --timeout wins
			defer gittest.Git(t, dir, "config", "edit.timeout", limit)
			r := runCLI(t, `{"command":"str_replace","path":"a.txt","old_str":"one","new_str":"ONE"}`, "call", "--root", dir, "--session", "s", "--timeout", limit+"s", "text_editor")
			return r.code == 1, r.stdout
		}},
		{"undo", func() (bool, string) {
			r := runCLI(t, "", "undo", "--root", dir, "--session", "s")
			return r.code == 1, r.stderr
		}},
		{"record", func() (bool, string) {
			r := runCLI(t, "", "record", "--root", dir, "--session", "s")
			return r.code == 1, r.stderr
		}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			// Refs and bytes, not git status: git's own status would run
			// the hanging filter.
			refs := gittest.Git(t, dir, "for-each-ref", "refs/edits/")
			files := map[string]string{}
			for _, p := range []string{"a.txt", "b.txt", "c.txt"} {
				files[p] = gittest.ReadFile(t, dir, p)
			}
			start := time.Now()
			refused, out := st.run()
			if took := time.Since(start); took > 15*time.Second {
				t.Errorf("took %v, past its %ss deadline", took, limit)
			}
			if !refused || !strings.Contains(out, "was stopped after "+limit+"s, its time limit (git config edit.timeout, or --timeout), and nothing was changed") {
				t.Errorf("refused %v, said:\n%s", refused, out)
			}
			if got := gittest.Git(t, dir, "for-each-ref", "refs/edits/"); got != refs {
				t.Errorf("refs moved:\n%s\nwas\n%s", got, refs)
			}
			for p, want := range files {
				if got := gittest.ReadFile(t, dir, p); got != want {
					t.Errorf("%s is %q, was %q", p, got, want)
				}
			}
		})
	}
	// The lock was released: the same server edits a file that starts no
	// filter (its limit is far above what that edit needs), and,
	// with the filter fixed, a command edits a.txt (a lock still held
	// would keep it waiting until its limit).
	hang(false)
	if text, _, isErr := callTool(t, cs, "text_editor", map[string]any{"command": "str_replace", "path": "d.md", "old_str": "four", "new_str": "FOUR"}); isErr {
		t.Fatalf("the server's edit after the deadline: %s", text)
	}
	if r := runCLI(t, `{"command":"str_replace","path":"a.txt","old_str":"one","new_str":"ONE"}`, "call", "--root", dir, "--session", "s", "--timeout", "5m", "text_editor"); r.code != 0 {
		t.Fatalf("the command's edit after the deadline: %+v", r)
	}
	for p, want := range map[string]string{"a.txt": "ONE\n", "d.md": "FOUR\n"} {
		if got := gittest.ReadFile(t, dir, p); got != want {
			t.Errorf("%s = %q, want %q", p, got, want)
		}
	}
	gittest.Git(t, dir, "config", "edit.timeout", "forever")
	if r := runCLI(t, "", "record", "--root", dir, "--session", "s"); r.code != 1 || !strings.Contains(r.stderr, `edit.timeout = "forever"; set a duration such as 2m or 90s`) {
		t.Errorf("a bad edit.timeout: %+v", r)
	}
	gittest.Fsck(t, dir)
}

// Issue 22, item 10: record prints what it recorded. A tracked file
// replaced by a directory (with a file in it), or a directory replaced by a
// file, cannot be recorded beside the entry it replaces without deleting
// that entry; the commit used to delete it anyway while the output said it
// was not recorded. Now the commit holds exactly the paths printed, the
// others are named with why and how to record them, and following that
// advice records them.
func TestAttackRecordSaysWhatItRecords(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replace func(t *testing.T, dir string)
		left    []string // the paths left out, as warned
		moved   string   // what the advice says to move aside
	}{
		{"file becomes a directory", func(t *testing.T, dir string) {
			must(t, os.Remove(filepath.Join(dir, "c.txt")))
			gittest.WriteFile(t, dir, "c.txt/d.txt", "inner\n")
		}, []string{"c.txt", "c.txt/d.txt"}, "c.txt"},
		{"directory becomes a file", func(t *testing.T, dir string) {
			must(t, os.RemoveAll(filepath.Join(dir, "d")))
			gittest.WriteFile(t, dir, "d", "file\n")
		}, []string{"d/x.txt", "d/y.txt", "d"}, "d"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n", "c.txt": "c\n", "d/x.txt": "x\n", "d/y.txt": "y\n"})
			gittest.WriteFile(t, dir, "a.txt", "a2\n")
			tc.replace(t, dir)
			r := runCLI(t, "", "record", "--root", dir, "--session", "s")
			if r.code != 0 {
				t.Fatalf("record: %+v", r)
			}
			for _, p := range tc.left {
				if !strings.Contains(r.stderr, "warning: not recorded: "+p+": ") {
					t.Errorf("no warning names %s:\n%s", p, r.stderr)
				}
			}
			if !strings.Contains(r.stderr, "move "+tc.moved+" aside and run `git edit record --session s "+tc.moved+"`") {
				t.Errorf("no warning says how to record it:\n%s", r.stderr)
			}
			// The commit changes exactly a.txt, as printed.
			if !strings.Contains(r.stdout, " 1 file changed, 1 insertion(+), 1 deletion(-)\n") {
				t.Errorf("record printed:\n%s", r.stdout)
			}
			if got := gittest.Git(t, dir, "diff-tree", "-r", "--name-status", "HEAD", "refs/edits/s"); got != "M\ta.txt\n" {
				t.Errorf("the record commit changes\n%s\nwhere it printed only a.txt", got)
			}
			// The advice, followed, records the rest.
			aside := filepath.Join(t.TempDir(), "aside")
			must(t, os.Rename(filepath.Join(dir, tc.moved), aside))
			if r := runCLI(t, "", "record", "--root", dir, "--session", "s", tc.moved); r.code != 0 || r.stderr != "" {
				t.Fatalf("record with %s aside: %+v", tc.moved, r)
			}
			must(t, os.Rename(aside, filepath.Join(dir, tc.moved)))
			if r := runCLI(t, "", "record", "--root", dir, "--session", "s", tc.moved); r.code != 0 || r.stderr != "" {
				t.Fatalf("record with %s back: %+v", tc.moved, r)
			}
			// The session now records the disk as it is: git add -A agrees.
			gittest.Git(t, dir, "add", "-A")
			if got := gittest.Git(t, dir, "diff", "--cached", "--name-status", "refs/edits/s"); got != "" {
				t.Errorf("the session differs from the disk:\n%s", got)
			}
			gittest.Fsck(t, dir)
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
