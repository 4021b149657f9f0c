package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// hintA is session A of TestAttackHintsRunAsPrinted: a valid session name
// that a shell would read ($x expands, ; ends the command) unless quoted.
const hintA = "a$x;y"

// Issue 23: every command a message prints runs as printed, from any
// state. Each case builds, in session A, the state that prints a hint;
// then session B edits, so that the no-flag rule would pick B; then the
// printed command (placeholders filled in) runs verbatim through sh and
// the built binary, with $GIT_EDIT_SESSION unset, and must act on A only.
func TestAttackHintsRunAsPrinted(t *testing.T) {
	bin := binDir(t)
	// editA edits a.txt in session A (optionally as part of a turn) and
	// returns the new tip of A.
	editA := func(t *testing.T, dir, old, new string, extra ...string) string {
		t.Helper()
		args := append([]string{"call", "--session", hintA}, extra...)
		mustRun(t, dir, `{"command":"str_replace","path":"a.txt","old_str":"`+old+`","new_str":"`+new+`"}`, append(args, "text_editor")...)
		return gittest.Rev(t, dir, "refs/edits/"+hintA)
	}
	a := []string{"--session", hintA}
	for _, tc := range []struct {
		name string
		// state builds A's state and returns the command (as session A)
		// that prints the hint, and what to put for placeholders.
		state  func(t *testing.T, dir string) (args []string, fill map[string]string)
		code   int    // the exit code of the command that prints the hint
		hint   string // a regexp: its group 1 is the hint
		a      string // a.txt after the hint ran; "" for a read-only hint
		output string // for a read-only hint: what its output holds (A's tip's subject)
	}{
		{name: "undone already: redo it", code: 1, hint: "re-apply it with `([^`]+)`", a: "A1\n",
			state: func(t *testing.T, dir string) ([]string, map[string]string) {
				e := editA(t, dir, "a1", "A1")
				mustRun(t, dir, "", append([]string{"undo"}, append(a, e[:9])...)...)
				return append([]string{"undo"}, append(a, e[:9])...), nil
			}},
		{name: "redo of an edit: undo it", code: 1, hint: "To take [0-9a-f]+ back, run `([^`]+)`", a: "a1\n",
			state: func(t *testing.T, dir string) ([]string, map[string]string) {
				e := editA(t, dir, "a1", "A1")
				return append([]string{"redo"}, append(a, e[:9])...), nil
			}},
		{name: "undo of an undo: redo it", code: 1, hint: "run `([^`]+)`", a: "A1\n",
			state: func(t *testing.T, dir string) ([]string, map[string]string) {
				editA(t, dir, "a1", "A1")
				mustRun(t, dir, "", append([]string{"undo"}, append(a, "a.txt")...)...)
				u := gittest.Rev(t, dir, "refs/edits/"+hintA)
				return append([]string{"undo"}, append(a, u[:9])...), nil
			}},
		{name: "redone already: undo the redo", code: 1, hint: "undo that with `([^`]+)`", a: "a1\n",
			state: func(t *testing.T, dir string) ([]string, map[string]string) {
				editA(t, dir, "a1", "A1")
				mustRun(t, dir, "", append([]string{"undo"}, append(a, "a.txt")...)...)
				u := gittest.Rev(t, dir, "refs/edits/"+hintA)
				mustRun(t, dir, "", append([]string{"redo"}, append(a, u[:9])...)...)
				return append([]string{"redo"}, append(a, u[:9])...), nil
			}},
		{name: "turn undone already: redo it", code: 1, hint: "re-apply it with `([^`]+)`", a: "A1\n",
			state: func(t *testing.T, dir string) ([]string, map[string]string) {
				editA(t, dir, "a1", "A1", "--turn", "7")
				mustRun(t, dir, "", append([]string{"undo"}, append(a, "--turn", "7")...)...)
				return append([]string{"undo"}, append(a, "--turn", "7")...), nil
			}},
		{name: "undo depth: name the edit", code: 1, hint: "name the edit: `([^`]+)`", a: "a1\n",
			state: func(t *testing.T, dir string) ([]string, map[string]string) {
				gittest.Git(t, dir, "config", "edit.undoDepth", "1")
				first := editA(t, dir, "a1", "A1")
				editA(t, dir, "A1", "A2")
				mustRun(t, dir, "", append([]string{"undo"}, append(a, "a.txt")...)...)
				return append([]string{"undo"}, append(a, "a.txt")...), map[string]string{"EDIT": first[:9]}
			}},
		{name: "rollback: undo gets it all back", code: 0, hint: "Get it all back with `([^`]+)`", a: "A2\n",
			state: func(t *testing.T, dir string) ([]string, map[string]string) {
				e := editA(t, dir, "a1", "A1")
				editA(t, dir, "A1", "A2")
				return append([]string{"rollback"}, append(a, "--to", e[:9])...), nil
			}},
		{name: "rollback refused: undo PATH", code: 1, hint: "undo single edits of the agent \\(`([^`]+)`\\)", a: "A1\nperson\n",
			state: func(t *testing.T, dir string) ([]string, map[string]string) {
				editA(t, dir, "a1", "A1")
				gittest.WriteFile(t, dir, "a.txt", "A1\nperson\n")
				editA(t, dir, "person", "PERSON")
				return append([]string{"rollback"}, a...), map[string]string{"PATH": "a.txt"}
			}},
		{name: "checkpoint exists: roll back to it", code: 1, hint: "roll back to it with `([^`]+)`", a: "A1\n",
			state: func(t *testing.T, dir string) ([]string, map[string]string) {
				editA(t, dir, "a1", "A1")
				mustRun(t, dir, "", append([]string{"checkpoint"}, append(a, "cp")...)...)
				editA(t, dir, "A1", "A2")
				return append([]string{"checkpoint"}, append(a, "cp")...), nil
			}},
		{name: "no edit of the turn: log shows the turns", code: 1, hint: "`([^`]+)` shows the turns", output: "text_editor.str_replace  +1 -1  a.txt",
			state: func(t *testing.T, dir string) ([]string, map[string]string) {
				editA(t, dir, "a1", "A1")
				return append([]string{"undo"}, append(a, "--turn", "9")...), nil
			}},
		{name: "unknown edit: log gives the ids", code: 1, hint: "give a commit id from `([^`]+)`", output: "text_editor.str_replace  +1 -1  a.txt",
			state: func(t *testing.T, dir string) ([]string, map[string]string) {
				editA(t, dir, "a1", "A1")
				return append([]string{"show"}, append(a, "fff")...), nil
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a1\n", "b.txt": "b1\n"})
			gittest.Git(t, dir, "config", "edit.requireRead", "false")
			args, fill := tc.state(t, dir)
			r := runCLI(t, "", append([]string{args[0], "--root", dir}, args[1:]...)...)
			msg := r.stdout + r.stderr
			m := regexp.MustCompile(tc.hint).FindStringSubmatch(msg)
			if r.code != tc.code || m == nil {
				t.Fatalf("%v: exit %d, want %d, and a hint matching %q:\n%s", args, r.code, tc.code, tc.hint, msg)
			}
			hint := m[1]
			for k, v := range fill {
				hint = strings.Replace(hint, k, v, 1)
			}
			// Session B becomes the current and newest session.
			edit(t, dir, "b", "b.txt", "b1", "B1")
			bTip, aTip := gittest.Rev(t, dir, "refs/edits/b"), gittest.Rev(t, dir, "refs/edits/"+hintA)
			aBefore := gittest.ReadFile(t, dir, "a.txt")
			cmd := exec.Command("sh", "-c", hint)
			cmd.Dir = dir
			cmd.Env = append(gittest.Env(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "GIT_EDIT_SESSION=")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the hint %q (from %q), run as printed: %v\n%s", hint, m[1], err, out)
			}
			if gittest.Rev(t, dir, "refs/edits/b") != bTip || gittest.ReadFile(t, dir, "b.txt") != "B1\n" {
				t.Errorf("the hint %q acted on session b", hint)
			}
			if tc.output != "" { // read-only: it showed A's history and changed nothing
				if !strings.Contains(string(out), tc.output) || strings.Contains(string(out), "b.txt") {
					t.Errorf("the hint %q showed:\n%s\nwant session A's history (%q), not b's", hint, out, tc.output)
				}
				if gittest.Rev(t, dir, "refs/edits/"+hintA) != aTip || gittest.ReadFile(t, dir, "a.txt") != aBefore {
					t.Errorf("the read-only hint %q changed session A", hint)
				}
			} else {
				if gittest.Rev(t, dir, "refs/edits/"+hintA) == aTip {
					t.Errorf("the hint %q did not act on session A:\n%s", hint, out)
				}
				if got := gittest.ReadFile(t, dir, "a.txt"); got != tc.a {
					t.Errorf("after the hint %q a.txt = %q, want %q", hint, got, tc.a)
				}
			}
			gittest.Fsck(t, dir)
		})
	}
}

