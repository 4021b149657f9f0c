package ops_test

import (
	"context"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

// exactCall runs one tool call and fails the test on an engine error.
func exactCall(t *testing.T, e *ops.Engine, tool string, args map[string]any) (bool, string) {
	t.Helper()
	res, err := e.Call(context.Background(), tool, marshal(t, args))
	if err != nil {
		t.Fatal(err)
	}
	return res.OK, res.Text
}

// TestAttackMultiEditOverlapRefusedThroughTheWorkspace: VS Code Copilot's
// #277154 through the real workspace: a MultiEdit whose second edit matches
// the block its first edit rewrote is refused, naming both edits, and the
// file, every ref, the object store and git-edit's state are exactly as
// they were; with the edits split so they do not overlap, the same call
// lands as one commit.
func TestAttackMultiEditOverlapRefusedThroughTheWorkspace(t *testing.T) {
	const math = "export function sumArray(a) {\n\treturn a.reduce((sum, num) => sum + num, 0);\n}\n\nexport function div(a, b) {\n\treturn a / b;\n}\n"
	dir := gittest.NewWithCommit(t, map[string]string{"math.js": math})
	e := openEngine(t, dir)
	if ok, text := exactCall(t, e, "Read", map[string]any{"file_path": "math.js"}); !ok {
		t.Fatal(text)
	}
	doc := "/** Divides a by b. */\n"
	div := "export function div(a, b) {\n\treturn a / b;\n}"
	before := snapshotRepo(t, dir, "math.js")
	// The session's edit lock file is made by its first change and kept
	// (empty); it is the workspace's, not the call's.
	before.state["lock"] = ""
	ok, text := exactCall(t, e, "MultiEdit", map[string]any{"file_path": "math.js", "edits": []any{
		map[string]any{"old_string": "0);\n}\n\n" + div, "new_string": "0);\n}\n\n" + doc + div},
		map[string]any{"old_string": div, "new_string": doc + div},
	}})
	want := `Edit 2 of 2 failed: Edits overlap: Edit 2's old_string matches lines 6-8 of the file as the edits before it leave it, and edit 1 wrote lines 2-8 there, in place of lines 2-7 of the file as read.`
	if ok || !strings.HasPrefix(text, want) {
		t.Fatalf("overlapping MultiEdit: ok %v\n%s\nwant a refusal starting\n%s", ok, text, want)
	}
	if d := before.diff(snapshotRepo(t, dir, "math.js")); d != "" {
		t.Fatalf("the refused MultiEdit changed:\n%s", d)
	}

	ok, text = exactCall(t, e, "MultiEdit", map[string]any{"file_path": "math.js", "edits": []any{
		map[string]any{"old_string": "export function div(a, b) {", "new_string": doc + "export function div(a, b) {"},
		map[string]any{"old_string": "export function sumArray(a) {", "new_string": "/** Sums a. */\nexport function sumArray(a) {"},
	}})
	if !ok {
		t.Fatal(text)
	}
	wantFile := "/** Sums a. */\n" + strings.Replace(math, "export function div", doc+"export function div", 1)
	if got := gittest.ReadFile(t, dir, "math.js"); got != wantFile {
		t.Errorf("math.js = %q, want %q", got, wantFile)
	}
	if n := strings.Count(gittest.Git(t, dir, "log", "--format=%H", "refs/edits/s"), "\n"); n != 2 {
		t.Errorf("refs/edits/s has %d commits, want the session's start and one MultiEdit", n)
	}
	gittest.Fsck(t, dir)
}

// TestEditForgivenMatchRecordedThroughTheWorkspace: an Edit whose
// old_string is indented differently from the file (aider's
// replace_part_with_missing_leading_whitespace) lands, re-indented; its
// result says what was forgiven and its commit carries the Edit-Match
// trailer.
func TestEditForgivenMatchRecordedThroughTheWorkspace(t *testing.T) {
	const py = "def f(x):\n    if x:\n        return 1\n    return 2\n"
	dir := gittest.NewWithCommit(t, map[string]string{"f.py": py})
	e := openEngine(t, dir)
	if ok, text := exactCall(t, e, "Read", map[string]any{"file_path": "f.py"}); !ok {
		t.Fatal(text)
	}
	ok, text := exactCall(t, e, "Edit", map[string]any{"file_path": "f.py", "old_string": "if x:\n    return 1", "new_string": "if x > 0:\n    return 1"})
	wantText := "Replaced 1 occurrence in f.py at line 2. old_string was not found exactly; it matched at the ladder's indentation stage, forgiving indentation off by 4 spaces on 2 lines."
	if !ok || !strings.HasPrefix(text, wantText) {
		t.Fatalf("Edit: ok %v\n%s\nwant it to start\n%s", ok, text, wantText)
	}
	if got, want := gittest.ReadFile(t, dir, "f.py"), "def f(x):\n    if x > 0:\n        return 1\n    return 2\n"; got != want {
		t.Errorf("f.py = %q, want %q", got, want)
	}
	if got := gittest.Git(t, dir, "log", "-1", "--format=%(trailers:key=Edit-Match,valueonly)", "refs/edits/s"); got != "indentation: indentation off by 4 spaces on 2 lines\n\n" { // git ends the format with a blank line
		t.Errorf("Edit-Match trailer = %q", got)
	}
	gittest.Fsck(t, dir)
}

// TestEditEmptyOldStringCreatesWithoutRead: Claude Code's Edit with an
// empty old_string creates a missing file (no Read is asked for: there is
// nothing to have read), recorded in the session's commit; on a file with
// text it is refused as the seed says, leaving everything as it was.
func TestEditEmptyOldStringCreatesWithoutRead(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.py": "x = 0\n"})
	e := openEngine(t, dir)
	ok, text := exactCall(t, e, "Edit", map[string]any{"file_path": "new/mod.py", "old_string": "", "new_string": "x = 1\n"})
	if !ok || !strings.HasPrefix(text, "Created new/mod.py with new_string (1 line).") {
		t.Fatalf("Edit creating a file: ok %v\n%s", ok, text)
	}
	if got := gittest.ReadFile(t, dir, "new/mod.py"); got != "x = 1\n" {
		t.Errorf("new/mod.py = %q", got)
	}
	if got := gittest.Git(t, dir, "show", "refs/edits/s:new/mod.py"); got != "x = 1\n" {
		t.Errorf("the session's commit has new/mod.py = %q", got)
	}

	if ok, text := exactCall(t, e, "Read", map[string]any{"file_path": "f.py"}); !ok {
		t.Fatal(text)
	}
	before := snapshotRepo(t, dir, "f.py")
	ok, text = exactCall(t, e, "Edit", map[string]any{"file_path": "f.py", "old_string": "", "new_string": "y = 1\n"})
	// (the session's lock file exists already: the creation made it)
	if ok || !strings.HasPrefix(text, "old_string is empty: Empty text cannot be located.") {
		t.Fatalf("empty old_string on a file with text: ok %v\n%s", ok, text)
	}
	if d := before.diff(snapshotRepo(t, dir, "f.py")); d != "" {
		t.Fatalf("the refused Edit changed:\n%s", d)
	}
	gittest.Fsck(t, dir)
}

// TestEditExpectedReplacementsMismatchRefused: Gemini CLI's replace
// expected_replacements that is not the count found is refused with the
// lines found, leaving the file, refs and state as they were; the right
// count replaces them all.
func TestEditExpectedReplacementsMismatchRefused(t *testing.T) {
	const py = "def f(x):\n    if x:\n        return 1\n    return 2\n"
	dir := gittest.NewWithCommit(t, map[string]string{"f.py": py})
	e := openEngine(t, dir)
	if ok, text := exactCall(t, e, "Read", map[string]any{"file_path": "f.py"}); !ok {
		t.Fatal(text)
	}
	before := snapshotRepo(t, dir, "f.py")
	before.state["lock"] = "" // the workspace's, made by the first change
	ok, text := exactCall(t, e, "Edit", map[string]any{"file_path": "f.py", "old_string": "return", "new_string": "yield", "expected_replacements": 3})
	want := "Wrong number of occurrences: Expected 3 occurrences but found 2, at lines 3 and 4. Set expected_replacements to 2 if all of them are meant, or include more surrounding context in old_string to match only the ones you mean"
	if ok || text != want {
		t.Fatalf("expected_replacements mismatch: ok %v\n%s\nwant\n%s", ok, text, want)
	}
	if d := before.diff(snapshotRepo(t, dir, "f.py")); d != "" {
		t.Fatalf("the refused Edit changed:\n%s", d)
	}
	ok, text = exactCall(t, e, "Edit", map[string]any{"file_path": "f.py", "old_string": "return", "new_string": "yield", "expected_replacements": 2})
	if !ok || !strings.HasPrefix(text, "Replaced 2 occurrences in f.py, the first at line 3.") {
		t.Fatalf("expected_replacements 2: ok %v\n%s", ok, text)
	}
	if got, want := gittest.ReadFile(t, dir, "f.py"), "def f(x):\n    if x:\n        yield 1\n    yield 2\n"; got != want {
		t.Errorf("f.py = %q, want %q", got, want)
	}
	gittest.Fsck(t, dir)
}
