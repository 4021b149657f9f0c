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

// hostileRepo is a repository with every kind of path an agent should not
// be able to write through, and files of awkward content.
func hostileRepo(t *testing.T) string {
	t.Helper()
	dir := gittest.NewWithCommit(t, map[string]string{
		"ok.txt": "fine\n", "readonly.txt": "ro\n", "noread.txt": "secret\n",
		"bin.dat": "head\x00\x01\x02binary\n", "empty.txt": "", "mixed.txt": "a\r\nb\nc\r\n",
		"invalid.txt": "caf\xe9 latin-1\n", "big.txt": strings.Repeat("x", 2048) + "\n",
		"dir/inside.txt": "in\n",
	})
	gittest.Git(t, dir, "config", "edit.maxFileSize", "1k")
	gittest.Git(t, dir, "config", "edit.requireRead", "false")
	must(t, os.Chmod(filepath.Join(dir, "readonly.txt"), 0o444))
	must(t, os.Chmod(filepath.Join(dir, "noread.txt"), 0o000))
	must(t, os.Symlink(t.TempDir(), filepath.Join(dir, "out")))
	must(t, os.Symlink("/etc/passwd", filepath.Join(dir, "passwd")))
	must(t, os.Symlink("loop", filepath.Join(dir, "loop")))
	mkfifo(t, filepath.Join(dir, "fifo"), 0o644)
	// A character device inside the worktree (1,3 is what /dev/null is).
	if err := mknodNull(filepath.Join(dir, "device")); err != nil {
		t.Logf("no device node (%v); that case is skipped", err)
	}
	return dir
}

// writers are one writing call per writing tool of the registry for a
// path ("root" is text /etc/passwd holds, for tools that replace text).
func writers(t *testing.T, path string) map[string]any {
	out := map[string]any{}
	for _, tool := range ops.Registry() {
		if tool.WriteCall != nil {
			out[tool.Name] = tool.WriteCall(path, "root", "pwned")
		}
	}
	if len(out) == 0 {
		t.Fatal("the registry has no writing tool")
	}
	return out
}

// refusedAlone asserts a call was refused with a message containing want,
// and that no file, ref or status changed.
func refusedAlone(t *testing.T, dir, tool string, args any, want ...string) {
	t.Helper()
	raw, _ := json.Marshal(args)
	status := gittest.Status(t, dir)
	refs := gittest.Git(t, dir, "for-each-ref", "refs/edits/")
	res, err := ops.Call(context.Background(), ops.Options{Root: dir, Session: "s"}, tool, raw)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	out, _ := json.Marshal(res.Value)
	if res.OK {
		t.Fatalf("%s %s: accepted: %s", tool, raw, out)
	}
	for _, w := range want {
		if !strings.Contains(string(out), w) {
			t.Errorf("%s %s: the refusal does not say %q: %s", tool, raw, w, out)
		}
	}
	if gittest.Status(t, dir) != status || gittest.Git(t, dir, "for-each-ref", "refs/edits/") != refs {
		t.Fatalf("%s %s: a refused call changed the worktree or a ref", tool, raw)
	}
}

