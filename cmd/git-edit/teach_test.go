package main

import (
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// Refusals that teach (issue 15, item 11): after the seed's text, a failed
// exact search shows the closest lines and the first difference, as
// code_edit does; edit_lines lists its operations and names the two that
// overlap; and the worktree's top directory is seed 001's "path is a
// directory". Each refusal leaves the file and the refs as they were
// (play checks that).
func TestRefusalsTeach(t *testing.T) {
	const src = "func f() {\n\treturn 1\n}\n"
	dir := gittest.NewWithCommit(t, map[string]string{"a.go": src})
	files := map[string]string{"a.go": src}
	step := func(tool, args, out string) cliStep {
		return cliStep{stdin: args, args: []string{"call", "--session", "s", tool}, code: 1, out: out + "\n", files: files}
	}
	play(t, dir, []cliStep{
		step("text_editor", `{"command":"str_replace","path":"a.go","old_str":"    return 1","new_str":"    return 2"}`,
			`{"status":"error","message":"old_str not found in a.go; view the file and copy the exact text to replace, including whitespace, indentation and line breaks\nDid you mean line 2? The file has:\n     2\t\treturn 1\nThe first difference is at line 2, in whitespace only: the file has \"\\treturn 1\" where old_str line 1 has \"    return 1\". The file's indentation of that line is 1 tab, old_str's is 4 spaces."}`),
		// Edit needs a Read first (read-before-edit is on).
		{stdin: `{"file_path":"a.go"}`, args: []string{"call", "--session", "s", "Read"}, out: "-", files: files},
		step("Edit", `{"file_path":"a.go","old_string":"func f() {\n    return 1\n}","new_string":"func f() {\n    return 2\n}"}`,
			`{"error":"String not found in file","details":"The specified old_string does not exist in the file. Read the file again and copy the exact text, including whitespace and indentation\nDid you mean lines 1-3? The file has:\n     1\tfunc f() {\n     2\t\treturn 1\n     3\t}\nThe first difference is at line 2, in whitespace only: the file has \"\\treturn 1\" where old_string line 2 has \"    return 1\". The file's indentation of that line is 1 tab, old_string's is 4 spaces."}`),
		step("MultiEdit", `{"file_path":"a.go","edits":[{"old_string":"func f()","new_string":"func g()"},{"old_string":"return  1","new_string":"return 2"}]}`,
			`{"error":"Edit 2 of 2 failed: String not found in file","details":"The specified old_string does not exist in the file. Read the file again and copy the exact text, including whitespace and indentation. Edit 2 is matched against the file as edit 1 leaves it. None of the 2 edits was applied; send them all again with edit 2 fixed\nDid you mean line 2? The file has:\n     2\t\treturn 1\nThe first difference is at line 2: the file has \"\\treturn 1\" where old_string line 1 has \"return  1\"."}`),
		step("edit_lines", `{"path":"a.go","operations":[{"op":"remove","startLine":1,"endLine":1}]}`,
			`{"error":"unknown operation: remove; \"op\" is one of \"replace\" (startLine, endLine, content), \"insert\" (afterLine, content) and \"delete\" (startLine, endLine)"}`),
		step("edit_lines", `{"path":"a.go","operations":[{"op":"delete","startLine":2,"endLine":3},{"op":"insert","afterLine":2,"content":["x"]}]}`,
			`{"error":"operations overlap at line 2; operation 1 (delete lines 2-3) and operation 2 (insert after line 2) both touch line 2. All line numbers refer to the file before the call: merge the two into one operation, or change their lines so that no line is touched twice"}`),
		step("edit_lines", `{"path":".","operations":[{"op":"delete","startLine":1,"endLine":1}]}`,
			`{"error":"path is a directory: ."}`),
	})
}

// Undo says what it removes besides the edit it undoes (issue 15, item 6):
// a selective undo keeps later changes, but where the person changed the
// very line the edit added it conflicts and refuses, naming the line;
// --force puts the path back whole, as it was before the edit, so the
// later edits of two other sessions and the line written by hand go too;
// the report names them, whose they are, and how to get them back, and
// redo does get them back, byte for byte. A plain undo says nothing more.
func TestUndoSaysWhatElseItRemoves(t *testing.T) {
	const src = "one\ntwo\nthree\nfour\n"
	dir := gittest.NewWithCommit(t, map[string]string{"hex.c": src, "x.c": "x\n"})
	ins := func(session, path string, line int, text string) cliStep {
		return cliStep{stdin: `{"command":"insert","path":"` + path + `","insert_line":` + string(rune('0'+line)) + `,"new_str":"` + text + `"}`,
			args: []string{"call", "--session", session, "text_editor"}, out: "-"}
	}
	const all = "one\nA1 and by hand\ntwo\nthree\nB1\nC1\nfour\n"
	play(t, dir, []cliStep{
		ins("a", "x.c", 1, "y"),
		{args: []string{"undo", "--session", "a", "x.c"}, out: "Undid text_editor.insert (<id>), recorded as <id>:\n  changed    x.c (+0 -1)\n", files: map[string]string{"x.c": "x\n"}},
		ins("a", "hex.c", 1, "A1"),
		ins("b", "hex.c", 4, "B1"),
		ins("c", "hex.c", 5, "C1"),
		{person: map[string]string{"hex.c": all}, args: []string{"undo", "--session", "a", "hex.c"}, code: 1, out: "",
			err: "conflicts with later changes to the same lines: hex.c line 2. Nothing was changed.", files: map[string]string{"hex.c": all}},
		{args: []string{"undo", "--session", "a", "--force", "hex.c"}, out: "" +
			"Undid text_editor.insert (<id>); the changes on disk were recorded first as <id>, recorded as <id>:\n" +
			"  changed    hex.c (+0 -3)\n" +
			"hex.c conflicted and went back whole (--force) to its state before <id>, so the undo also removed what changed it since (+3 -1):\n" +
			"  edits of other sessions: b (<id>), c (<id>) (recorded here in sync commit <id>)\n" +
			"  changes recorded in no session (by hand or by another tool), in sync commit <id>\n" +
			"Get them back with `git edit redo --session a hex.c` (the whole file as it was), or see them with `git diff <id> <id> -- hex.c`.\n",
			files: map[string]string{"hex.c": src}},
		{args: []string{"redo", "--session", "a", "hex.c"}, out: "Redid what <id> undid (<id>), recorded as <id>:\n  changed    hex.c (+3 -0)\n", files: map[string]string{"hex.c": all}},
	})
	// The diff the report points at (the edit undone, then the sync
	// commit: a~3 and a~2 once the redo is recorded on top of the undo) is
	// what the undo removed besides A1.
	if got := gittest.Git(t, dir, "diff", "refs/edits/a~3", "refs/edits/a~2", "--", "hex.c"); !strings.Contains(got, " three\n+B1\n+C1\n four\n") || !strings.Contains(got, "-A1\n+A1 and by hand\n") {
		t.Errorf("the diff of what else the undo removed:\n%s", got)
	}
	for _, want := range []string{"refs/edits/a~3 text_editor.insert: hex.c", "refs/edits/a~2 sync: hex.c changed outside git-edit"} {
		ref, subject, _ := strings.Cut(want, " ")
		if got := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%s", ref)); got != subject {
			t.Errorf("%s is %q, want %q", ref, got, subject)
		}
	}
}