// Issue 23: `undo PATH` in a session with no edit of PATH, where other
// sessions hold some, names them (last written first, at most three) with
// the command that undoes each there, instead of reading as "undone
// already"; it changes nothing, byte for byte; the printed command works.
func TestAttackUndoPathNamesTheOtherSessions(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"w.txt": "w1\n", "y.txt": "y1\n", "z.txt": "z1\n"})
	gittest.Git(t, dir, "config", "edit.requireRead", "false")
	edit(t, dir, "a", "y.txt", "y1", "Y1")
	edit(t, dir, "b", "w.txt", "w1", "wb")
	// One other session.
	before := untouched(t, dir)
	r := runCLI(t, "", "undo", "--root", dir, "--session", "a", "w.txt")
	want := "session b holds an edit of w.txt: undo it there with `git edit undo --session b w.txt`"
	if r.code != 1 || !strings.Contains(r.stderr, "no edit of w.txt left to undo") || !strings.Contains(r.stderr, want) {
		t.Fatalf("undo w.txt in a: exit %d, stderr %q; want %q", r.code, r.stderr, want)
	}
	if untouched(t, dir) != before {
		t.Fatal("the refused undo changed something")
	}
	// Four others, written in the order d, c, e, f: named f, e, c; one more.
	for _, s := range []string{"d", "c", "e", "f"} {
		old := gittest.ReadFile(t, dir, "z.txt")
		edit(t, dir, s, "z.txt", strings.TrimSuffix(old, "\n"), "z"+s)
	}
	before = untouched(t, dir)
	r = runCLI(t, "", "undo", "--root", dir, "--session", "a", "z.txt")
	want = "sessions f, e, c hold edits of z.txt (newest first) (and 1 more: `git edit sessions` lists them): undo them there with " +
		"`git edit undo --session f z.txt`, `git edit undo --session e z.txt`, `git edit undo --session c z.txt`"
	if r.code != 1 || !strings.Contains(r.stderr, want) {
		t.Fatalf("undo z.txt in a: exit %d, stderr %q; want %q", r.code, r.stderr, want)
	}
	if untouched(t, dir) != before {
		t.Fatal("the refused undo changed something")
	}
	// Over MCP's text_editor undo_edit too (the same operation).
	r = runCLI(t, `{"command":"undo_edit","path":"w.txt"}`, "call", "--root", dir, "--session", "a", "text_editor")
	if !strings.Contains(r.stdout+r.stderr, "`git edit undo --session b w.txt`") {
		t.Errorf("undo_edit of w.txt in a: %+v", r)
	}
	if untouched(t, dir) != before {
		t.Fatal("the refused undo_edit changed something")
	}
	// The named command does it.
	mustRun(t, dir, "", "undo", "--session", "b", "w.txt")
	if got := gittest.ReadFile(t, dir, "w.txt"); got != "w1\n" {
		t.Errorf("after b's undo w.txt = %q", got)
	}
	gittest.Fsck(t, dir)
}
