package main

import (
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// Issue 22 item 14: an empty or malformed turn id or checkpoint name is
// refused wherever one is read. "turn:" once matched the newest commit
// without a turn (the session's first edit here) and silently reversed
// every later turn; --to with an empty value read as no --to (back to the
// start), and --turn with an empty value as no --turn (undo the newest
// edit). Each refusal says what was wrong and changes no file, ref or
// index entry.
func TestAttackEmptyAndMalformedTurnNames(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a1\n\n\na2\n\n\na3\n"})
	mustRun(t, dir, `{"command":"str_replace","path":"a.txt","old_str":"a1","new_str":"A1"}`, "call", "--session", "s", "text_editor")
	mustRun(t, dir, "", "checkpoint", "--session", "s")
	mustRun(t, dir, `{"command":"str_replace","path":"a.txt","old_str":"a2","new_str":"A2"}`, "call", "--session", "s", "--turn", "1", "text_editor")
	mustRun(t, dir, `{"command":"str_replace","path":"a.txt","old_str":"a3","new_str":"A3"}`, "call", "--session", "s", "--turn", "2", "text_editor")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"rollback", "--session", "s", "--to", "turn:"}, 1, `invalid name: turn "" is empty; give the turn's id as the host names it, such as a number or a UUID; nothing was changed`},
		{[]string{"rollback", "--session", "s", "--to", "turn: 1"}, 1, `invalid name: turn " 1" starts or ends with a space; give the turn's id as the host names it, such as a number or a UUID; nothing was changed`},
		{[]string{"rollback", "--session", "s", "--dry-run", "--to", "turn:"}, 1, `invalid name: turn "" is empty`},
		{[]string{"rollback", "--session", "s", "--to", "checkpoint:"}, 1, `invalid name: checkpoint name "" is empty; use letters, digits, '-', '_' or '.', such as before-refactor; nothing was changed`},
		{[]string{"rollback", "--session", "s", "--to", ""}, 2, "--to is empty; nothing was changed. Give --to EDIT|CHECKPOINT|TURN, or leave it out to roll back to the start of the session"},
		{[]string{"undo", "--session", "s", "--turn", ""}, 2, "--turn is empty; nothing was changed. Give --turn T, or leave it out to undo the newest edit"},
		{[]string{"undo", "--session", "s", "--turn", "1 "}, 1, `invalid name: turn "1 " starts or ends with a space; give the turn's id as the host names it, such as a number or a UUID; nothing was changed`},
	} {
		before, st, refs := tipOf(t, dir), gittest.Status(t, dir), gittest.Git(t, dir, "for-each-ref")
		disk := gittest.ReadFile(t, dir, "a.txt")
		r := runCLI(t, "", append([]string{tc.args[0], "--root", dir}, tc.args[1:]...)...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, r.code, r.stderr, tc.code, tc.want)
		}
		if tipOf(t, dir) != before || gittest.Status(t, dir) != st || gittest.Git(t, dir, "for-each-ref") != refs || gittest.ReadFile(t, dir, "a.txt") != disk {
			t.Errorf("%q: a refusal changed something", tc.args)
		}
	}
	if got := gittest.ReadFile(t, dir, "a.txt"); got != "A1\n\n\nA2\n\n\nA3\n" {
		t.Fatalf("a.txt = %q after the refusals", got)
	}
	gittest.Fsck(t, dir)
}