func TestHostilePathsAreRefusedEverywhere(t *testing.T) {
	dir := hostileRepo(t)
	passwd, _ := os.ReadFile("/etc/passwd")
	cases := []struct {
		path   string
		reason string
	}{
		{"../escape.txt", "outside the root"},
		{"dir/../../escape.txt", "outside the root"},
		{"/etc/passwd", "outside the root"},
		{"/tmp/git-edit-hostile.txt", "outside the root"},
		{"out/planted.txt", "outside the root"},
		{"passwd", "outside the root"},
		{"loop", "cannot resolve its symlinks"},
		{".git/config", "inside the git directory"},
		{".git/hooks/pre-commit", "inside the git directory"},
		{".git/refs/heads/main", "inside the git directory"},
		{"dir/.git/x", "inside a .git directory"},
		{".GIT/config", "git"},
		{"fifo", "is a FIFO"},
		{"dir", "is a directory"},
		{"readonly.txt", "read-only"},
		{"noread.txt", "not readable"},
	}
	if _, err := os.Stat(filepath.Join(dir, "device")); err == nil {
		cases = append(cases, struct{ path, reason string }{"device", "is a device"})
	}
	for _, tc := range cases {
		for tool, args := range writers(t, tc.path) {
			if tool == "edit_lines" && (tc.reason == "is a directory" || tc.reason == "read-only" || tc.reason == "not readable") {
				// edit_lines words these as the seed does.
				want := map[string]string{"is a directory": "path is a directory: " + tc.path, "read-only": "permission denied: " + tc.path, "not readable": "permission denied: " + tc.path}
				refusedAlone(t, dir, tool, args, want[tc.reason])
				continue
			}
			refusedAlone(t, dir, tool, args, tc.path, tc.reason)
		}
	}
	if now, _ := os.ReadFile("/etc/passwd"); string(now) != string(passwd) {
		t.Fatal("/etc/passwd changed")
	}
	if _, err := os.Stat("/tmp/git-edit-hostile.txt"); !os.IsNotExist(err) {
		t.Fatal("a file was written outside the root")
	}
	gittest.Fsck(t, dir)
}

func TestAwkwardContent(t *testing.T) {
	dir := hostileRepo(t)
	call := func(tool string, args any) (bool, string) {
		raw, _ := json.Marshal(args)
		res, err := ops.Call(context.Background(), ops.Options{Root: dir, Session: "s"}, tool, raw)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(res.Value)
		return res.OK, string(out)
	}
	// Binary: text tools refuse, naming the file; write replaces it whole,
	// and undo brings the exact bytes back.
	refusedAlone(t, dir, "text_editor", map[string]any{"command": "str_replace", "path": "bin.dat", "old_str": "head", "new_str": "x"}, "bin.dat contains NUL bytes")
	refusedAlone(t, dir, "Read", map[string]any{"file_path": "bin.dat"}, "bin.dat contains NUL bytes")
	refusedAlone(t, dir, "code_edit", map[string]any{"file_path": "bin.dat", "search": "head\n", "replace": "x\n"}, "bin.dat contains NUL bytes")
	if ok, out := call("text_editor", map[string]any{"command": "write", "path": "bin.dat", "file_text": "text now\n"}); !ok {
		t.Fatal(out)
	}
	if ok, out := call("text_editor", map[string]any{"command": "undo_edit", "path": "bin.dat"}); !ok || gittest.ReadFile(t, dir, "bin.dat") != "head\x00\x01\x02binary\n" {
		t.Fatalf("undo of a write over a binary file: %s %q", out, gittest.ReadFile(t, dir, "bin.dat"))
	}
	// Invalid UTF-8 is edited as bytes; the bytes outside the edit stay.
	if ok, out := call("Edit", map[string]any{"file_path": "invalid.txt", "old_string": "latin-1", "new_string": "bytes"}); !ok || gittest.ReadFile(t, dir, "invalid.txt") != "caf\xe9 bytes\n" {
		t.Fatalf("invalid UTF-8: %s %q", out, gittest.ReadFile(t, dir, "invalid.txt"))
	}
	// Mixed line endings: untouched lines keep theirs; new lines take the
	// majority's (CRLF here).
	if ok, out := call("edit_lines", map[string]any{"path": "mixed.txt", "operations": []any{map[string]any{"op": "insert", "afterLine": 1, "content": []string{"new"}}}}); !ok || gittest.ReadFile(t, dir, "mixed.txt") != "a\r\nnew\r\nb\nc\r\n" {
		t.Fatalf("mixed line endings: %s %q", out, gittest.ReadFile(t, dir, "mixed.txt"))
	}
	// Empty files.
	if ok, out := call("text_editor", map[string]any{"command": "view", "path": "empty.txt"}); !ok || !strings.Contains(out, "(0 lines)") {
		t.Fatalf("view of an empty file: %s", out)
	}
	if ok, out := call("code_edit", map[string]any{"file_path": "empty.txt", "search": "", "replace": "first\n"}); !ok || gittest.ReadFile(t, dir, "empty.txt") != "first\n" {
		t.Fatalf("append to an empty file: %s", out)
	}
	// Over edit.maxFileSize (1k here): refused, naming the limit.
	for tool, args := range writers(t, "big.txt") {
		if tool == "text_editor" {
			args = map[string]any{"command": "str_replace", "path": "big.txt", "old_str": "x", "new_str": "y"}
		}
		refusedAlone(t, dir, tool, args, "over the limit of 1024 bytes")
	}
	gittest.Fsck(t, dir)
}

