package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

// `git edit sessions` lists the files on which two or more sessions'
// changes are in effect, and --json says the same per session; a session
// whose change was undone is left out.
func TestSessionsShowsSharedFiles(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "one\ntwo\nthree\n", "b.txt": "x\n", "c.txt": "c\n"})
	edit := func(session, path, old, new string) {
		t.Helper()
		args, _ := json.Marshal(map[string]any{"command": "str_replace", "path": path, "old_str": old, "new_str": new})
		if r := gitEdit(t, dir, string(args), nil, "call", "--session", session, "text_editor"); r.code != 0 {
			t.Fatalf("%s: %s %s", session, r.stdout, r.stderr)
		}
	}
	edit("s1", "a.txt", "one", "ONE")
	edit("s2", "a.txt", "three", "THREE")
	edit("s2", "b.txt", "x", "X")
	edit("s3", "b.txt", "X", "XX")
	edit("s4", "c.txt", "c", "C")
	edit("s5", "c.txt", "C", "CC")
	if r := gitEdit(t, dir, "", nil, "undo", "--session", "s5", "c.txt"); r.code != 0 {
		t.Fatalf("undo: %s %s", r.stdout, r.stderr)
	}
	r := gitEdit(t, dir, "", nil, "sessions")
	lines := regexp.MustCompile(`(?m)^shared: .*$`).FindAllString(r.stdout, -1)
	if r.code != 0 || strings.Join(lines, "\n") != "shared: a.txt (s1, s2)\nshared: b.txt (s2, s3)" || !strings.HasSuffix(r.stdout, "shared: b.txt (s2, s3)\n") {
		t.Fatalf("sessions:\n%s%s", r.stdout, r.stderr)
	}
	r = gitEdit(t, dir, "", nil, "sessions", "--json")
	var list []struct {
		Session string       `json:"session"`
		Shared  []sharedJSON `json:"shared"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil {
		t.Fatal(err, r.stdout)
	}
	got := map[string]string{}
	for _, s := range list {
		b, _ := json.Marshal(s.Shared)
		got[s.Session] = string(b)
	}
	want := map[string]string{
		"s1": `[{"path":"a.txt","sessions":["s1","s2"]}]`,
		"s2": `[{"path":"a.txt","sessions":["s1","s2"]},{"path":"b.txt","sessions":["s2","s3"]}]`,
		"s3": `[{"path":"b.txt","sessions":["s2","s3"]}]`,
		"s4": `null`, "s5": `null`,
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: shared %s, want %s", k, got[k], v)
		}
	}
}

// Through the MCP server with the SDK's client: every writing tool lists
// dry_run; a dry run is a success that changes no byte, no ref and no
// object and carries the diff, in its text and its structured result,
// that the same call without dry_run then records.
func TestMCPDryRun(t *testing.T) {
	for _, tool := range ops.Registry() {
		if tool.WriteCall == nil {
			continue
		}
		t.Run(tool.Name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "alpha\nworld\nomega\n"})
			gittest.Git(t, dir, "config", "edit.requireRead", "false")
			cs := connect(t, dir, "s", nil, nil)
			list, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, lt := range list.Tools {
				if lt.Name != tool.Name {
					continue
				}
				b, _ := json.Marshal(lt.InputSchema)
				if !strings.Contains(string(b), `"dry_run":{"default":false,`) {
					t.Fatalf("no dry_run in the schema the client sees: %s", b)
				}
			}
			args := tool.WriteCall("a.txt", "world", "earth")
			dryArgs := map[string]any{"dry_run": true}
			for k, v := range args {
				dryArgs[k] = v
			}
			refs := gittest.Git(t, dir, "for-each-ref")
			objects := gittest.Git(t, dir, "count-objects", "-v")
			text, structured, isError := callTool(t, cs, tool.Name, dryArgs)
			if isError {
				t.Fatalf("dry run refused: %s", text)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "alpha\nworld\nomega\n" {
				t.Fatalf("the dry run wrote %q", b)
			}
			if gittest.Git(t, dir, "for-each-ref") != refs || gittest.Git(t, dir, "count-objects", "-v") != objects {
				t.Fatal("the dry run moved a ref or wrote an object")
			}
			var v struct {
				DryRun bool   `json:"dry_run"`
				Diff   string `json:"diff"`
			}
			if err := json.Unmarshal([]byte(structured), &v); err != nil || !v.DryRun || v.Diff == "" {
				t.Fatalf("structured: %s (%v)", structured, err)
			}
			if !strings.Contains(text, v.Diff) && !strings.Contains(text, `"diff":`) {
				t.Fatalf("text without the diff:\n%s", text)
			}
			if text, _, isError := callTool(t, cs, tool.Name, args); isError {
				t.Fatalf("call refused: %s", text)
			}
			commit := gittest.Rev(t, dir, "refs/edits/s")
			_, shown, _ := callTool(t, cs, "edit_history", map[string]any{"commit": commit})
			var got struct {
				Entry struct {
					Diff string `json:"diff"`
				} `json:"entry"`
			}
			json.Unmarshal([]byte(shown), &got)
			if got.Entry.Diff != v.Diff {
				t.Fatalf("dry run diff:\n%s\nrecorded:\n%s", v.Diff, shown)
			}
		})
	}
}
