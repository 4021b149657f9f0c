package ops_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

// Refusals that need files too large or too special for the JSON goldens.
// Each states the exact message and that neither the files nor the session
// ref changed.
func TestRefusalsOnLargeAndSpecialFiles(t *testing.T) {
	big := strings.Repeat("0123456789abcdef\n", 25_000) // 425,000 bytes, 25,000 lines
	cases := []struct {
		name  string
		tool  string // text_editor unless set
		setup func(t *testing.T, dir string)
		args  map[string]any
		want  string // exact message; <repo> stands for the repository
	}{
		{
			name: "whole-file view over 400 KiB",
			args: map[string]any{"command": "view", "path": "big.txt"},
			want: `too large: big.txt is 425,000 bytes, more than the 409,600-byte (400 KiB) limit for viewing a whole file; view part of it with "view_range": [start, end] (it has 25,000 lines)`,
		},
		{
			name: "write over 400,000 characters",
			args: map[string]any{"command": "write", "path": "new.txt", "file_text": strings.Repeat("é", 400_001)},
			want: `too large: "file_text" has 400,001 characters, more than the limit of 400,000; write a smaller file, or write the first part and add the rest with "insert"`,
		},
		{
			name:  "file over edit.maxFileSize",
			setup: func(t *testing.T, dir string) { gittest.Git(t, dir, "config", "edit.maxFileSize", "1k") },
			args:  map[string]any{"command": "str_replace", "path": "big.txt", "old_str": "0123", "new_str": "x"},
			want:  "file too large: big.txt is 425000 bytes, over the limit of 1024 bytes; raise it with `git config edit.maxFileSize 64m` if the file should be edited",
		},
		{
			name:  "FIFO",
			setup: func(t *testing.T, dir string) { mkfifo(t, filepath.Join(dir, "pipe"), 0o644) },
			args:  map[string]any{"command": "view", "path": "pipe"},
			want:  "not a regular file: pipe is a FIFO; only regular files can be viewed or edited",
		},
		{
			name:  "read-only file",
			setup: func(t *testing.T, dir string) { must(t, os.Chmod(filepath.Join(dir, "small.txt"), 0o444)) },
			args:  map[string]any{"command": "str_replace", "path": "small.txt", "old_str": "small", "new_str": "tiny"},
			want:  "permission denied: small.txt is read-only; make it writable (chmod u+w) if it should be edited",
		},
		{
			name:  "edit_lines on a read-only file, in the seed's words",
			tool:  "edit_lines",
			setup: func(t *testing.T, dir string) { must(t, os.Chmod(filepath.Join(dir, "small.txt"), 0o444)) },
			args:  map[string]any{"path": "small.txt", "operations": []any{map[string]any{"op": "delete", "startLine": 1, "endLine": 1}}},
			want:  "permission denied: small.txt",
		},
		{
			name:  "edit on a read-only file",
			tool:  "edit",
			setup: func(t *testing.T, dir string) { must(t, os.Chmod(filepath.Join(dir, "small.txt"), 0o444)) },
			args:  map[string]any{"command": "insert", "arguments": map[string]any{"file_path": "small.txt", "content": "x", "position": map[string]any{"offset": 0}}},
			want:  "permission denied: small.txt is read-only; make it writable (chmod u+w) if it should be edited",
		},
		{
			name: "symlink out of the root",
			setup: func(t *testing.T, dir string) {
				must(t, os.Symlink(os.TempDir(), filepath.Join(dir, "tmp-link")))
			},
			args: map[string]any{"command": "write", "path": "tmp-link/x.txt", "file_text": "x"},
			want: "path refused: tmp-link/x.txt resolves to " + filepath.Join(realTemp(t), "x.txt") + ", outside the root <repo>; edit only files inside it (or pass --root)",
		},
		{
			name: "bad git config value",
			setup: func(t *testing.T, dir string) {
				gittest.Git(t, dir, "config", "edit.undoDepth", "lots")
			},
			args: map[string]any{"command": "view", "path": "small.txt"},
			want: "invalid git config value: edit.undoDepth = \"lots\"; set a whole number ≥ 0 (suffixes k, m, g allowed) with `git config edit.undoDepth N`",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"big.txt": big, "small.txt": "small\n"})
			// One successful edit first, so that a session ref exists to stay put.
			call(t, dir, map[string]any{"command": "create", "path": "seed.txt", "file_text": "seed\n"})
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			tip := gittest.Rev(t, dir, "refs/edits/s")
			before := gittest.Status(t, dir)
			tool := tc.tool
			if tool == "" {
				tool = "text_editor"
			}
			res := callTool(t, dir, tool, tc.args)
			status, msg := fields(t, res)
			if res.OK || status != "error" {
				t.Fatalf("call succeeded: %v", res.Value)
			}
			if got := strings.ReplaceAll(msg, dir, "<repo>"); got != tc.want {
				t.Fatalf("message\n%s\nwant\n%s", got, tc.want)
			}
			if gittest.Rev(t, dir, "refs/edits/s") != tip || gittest.Status(t, dir) != before {
				t.Fatal("refused call changed the ref or the worktree")
			}
			if gittest.ReadFile(t, dir, "big.txt") != big || gittest.ReadFile(t, dir, "small.txt") != "small\n" {
				t.Fatal("refused call changed a file")
			}
		})
	}
}

// The view limit is on whole-file views: a range of a large file is shown.
func TestViewRangeOfLargeFile(t *testing.T) {
	big := strings.Repeat("0123456789abcdef\n", 25_000)
	dir := gittest.NewWithCommit(t, map[string]string{"big.txt": big})
	res := call(t, dir, map[string]any{"command": "view", "path": "big.txt", "view_range": []int{24_999, -1}})
	out, _ := json.Marshal(res.Value)
	want := `{"status":"success","message":"Here are lines 24999 to 25000 of big.txt (25000 lines):","content":"` + "```text\\n0123456789abcdef\\n0123456789abcdef\\n```" + `"}`
	if !res.OK || string(out) != want {
		t.Fatalf("got  %s\nwant %s", out, want)
	}
}

func call(t *testing.T, dir string, args map[string]any) ops.Result {
	t.Helper()
	return callTool(t, dir, "text_editor", args)
}

func callTool(t *testing.T, dir, tool string, args map[string]any) ops.Result {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ops.Call(context.Background(), ops.Options{Root: dir, Session: "s"}, tool, raw)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// fields returns a result's status and message as a client reads them.
func fields(t *testing.T, res ops.Result) (status, message string) {
	t.Helper()
	raw, err := json.Marshal(res.Value)
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ Status, Message, Error string }
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	if v.Error != "" { // edit_lines' {"error": …}
		return "error", v.Error
	}
	return v.Status, v.Message
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func realTemp(t *testing.T) string {
	t.Helper()
	p, err := filepath.EvalSymlinks(os.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return p
}
