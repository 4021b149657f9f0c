package ops_test

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// Review of issue 12's refactor: refusals that must read as they did
// before the dialects moved behind the Workspace, and apply_patch's safety
// promises where a path is not what it seems.

// noSession fails unless the session ref is absent: a refused call
// records nothing.
func noSession(t *testing.T, dir string) {
	t.Helper()
	if out, err := gittest.GitErr(dir, "rev-parse", "--verify", "-q", "refs/edits/s"); err == nil {
		t.Fatalf("a refused call recorded refs/edits/s = %s", out)
	}
}

// workFiles is snapshotDir of the worktree without the git directory,
// which a call may touch (its lock, objects) without changing a file.
func workFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := snapshotDir(t, dir)
	for rel := range files {
		if strings.HasPrefix(rel, ".git"+string(filepath.Separator)) {
			delete(files, rel)
		}
	}
	return files
}

// resultJSON is a result's value as a client reads it.
func resultJSON(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// TestAttackApplyPatchNeverDeletesThroughASymlink: a patch that deletes or
// moves away a path that is a symlink names the link, not the file it
// points to. Deleting the target instead (while the summary says "D l")
// would remove a file the patch never named and leave the link dangling;
// it is refused, and nothing on disk or in git changes.
func TestAttackApplyPatchNeverDeletesThroughASymlink(t *testing.T) {
	for _, tc := range []struct{ name, patch string }{
		{"delete", "*** Begin Patch\n*** Delete File: l\n*** End Patch"},
		{"delete by absolute path", "*** Begin Patch\n*** Delete File: ABS/l\n*** End Patch"},
		{"move", "*** Begin Patch\n*** Update File: l\n*** Move to: m.txt\n@@\n-one\n+uno\n*** End Patch"},
		{"pure move", "*** Begin Patch\n*** Update File: l\n*** Move to: m.txt\n*** End Patch"},
		{"delete with the target updated", "*** Begin Patch\n*** Update File: b.txt\n@@\n-x\n+X\n*** Delete File: l\n*** End Patch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "one\ntwo\n", "b.txt": "x\n"})
			must(t, os.Symlink("a.txt", filepath.Join(dir, "l")))
			gittest.Git(t, dir, "add", "l")
			gittest.Git(t, dir, "commit", "-qm", "link")
			before, status := workFiles(t, dir), gittest.Status(t, dir)

			res := callTool(t, dir, "apply_patch", map[string]any{"input": strings.ReplaceAll(tc.patch, "ABS", dir)})
			if res.OK {
				t.Fatalf("deleting through the symlink l succeeded: %s", res.Text)
			}
			if !strings.Contains(res.Text, "symlink") || !strings.Contains(res.Text, "a.txt") {
				t.Fatalf("the refusal does not say that l is a symlink to a.txt: %s", res.Text)
			}
			if after := workFiles(t, dir); !sameFiles(before, after) {
				t.Fatalf("files changed:\nbefore %v\nafter  %v", before, after)
			}
			if st := gittest.Status(t, dir); st != status {
				t.Fatalf("git status changed from %q to %q", status, st)
			}
			noSession(t, dir)
		})
	}
}

// A file reached through a symlinked directory is the file itself: a
// patch may delete it (only a symlink in the last component is refused).
func TestApplyPatchDeletesThroughASymlinkedDirectory(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"d/a.txt": "one\n", "b.txt": "x\n"})
	must(t, os.Symlink("d", filepath.Join(dir, "dl")))
	res := callTool(t, dir, "apply_patch", map[string]any{"input": "*** Begin Patch\n*** Delete File: dl/a.txt\n*** End Patch"})
	if !res.OK {
		t.Fatalf("refused: %s", res.Text)
	}
	if got := gittest.Git(t, dir, "diff", "--name-status", "HEAD", "refs/edits/s"); got != "D\td/a.txt\n" {
		t.Fatalf("the commit records %q", got)
	}
}

