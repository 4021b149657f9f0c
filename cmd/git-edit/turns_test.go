package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// sessionIDs maps each commit of session s to a name by its position,
// oldest first ("c1", "c2", ...), for comparing output that prints ids.
func sessionIDs(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := strings.Fields(gittest.Git(t, dir, "rev-list", "--reverse", "HEAD..refs/edits/s"))
	ids := map[string]string{}
	for i, h := range out {
		ids[h[:7]] = "c" + strconv.Itoa(i+1)
	}
	return ids
}

var (
	logAge    = regexp.MustCompile(`\d+ seconds? ago`)
	logSpaces = regexp.MustCompile(` {2,}`)
	shortHex  = regexp.MustCompile(`\b[0-9a-f]{7}\b`)
)

// readable is output with commit ids named as sessionIDs names them, ages
// as "now", and runs of spaces (column padding, which depends on the
// ages' widths) as two.
func readable(out string, ids map[string]string) string {
	out = shortHex.ReplaceAllStringFunc(out, func(h string) string {
		if n, ok := ids[h]; ok {
			return n
		}
		return h
	})
	out = logAge.ReplaceAllString(out, "now")
	return logSpaces.ReplaceAllString(out, "  ")
}

// Issue 16, "Done when": three turns of mixed dialects (text_editor,
// edit_lines, code_edit, a shell command recorded, apply_patch), with the
// turn given by --turn and by GIT_EDIT_TURN; log groups them; undo --turn
// 2 takes back every edit of turn 2 in one commit, keeping turns 1 and 3;
// rollback --to a checkpoint returns to it; refusals say what to do.
func TestTurnsUndoAndRollbackToCheckpoint(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a1\n\n\na2\n\n\na3\n", "b.txt": "b\n"})
	// Turn 1, by --turn.
	mustRun(t, dir, `{"command":"str_replace","path":"a.txt","old_str":"a1","new_str":"A1"}`, "call", "--session", "s", "--turn", "1", "text_editor")
	out := mustRun(t, dir, "", "checkpoint", "--session", "s", "after-1")
	cp := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "refs/edits/s"))
	if out != "[s "+cp[:7]+"] checkpoint after-1\nReturn to it with `git edit rollback --session s --to after-1`.\n" {
		t.Fatalf("checkpoint said %q", out)
	}
	// Turn 2, by GIT_EDIT_TURN: two dialects and a shell command.
	t.Setenv("GIT_EDIT_TURN", "2")
	mustRun(t, dir, `{"path":"b.txt","operations":[{"op":"insert","afterLine":1,"content":["b2"]}]}`, "call", "--session", "s", "edit_lines")
	mustRun(t, dir, `{"file_path":"a.txt","search":"a2\n","replace":"A2\n"}`, "call", "--session", "s", "code_edit")
	gittest.WriteFile(t, dir, "c.txt", "made by a shell\n")
	mustRun(t, dir, "", "record", "--session", "s", "-m", "echo made by a shell > c.txt")
	t.Setenv("GIT_EDIT_TURN", "")
	// Turn 3.
	mustRun(t, dir, `{"input":"*** Begin Patch\n*** Update File: a.txt\n@@\n-a3\n+A3\n*** End Patch\n"}`, "call", "--session", "s", "--turn", "3", "apply_patch")

	ids := sessionIDs(t, dir)
	raw := mustRun(t, dir, "", "log", "--session", "s")
	got := readable(raw, ids)
	want := `turn 3 (1 edit)
  c6  now  edit  apply_patch  +1 -1  a.txt
turn 2 (3 edits)
  c5  now  record  +1 -0  c.txt
  c4  now  edit  code_edit  +1 -1  a.txt
  c3  now  edit  edit_lines  +1 -0  b.txt
c2  now  checkpoint  after-1  +0 -0
turn 1 (1 edit)
  c1  now  edit  text_editor.str_replace  +1 -1  a.txt
`
	if got != want {
		t.Fatalf("log:\n%s\nwant:\n%s", got, want)
	}
	if js := mustRun(t, dir, "", "log", "--session", "s", "--json", "-n", "1"); !strings.Contains(js, `"turn": "3"`) {
		t.Fatalf("log --json has no turn: %s", js)
	}
	if js := mustRun(t, dir, "", "log", "--session", "s", "--json"); !strings.Contains(js, `"checkpoint": "after-1"`) {
		t.Fatalf("log --json has no checkpoint: %s", js)
	}

	// A dry run prints the diff and changes nothing.
	tip, status := tipOf(t, dir), gittest.Status(t, dir)
	dry := readable(mustRun(t, dir, "", "undo", "--session", "s", "--turn", "2", "--dry-run"), ids)
	if !strings.HasPrefix(dry, "Dry run: nothing was written or recorded. Would undo turn 2 (3 edits: c5, c4, c3):\n  removed  c.txt\n  changed  a.txt (+1 -1)\n  changed  b.txt (+0 -1)\n--- a/c.txt\n") {
		t.Fatalf("undo --dry-run said:\n%s", dry)
	}
	if tipOf(t, dir) != tip || gittest.Status(t, dir) != status {
		t.Fatal("undo --dry-run changed something")
	}

	// undo --turn 2: one commit; turns 1 and 3 stay.
	out = readable(mustRun(t, dir, "", "undo", "--session", "s", "--turn", "2"), ids)
	if !strings.HasPrefix(out, "Undid turn 2 (3 edits: c5, c4, c3), recorded as ") || !strings.HasSuffix(out, ":\n  removed  c.txt\n  changed  a.txt (+1 -1)\n  changed  b.txt (+0 -1)\n") {
		t.Fatalf("undo --turn 2 said:\n%s", out)
	}
	if n := strings.TrimSpace(gittest.Git(t, dir, "rev-list", "--count", tip+"..refs/edits/s")); n != "1" {
		t.Fatalf("undo --turn 2 made %s commits, want 1", n)
	}
	undoes := strings.Fields(gittest.Git(t, dir, "log", "-1", "--format=%(trailers:key=Edit-Undoes,valueonly)", "refs/edits/s"))
	if len(undoes) != 3 {
		t.Fatalf("Edit-Undoes %v, want the 3 commits of turn 2", undoes)
	}
	for p, want := range map[string]string{"a.txt": "A1\n\n\na2\n\n\nA3\n", "b.txt": "b\n"} {
		if got := gittest.ReadFile(t, dir, p); got != want {
			t.Fatalf("after undo --turn 2, %s = %q, want %q", p, got, want)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "c.txt")); err == nil {
		t.Fatal("c.txt, created in turn 2, is still there")
	}
	gittest.Fsck(t, dir)

	// Refusals.
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"undo", "--session", "s", "--turn", "2"}, 1, "nothing to undo: every edit of turn 2 was undone already (by %s); re-apply it with `git edit redo --session s %s`"},
		{[]string{"undo", "--session", "s", "--turn", "9"}, 1, "no such edit: session \"s\" has no edit of turn 9; `git edit log --session s` shows the turns"},
		{[]string{"undo", "--session", "s", "--turn", "1", "a.txt"}, 2, "undo takes EDIT, PATH or --turn T, not both \"a.txt\" and --turn 1"},
		{[]string{"rollback", "--session", "s", "--to", "nope"}, 1, "no such edit \"nope\" in session \"s\"; give an edit (a commit id from `git edit log --session s`), a checkpoint's name or a turn's id"},
		{[]string{"checkpoint", "--session", "s", "after-1"}, 1, "checkpoint exists: session \"s\" has a checkpoint named after-1 already (" + cp[:7] + "); choose another name, or roll back to it with `git edit rollback --session s --to after-1`"},
		{[]string{"checkpoint", "--session", "s", "two words"}, 2, "invalid name: checkpoint name \"two words\" holds a space, ':' or '~'; use letters, digits, '-', '_' or '.', such as before-refactor"},
		{[]string{"call", "--session", "s", "--turn", "a\tb", "text_editor"}, 2, "--turn: invalid name: turn \"a\\tb\" holds a control character; give the turn's id as the host names it, such as a number or a UUID"},
	} {
		want := tc.want
		if strings.Contains(want, "%s") {
			u := tipOf(t, dir)[:7]
			want = strings.ReplaceAll(want, "%s", u)
		}
		before, st := tipOf(t, dir), gittest.Status(t, dir)
		r := runCLI(t, "{}", append([]string{tc.args[0], "--root", dir}, tc.args[1:]...)...)
		if r.code != tc.code || !strings.Contains(r.stderr, want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, r.code, r.stderr, tc.code, want)
		}
		if tipOf(t, dir) != before || gittest.Status(t, dir) != st {
			t.Errorf("%v: a refusal changed something", tc.args)
		}
	}

	// A checkpoint named as a turn: rollback --to asks which.
	mustRun(t, dir, "", "checkpoint", "--session", "s", "3")
	r := runCLI(t, "", "rollback", "--root", dir, "--session", "s", "--to", "3")
	if r.code != 1 || !strings.Contains(r.stderr, `ambiguous name: "3" names checkpoint and turn in session "s"; nothing was changed. Say which: checkpoint:3 (`) {
		t.Fatalf("rollback --to 3: exit %d %q", r.code, r.stderr)
	}

	// rollback --to the checkpoint: the state right after turn 1.
	out = mustRun(t, dir, "", "rollback", "--session", "s", "--to", "after-1")
	if !strings.HasPrefix(out, "Rolled back to checkpoint after-1 ("+cp[:7]+"), recorded as ") {
		t.Fatalf("rollback said %q", out)
	}
	for p, want := range map[string]string{"a.txt": "A1\n\n\na2\n\n\na3\n", "b.txt": "b\n"} {
		if got := gittest.ReadFile(t, dir, p); got != want {
			t.Fatalf("after rollback --to after-1, %s = %q, want %q", p, got, want)
		}
	}
	// The tree of the rollback's commit is the checkpoint's, as git sees it.
	if d := gittest.Git(t, dir, "diff", cp, "refs/edits/s"); d != "" {
		t.Fatalf("rollback --to after-1 differs from the checkpoint:\n%s", d)
	}
	gittest.Fsck(t, dir)
}
