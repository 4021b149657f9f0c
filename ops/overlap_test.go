package ops_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

func sessionEngine(t testing.TB, dir, name string) *ops.Engine {
	t.Helper()
	e, err := ops.Open(ops.Options{Root: dir, Session: name})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func replace(t testing.TB, e *ops.Engine, path, old, new string) ops.Result {
	t.Helper()
	raw, _ := json.Marshal(map[string]any{"command": "str_replace", "path": path, "old_str": old, "new_str": new})
	res, err := e.Call(context.Background(), "text_editor", raw)
	if err != nil || !res.OK {
		t.Fatalf("str_replace %s: %v %s", old, err, res.Text)
	}
	return res
}

// overlapsOf is the "overlaps" of a result object.
func overlapsOf(t *testing.T, res ops.Result) string {
	t.Helper()
	b, _ := json.Marshal(res.Value)
	var v struct {
		Overlaps json.RawMessage `json:"overlaps"`
	}
	json.Unmarshal(b, &v)
	return string(v.Overlaps)
}

func short(t *testing.T, dir, rev string) string {
	return gittest.Rev(t, dir, rev)[:7]
}

// Two sessions edit one file: each edit after the other session's says
// so, in the text an agent reads and in the result object, naming the
// session and its last edit; the first edit, alone, says nothing.
func TestOverlapNoteOnBothSessions(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "one\ntwo\nthree\n"})
	s1, s2 := sessionEngine(t, dir, "s1"), sessionEngine(t, dir, "s2")

	res := replace(t, s1, "a.txt", "one", "ONE")
	if strings.Contains(res.Text, "Note: session") || overlapsOf(t, res) != "" {
		t.Fatalf("a file no other session changed: %s", res.Text)
	}

	res = replace(t, s2, "a.txt", "three", "THREE")
	e1 := short(t, dir, "refs/edits/s1")
	want := fmt.Sprintf("The file a.txt has been edited: old_str replaced at line 3.\n@@ -1,3 +1,3 @@\n ONE\n two\n-three\n+THREE\n\nNote: session s1 also changed a.txt (its last edit %s), and that change is still in effect; see it with `git edit show --session s1 %s`.", e1, e1)
	if res.Text != want {
		t.Fatalf("s2's text:\n%s\nwant:\n%s", res.Text, want)
	}
	if got := overlapsOf(t, res); got != fmt.Sprintf(`[{"session":"s1","path":"a.txt","edit":"%s"}]`, e1) {
		t.Fatalf("s2's overlaps: %s", got)
	}

	res = replace(t, s1, "a.txt", "two", "TWO")
	e2 := short(t, dir, "refs/edits/s2")
	if !strings.HasSuffix(res.Text, fmt.Sprintf("\nNote: session s2 also changed a.txt (its last edit %s), and that change is still in effect; see it with `git edit show --session s2 %s`.", e2, e2)) {
		t.Fatalf("s1's text:\n%s", res.Text)
	}
	// A dialect whose text is its result object gets the field only.
	raw := []byte(`{"path": "a.txt", "operations": [{"op": "replace", "startLine": 1, "endLine": 1, "content": ["1"]}]}`)
	res, err := s2.Call(context.Background(), "edit_lines", raw)
	if err != nil || !res.OK {
		t.Fatal(err, res.Text)
	}
	e1 = short(t, dir, "refs/edits/s1")
	if !strings.HasSuffix(res.Text, fmt.Sprintf(`,"overlaps":[{"session":"s1","path":"a.txt","edit":"%s"}]}`, e1)) || !json.Valid([]byte(res.Text)) {
		t.Fatalf("edit_lines text: %s", res.Text)
	}
	gittest.Fsck(t, dir)
}

// A session whose change to the file was undone, or rolled back, has no
// change there in effect: no note names it, and sessions does not list
// the file as shared. That holds too when the undone session's tip still
// differs from its base there (it recorded the other session's bytes in a
// sync commit before its own edit).
func TestOverlapNotAfterUndoOrRollback(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "one\ntwo\nthree\n", "b.txt": "x\ny\n"})
	s1, s2, s3 := sessionEngine(t, dir, "s1"), sessionEngine(t, dir, "s2"), sessionEngine(t, dir, "s3")
	ctx := context.Background()

	replace(t, s1, "a.txt", "one", "ONE")
	replace(t, s2, "a.txt", "three", "THREE") // a sync of s1's line, then s2's edit
	if _, err := s2.Undo(ctx, "a.txt", false); err != nil {
		t.Fatal(err)
	}
	replace(t, s3, "b.txt", "x", "X")
	if _, err := s3.Rollback(ctx, "", false); err != nil {
		t.Fatal(err)
	}
	if gittest.ReadFile(t, dir, "b.txt") != "x\ny\n" {
		t.Fatal("rollback did not restore b.txt")
	}

	if res := replace(t, s1, "a.txt", "two", "TWO"); overlapsOf(t, res) != "" || strings.Contains(res.Text, "Note: session") {
		t.Fatalf("undone s2 still noted:\n%s", res.Text)
	}
	if res := replace(t, s1, "b.txt", "y", "Y"); overlapsOf(t, res) != "" || strings.Contains(res.Text, "Note: session") {
		t.Fatalf("rolled back s3 still noted:\n%s", res.Text)
	}
}