// TestMultiFileRefusalNamesTheFileThatFailed: when one file of a
// multi-file call cannot be read or written, the refusal names that file,
// as a single-file call does; not every file of the call as if each were
// the directory or the read-only one.
func TestMultiFileRefusalNamesTheFileThatFailed(t *testing.T) {
	for _, tc := range []struct {
		name, tool string
		args       map[string]any
		chmod      string // made read-only first
		want       string // the result object
	}{
		{
			name: "code_edit, a directory", tool: "code_edit",
			args: map[string]any{"edits": []any{
				map[string]any{"file_path": "a.txt", "search": "one", "replace": "1"},
				map[string]any{"file_path": "d", "search": "", "replace": "z"},
			}},
			want: `{"success":false,"message":"No file was changed: edits 1, 2 of 2 failed; fix them and send all 2 edits again.","results":[{"file_path":"a.txt","success":false,"message":"path is a directory: d; code_edit works on files: give the path of a file"},{"file_path":"d","success":false,"message":"path is a directory: d; code_edit works on files: give the path of a file"}]}`,
		},
		{
			name: "code_edit, a read-only file", tool: "code_edit", chmod: "b.txt",
			args: map[string]any{"edits": []any{
				map[string]any{"file_path": "a.txt", "search": "one", "replace": "1"},
				map[string]any{"file_path": "./b.txt", "search": "x", "replace": "X"},
			}},
			want: `{"success":false,"message":"No file was changed: edits 1, 2 of 2 failed; fix them and send all 2 edits again.","results":[{"file_path":"a.txt","success":false,"message":"permission denied: ./b.txt is read-only; make it writable (chmod u+w) if it should be edited"},{"file_path":"./b.txt","success":false,"message":"permission denied: ./b.txt is read-only; make it writable (chmod u+w) if it should be edited"}]}`,
		},
		{
			name: "apply_patch, a read-only file", tool: "apply_patch", chmod: "b.txt",
			args: map[string]any{"input": "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+1\n*** Update File: b.txt\n@@\n-x\n+X\n*** End Patch"},
			want: `{"success":false,"error":"permission denied: b.txt is read-only; make it writable (chmod u+w) if it should be edited"}`,
		},
		{
			name: "apply_patch, a directory", tool: "apply_patch",
			args: map[string]any{"input": "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+1\n*** Add File: d\n+x\n*** End Patch"},
			want: `{"success":false,"error":"path is a directory: d; apply_patch works on files: give the path of a file"}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "one\n", "b.txt": "x\n", "d/k.txt": "k\n"})
			if tc.chmod != "" {
				must(t, os.Chmod(filepath.Join(dir, tc.chmod), 0o444))
			}
			before := workFiles(t, dir)
			res := callTool(t, dir, tc.tool, tc.args)
			if got := resultJSON(t, res.Value); res.OK || got != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
			if after := workFiles(t, dir); !sameFiles(before, after) {
				t.Fatalf("files changed:\nbefore %v\nafter  %v", before, after)
			}
			noSession(t, dir)
		})
	}
}

// TestBinaryRefusalNamesTheFileAsBefore pins the wording of the binary-file
// refusal as it was before the dialects moved behind the Workspace (commit
// b054203): the writing commands name the file by its path in the
// repository, the reading ones (view, search, Read) as the agent gave it.
func TestBinaryRefusalNamesTheFileAsBefore(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"sub/b.bin": "a\x00b\n"})
	abs := filepath.Join(dir, "sub", "b.bin")
	const byRepo = "binary file: sub/b.bin contains NUL bytes"
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"text_editor", map[string]any{"command": "str_replace", "path": abs, "old_str": "a", "new_str": "b"}, byRepo},
		{"text_editor", map[string]any{"command": "insert", "path": "./sub/b.bin", "insert_line": 0, "new_str": "b"}, byRepo},
		{"text_editor", map[string]any{"command": "view", "path": "./sub/b.bin"}, "binary file: ./sub/b.bin contains NUL bytes"},
		{"edit", map[string]any{"command": "delete", "arguments": map[string]any{"file_path": "sub/../sub/b.bin", "range": map[string]any{"start": map[string]any{"offset": 0}, "end": map[string]any{"offset": 1}}}}, byRepo},
		{"edit", map[string]any{"command": "search", "arguments": map[string]any{"file_path": "./sub/b.bin", "pattern": "a"}}, "binary file: ./sub/b.bin contains NUL bytes"},
		{"edit_lines", map[string]any{"path": abs, "operations": []any{map[string]any{"op": "delete", "startLine": 1, "endLine": 1}}}, byRepo},
		{"Edit", map[string]any{"file_path": "./sub/b.bin", "old_string": "a", "new_string": "b"}, byRepo},
		{"MultiEdit", map[string]any{"file_path": abs, "edits": []any{map[string]any{"old_string": "a", "new_string": "b"}}}, byRepo},
		{"Read", map[string]any{"file_path": "./sub/b.bin"}, "binary file: ./sub/b.bin contains NUL bytes"},
	} {
		res := callTool(t, dir, tc.tool, tc.args)
		if res.OK || !strings.Contains(res.Text, tc.want) {
			t.Errorf("%s %v:\ngot  %s\nwant %s…", tc.tool, tc.args, res.Text, tc.want)
		}
	}
	noSession(t, dir)
}

// TestCodeEditRefusalSaysWhyForEveryEdit: when the path of one edit is
// refused, the other edits were not tried; their results say so instead of
// an empty message, and they are not counted as failed.
func TestCodeEditRefusalSaysWhyForEveryEdit(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "one\n", "b.txt": "x\n"})
	res := callTool(t, dir, "code_edit", map[string]any{"edits": []any{
		map[string]any{"file_path": "a.txt", "search": "one", "replace": "1"},
		map[string]any{"file_path": ".git/config", "search": "", "replace": "x"},
		map[string]any{"file_path": "b.txt", "search": "x", "replace": "X"},
	}})
	want := `{"success":false,"message":"No file was changed: edit 2 of 3 failed; fix it and send all 3 edits again.","results":[` +
		`{"file_path":"a.txt","success":false,"message":"not tried, because the path of another edit of this call was refused"},` +
		`{"file_path":".git/config","success":false,"message":"path refused: .git/config is inside the git directory; git-edit never writes there"},` +
		`{"file_path":"b.txt","success":false,"message":"not tried, because the path of another edit of this call was refused"}]}`
	if got := resultJSON(t, res.Value); res.OK || got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	noSession(t, dir)
}

// TestEditChecksTheFileBeforeItsReadRecord: Edit and MultiEdit check a file
// in the order they always have: it exists, it is text, then the session's
// record of reading it. A record that cannot be read (here a directory in
// its place) refuses the edit, naming the record, but only after the file
// itself passed; nothing is written either way.
func TestEditChecksTheFileBeforeItsReadRecord(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"b.bin": "a\x00b\n", "a.txt": "one\n"})
	for _, rel := range []string{"b.bin", "a.txt"} {
		sum := sha1.Sum([]byte(rel))
		must(t, os.MkdirAll(filepath.Join(dir, ".git", "git-edit", "sessions", "s", "seen", hex.EncodeToString(sum[:]), "x"), 0o755))
	}
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"Edit", map[string]any{"file_path": "b.bin", "old_string": "a", "new_string": "b"}, "binary file: b.bin contains NUL bytes"},
		{"MultiEdit", map[string]any{"file_path": "b.bin", "edits": []any{map[string]any{"old_string": "a", "new_string": "b"}}}, "binary file: b.bin contains NUL bytes"},
		{"Edit", map[string]any{"file_path": "no.txt", "old_string": "a", "new_string": "b"}, "File not found: There is no file at no.txt"},
		{"Edit", map[string]any{"file_path": "a.txt", "old_string": "one", "new_string": "1"}, "read record of a.txt"},
	} {
		res := callTool(t, dir, tc.tool, tc.args)
		if res.OK || !strings.Contains(res.Text, tc.want) {
			t.Errorf("%s %v:\ngot  %s\nwant …%s…", tc.tool, tc.args, res.Text, tc.want)
		}
	}
	if got := gittest.ReadFile(t, dir, "a.txt"); got != "one\n" {
		t.Fatalf("a.txt = %q", got)
	}
	noSession(t, dir)
}