func TestBadArgumentsNeverPanicNorWrite(t *testing.T) {
	dir := hostileRepo(t)
	deep := strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)
	huge := `{"command":"write","path":"ok.txt","file_text":"` + strings.Repeat("a", 100<<20) + `"}`
	inputs := []struct{ name, raw, want string }{
		{"invalid JSON", `{"path": `, "not valid JSON"},
		{"not an object", `"ok.txt"`, "must be a JSON object"},
		{"unknown field", `{"zzz_unknown": 1}`, "unknown field"},
		{"deeply nested", `{"path": ` + deep + `}`, ""},
		{"100 MB", huge, "over git-edit's limit"},
		{"empty", ``, ""},
		{"huge number", `{"path": 1e400}`, ""},
	}
	for _, tool := range ops.Tools() {
		for _, in := range inputs {
			t.Run(tool+"/"+in.name, func(t *testing.T) {
				status := gittest.Status(t, dir)
				res, err := ops.Call(context.Background(), ops.Options{Root: dir, Session: "s"}, tool, []byte(in.raw))
				if err != nil {
					t.Fatal(err)
				}
				out, _ := json.Marshal(res.Value)
				if tool == "edit_checkpoint" && in.name == "empty" {
					// No arguments is an unnamed checkpoint: a commit
					// that changes no file.
					if !res.OK || gittest.Status(t, dir) != status || gittest.Rev(t, dir, "refs/edits/s") == "" {
						t.Fatalf("an unnamed checkpoint: %s", out)
					}
					gittest.Git(t, dir, "update-ref", "-d", "refs/edits/s")
					return
				}
				if res.OK && tool != "edit_history" {
					t.Fatalf("accepted: %.300s", out)
				}
				if !res.OK && !strings.Contains(string(out), in.want) {
					t.Fatalf("refusal %.300s does not say %q", out, in.want)
				}
				if gittest.Status(t, dir) != status || gittest.Rev(t, dir, "refs/edits/s") != "" {
					t.Fatal("a refused call changed something")
				}
			})
		}
	}
	// Wrong types, missing fields and huge or negative numbers per dialect
	// are covered field by field by each dialect's own tests and goldens;
	// here, one of each through the engine.
	for _, c := range []struct{ tool, raw, want string }{
		{"text_editor", `{"command":"insert","path":"ok.txt","insert_line":-5,"new_str":"x"}`, `insert_line -5 is outside ok.txt`},
		{"edit", `{"command":"insert","arguments":{"file_path":"ok.txt","content":"x","position":{"offset":99999999999999999999}}}`, "too large to be an offset"},
		{"edit_lines", `{"path":"ok.txt","operations":[{"op":"delete","startLine":"1","endLine":1}]}`, "must be a whole number"},
		{"Edit", `{"file_path":"ok.txt","old_string":"fine"}`, `Edit needs "new_string"`},
		{"Read", `{"file_path":"ok.txt","offset":-1}`, `"offset" is -1`},
		{"code_edit", `{"file_path":"ok.txt","search":1,"replace":"x"}`, `"search" must be a string`},
	} {
		status := gittest.Status(t, dir)
		res, _ := ops.Call(context.Background(), ops.Options{Root: dir, Session: "s"}, c.tool, []byte(c.raw))
		out, _ := json.Marshal(res.Value)
		want, _ := json.Marshal(c.want) // the message as it appears inside the JSON result
		if res.OK || !strings.Contains(string(out), string(want[1:len(want)-1])) || gittest.Status(t, dir) != status {
			t.Errorf("%s %s: %s (want a refusal saying %q)", c.tool, c.raw, out, c.want)
		}
	}
}
