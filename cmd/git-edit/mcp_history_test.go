package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// callMeta calls a tool with the request's _meta set, and returns its
// text, its structured result decoded, and whether it was a tool error.
func callMeta(t *testing.T, cs *mcp.ClientSession, name string, args any, meta mcp.Meta) (string, map[string]any, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Meta: meta, Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v", name, err)
	}
	var text string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += tc.Text
		}
	}
	var obj map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &obj)
	return text, obj, res.IsError
}

// Issue 16, "Done when", over MCP through the SDK's client: the turn comes
// from the request's _meta or the tool's "turn" argument and is recorded
// as Edit-Turn; every history tool's dry_run changes nothing (the bytes of
// every file, git status and the session ref are as they were) and
// answers with the very diff the real call then applies; refusals are
// tool errors that say what to do.
func TestMCPHistoryToolsDryRunThenReal(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a1\n\n\na2\n\n\na3\n", "b.txt": "b\n"})
	cs := connect(t, dir, "s", nil, nil)
	edit := func(old, new string, meta mcp.Meta, args map[string]any) {
		t.Helper()
		a := map[string]any{"command": "str_replace", "path": "a.txt", "old_str": old, "new_str": new}
		for k, v := range args {
			a[k] = v
		}
		if text, _, isErr := callMeta(t, cs, "text_editor", a, meta); isErr {
			t.Fatalf("edit %s: %s", old, text)
		}
	}
	edit("a1", "A1", mcp.Meta{"git-edit/turn": "1"}, nil)
	if text, _, isErr := callMeta(t, cs, "edit_checkpoint", map[string]any{"name": "after-1"}, nil); isErr {
		t.Fatal(text)
	}
	edit("a2", "A2", nil, map[string]any{"turn": "2"})
	if text, _, isErr := callMeta(t, cs, "edit_lines", map[string]any{"path": "b.txt", "operations": []any{map[string]any{"op": "insert", "afterLine": 1, "content": []string{"b2"}}}}, mcp.Meta{"git-edit/turn": "2"}); isErr {
		t.Fatal(text)
	}
	// The argument wins over _meta.
	edit("a3", "A3", mcp.Meta{"git-edit/turn": "2"}, map[string]any{"turn": "3"})
	turns := gittest.Git(t, dir, "log", "--format=%(trailers:key=Edit-Op,valueonly,separator=)%(trailers:key=Edit-Turn,valueonly,separator=)", "HEAD..refs/edits/s")
	if want := "edit3\nedit2\nedit2\ncheckpoint\nedit1\n"; turns != want {
		t.Fatalf("ops and turns %q, want %q", turns, want)
	}

	steps := []struct {
		tool  string
		args  map[string]any
		files map[string]string // after the real call
	}{
		{"edit_undo", map[string]any{"turn": "2"}, map[string]string{"a.txt": "A1\n\n\na2\n\n\nA3\n", "b.txt": "b\n"}},
		{"edit_redo", map[string]any{}, map[string]string{"a.txt": "A1\n\n\nA2\n\n\nA3\n", "b.txt": "b\nb2\n"}},
		// The redo is a.txt's last change in effect: undo takes it back.
		{"edit_undo", map[string]any{"path": "a.txt"}, map[string]string{"a.txt": "A1\n\n\na2\n\n\nA3\n", "b.txt": "b\nb2\n"}},
		{"edit_rollback", map[string]any{"to": "after-1"}, map[string]string{"a.txt": "A1\n\n\na2\n\n\na3\n", "b.txt": "b\n"}},
		{"edit_rollback", map[string]any{"to": "turn:2"}, map[string]string{"a.txt": "A1\n\n\nA2\n\n\na3\n", "b.txt": "b\nb2\n"}},
		{"edit_checkpoint", map[string]any{"name": "end"}, nil},
	}
	first := strings.Fields(gittest.Git(t, dir, "rev-list", "--reverse", "HEAD..refs/edits/s"))[0]
	steps = append(steps, struct {
		tool  string
		args  map[string]any
		files map[string]string
	}{"edit_undo", map[string]any{"edit": first[:10]}, map[string]string{"a.txt": "a1\n\n\nA2\n\n\na3\n", "b.txt": "b\nb2\n"}})
	for _, st := range steps {
		tip, status := tipOf(t, dir), gittest.Status(t, dir)
		snap := map[string]string{"a.txt": gittest.ReadFile(t, dir, "a.txt"), "b.txt": gittest.ReadFile(t, dir, "b.txt")}
		dryArgs := map[string]any{"dry_run": true}
		for k, v := range st.args {
			dryArgs[k] = v
		}
		text, dry, isErr := callMeta(t, cs, st.tool, dryArgs, nil)
		if isErr || dry["dry_run"] != true {
			t.Fatalf("%s %v dry run: %s", st.tool, st.args, text)
		}
		if tipOf(t, dir) != tip || gittest.Status(t, dir) != status {
			t.Fatalf("%s %v: the dry run moved the ref or changed git status", st.tool, st.args)
		}
		for p, b := range snap {
			if gittest.ReadFile(t, dir, p) != b {
				t.Fatalf("%s %v: the dry run changed %s", st.tool, st.args, p)
			}
		}
		if _, ok := dry["commit"]; ok {
			t.Fatalf("%s: a dry run names a commit: %v", st.tool, dry)
		}
		text, real, isErr := callMeta(t, cs, st.tool, st.args, nil)
		if isErr {
			t.Fatalf("%s %v: %s", st.tool, st.args, text)
		}
		if real["commit"] != tipOf(t, dir) || tipOf(t, dir) == tip {
			t.Fatalf("%s %v: commit %v, ref at %s", st.tool, st.args, real["commit"], tipOf(t, dir))
		}
		if dry["diff"] != real["diff"] {
			t.Fatalf("%s %v: the dry run's diff\n%v\nis not the one applied\n%v", st.tool, st.args, dry["diff"], real["diff"])
		}
		if st.files == nil {
			if real["diff"] != nil && real["diff"] != "" {
				t.Fatalf("%s: diff %v", st.tool, real["diff"])
			}
		}
		for p, want := range st.files {
			if got := gittest.ReadFile(t, dir, p); got != want {
				t.Fatalf("%s %v: %s = %q, want %q", st.tool, st.args, p, got, want)
			}
		}
		// The diff applied is git's view of the commit: each path's
		// change between the ref before and after, applied to the old
		// bytes, gives the new ones (checked above); and the commit's
		// tree holds what is on disk.
		for p := range st.files {
			if got := gittest.Git(t, dir, "show", "refs/edits/s:"+p); got != gittest.ReadFile(t, dir, p) {
				t.Fatalf("%s: the commit records %s as %q", st.tool, p, got)
			}
		}
	}
	gittest.Fsck(t, dir)

	// Refusals are tool errors that say what to do, and change nothing.
	tip := tipOf(t, dir)
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"edit_undo", map[string]any{"turn": "9"}, "no such edit: session \"s\" has no edit of turn 9; `git edit log --session s` shows the turns"},
		{"edit_undo", map[string]any{"turn": "1", "path": "a.txt"}, `invalid arguments: give one of "edit", "path" or "turn", not "path" and "turn" together: each names what to undo`},
		{"edit_rollback", map[string]any{"to": "checkpoint:nope", "dry_run": true}, "no such edit \"checkpoint:nope\" in session \"s\"; give a checkpoint's name, as `git edit log --session s` shows them"},
		{"edit_checkpoint", map[string]any{"name": "end"}, "checkpoint exists: session \"s\" has a checkpoint named end already ("},
		{"text_editor", map[string]any{"command": "str_replace", "path": "a.txt", "old_str": "A1", "new_str": "x", "turn": 7}, `"turn" must be a string, got 7`},
	} {
		text, _, isErr := callMeta(t, cs, c.tool, c.args, nil)
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("%s %v: error %v, %q; want %q", c.tool, c.args, isErr, text, c.want)
		}
	}
	if text, _, isErr := callMeta(t, cs, "text_editor", map[string]any{"command": "view", "path": "a.txt"}, mcp.Meta{"git-edit/turn": "bad\nturn"}); !isErr || !strings.Contains(text, `turn "bad\nturn" holds a control character`) {
		t.Errorf("a bad _meta turn: %v %q", isErr, text)
	}
	if tipOf(t, dir) != tip {
		t.Fatal("a refusal moved the ref")
	}
}
