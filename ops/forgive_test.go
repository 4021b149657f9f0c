package ops_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// TestShellEscapedPath: a path pasted from a shell command (`my\ file.txt`,
// `'my file.txt'`) that names no file is read as the shell would read it,
// when that file exists (two of the ported cases: OpenCode and Crush
// agents sending backslash-escaped paths); the result says so. A path that
// exists as given is always the one used, and the unescaped path is
// confined like any other.
func TestShellEscapedPath(t *testing.T) {
	tests := []struct {
		name     string
		files    map[string]string // besides "my file.txt" and "dir/a b.txt"
		args     map[string]any
		edited   string // the file the call changed, or "" for a refusal
		want     string // its content after
		wantText string // the result's text
	}{
		{name: "backslash-escaped blank (OpenCode)", args: map[string]any{"command": "str_replace", "path": `my\ file.txt`, "old_str": "one", "new_str": "uno"},
			edited: "my file.txt", want: "uno\n",
			wantText: "The file my\\ file.txt has been edited: old_str replaced at line 1.\n@@ -1 +1 @@\n-one\n+uno\n" +
				"\nNote: there is no file my\\ file.txt, but there is my file.txt: the path was read as shell-escaped, and my file.txt was used."},
		{name: "single-quoted path (Crush)", args: map[string]any{"command": "insert", "path": `'dir/a b.txt'`, "insert_line": -1, "new_str": "z"},
			edited: "dir/a b.txt", want: "two\nz\n"},
		{name: "quoted component", args: map[string]any{"command": "insert", "path": `dir/"a b.txt"`, "insert_line": 0, "new_str": "z"},
			edited: "dir/a b.txt", want: "z\ntwo\n"},
		{name: "the escaped name exists: it is the one edited", files: map[string]string{`my\ file.txt`: "literal\n"},
			args:   map[string]any{"command": "str_replace", "path": `my\ file.txt`, "old_str": "literal", "new_str": "kept"},
			edited: `my\ file.txt`, want: "kept\n"},
		{name: "write to the escaped name where only the unescaped file exists rewrites that file (README: the file the agent named)", args: map[string]any{"command": "write", "path": `my\ file.txt`, "file_text": "new\n"},
			edited: "my file.txt", want: "new\n"},
		{name: "neither exists: write creates the name as given", args: map[string]any{"command": "write", "path": `new\ file.txt`, "file_text": "n\n"},
			edited: `new\ file.txt`, want: "n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"my file.txt": "one\n", "dir/a b.txt": "two\n"}
			for k, v := range tt.files {
				files[k] = v
			}
			dir := gittest.NewWithCommit(t, files)
			res := call(t, dir, tt.args)
			if !res.OK {
				t.Fatalf("refused: %s", res.Text)
			}
			if got := gittest.ReadFile(t, dir, tt.edited); got != tt.want {
				t.Fatalf("%s = %q, want %q", tt.edited, got, tt.want)
			}
			for name, content := range files {
				if name != tt.edited && gittest.ReadFile(t, dir, name) != content {
					t.Fatalf("%s changed", name)
				}
			}
			changed := gittest.Git(t, dir, "show", "--format=", "--name-only", "-z", "refs/edits/s")
			if changed != tt.edited+"\x00" {
				t.Fatalf("the session commit changed %q, want %q", changed, tt.edited)
			}
			given := tt.args["path"].(string)
			raw, _ := json.Marshal(res.Value)
			var v struct {
				Unescaped []struct{ Given, Used string } `json:"unescaped_paths"`
			}
			must(t, json.Unmarshal(raw, &v))
			wantNote := ""
			if tt.edited != given {
				wantNote = "\nNote: there is no file " + given + ", but there is " + tt.edited + ": the path was read as shell-escaped, and " + tt.edited + " was used."
				if len(v.Unescaped) != 1 || v.Unescaped[0].Given != given || v.Unescaped[0].Used != tt.edited {
					t.Fatalf("unescaped_paths = %+v", v.Unescaped)
				}
			} else if v.Unescaped != nil {
				t.Fatalf("unescaped_paths = %+v for a path used as given", v.Unescaped)
			}
			if tt.wantText != "" && res.Text != tt.wantText {
				t.Fatalf("text\n%q\nwant\n%q", res.Text, tt.wantText)
			}
			if !strings.HasSuffix(res.Text, wantNote) || wantNote == "" && strings.Contains(res.Text, "shell-escaped") {
				t.Fatalf("text %q does not end with %q", res.Text, wantNote)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// TestShellEscapedPathUndo: undo_edit of the same shell-escaped path an
// edit used undoes that file's edit, and says how the path was read.
func TestShellEscapedPathUndo(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"my file.txt": "one\n"})
	if res := call(t, dir, map[string]any{"command": "str_replace", "path": `my\ file.txt`, "old_str": "one", "new_str": "uno"}); !res.OK {
		t.Fatalf("edit refused: %s", res.Text)
	}
	res := call(t, dir, map[string]any{"command": "undo_edit", "path": `my\ file.txt`})
	if !res.OK || !strings.HasSuffix(res.Text, "\nNote: there is no file my\\ file.txt, but there is my file.txt: the path was read as shell-escaped, and my file.txt was used.") {
		t.Fatalf("undo: %v %s", res.OK, res.Text)
	}
	if got := gittest.ReadFile(t, dir, "my file.txt"); got != "one\n" {
		t.Fatalf("my file.txt = %q after undo", got)
	}
	gittest.Fsck(t, dir)
}

// TestAttackShellEscapedPathStaysConfined: the unescaped reading of a path
// is confined as every path is: a quoted path that would read as outside
// the root, or through a symlink out of it, is not taken; the call is
// refused as for the path as given, and nothing changes.
func TestAttackShellEscapedPathStaysConfined(t *testing.T) {
	outside := t.TempDir()
	must(t, os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret\n"), 0o644))
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	must(t, os.Symlink(outside, filepath.Join(dir, "out link")))
	call(t, dir, map[string]any{"command": "create", "path": "seed.txt", "file_text": "seed\n"})
	rel, err := filepath.Rel(dir, filepath.Join(outside, "secret.txt"))
	must(t, err)
	tests := []struct{ name, path, want string }{
		{name: "quoted ../", path: "'" + rel + "'",
			want: "file not found: '" + rel + "'; check the path, or create the file with the \"create\" command"},
		{name: "escaped blank into a symlink out of the root", path: `out\ link/secret.txt`,
			want: "file not found: out\\ link/secret.txt; check the path, or create the file with the \"create\" command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tip, before, state := gittest.Rev(t, dir, "refs/edits/s"), gittest.Status(t, dir), gittest.Snapshot(t, dir)
			res := call(t, dir, map[string]any{"command": "str_replace", "path": tt.path, "old_str": "secret", "new_str": "leaked"})
			status, msg := fields(t, res)
			if res.OK || status != "error" || msg != tt.want {
				t.Fatalf("got %v %q\nwant %q", res.OK, msg, tt.want)
			}
			b, err := os.ReadFile(filepath.Join(outside, "secret.txt"))
			must(t, err)
			if string(b) != "secret\n" || gittest.Rev(t, dir, "refs/edits/s") != tip || gittest.Status(t, dir) != before || gittest.Snapshot(t, dir) != state {
				t.Fatal("a refused call changed something")
			}
		})
	}
}

// TestOmissionPlaceholderRefused_ClineDetectCodeOmission: text_editor
// refuses a str_replace or a write whose text puts a placeholder ("//
// ... rest of the method ...") where the file's code was, naming the
// line; the file, the session ref and the repository stay as they were.
func TestOmissionPlaceholderRefused_ClineDetectCodeOmission(t *testing.T) {
	const src = "package p\n\nfunc Run() error {\n\tif err := open(); err != nil {\n\t\treturn err\n\t}\n\treturn loop()\n}\n"
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{name: "str_replace: Cline detectCodeOmission // ... rest of the method ...",
			args: map[string]any{"command": "str_replace", "path": "p.go", "old_str": "func Run() error {\n\tif err := open(); err != nil {\n\t\treturn err\n\t}\n\treturn loop()\n}", "new_str": "func Run() error {\n\tlog()\n\t// ... rest of the method ...\n}"},
			want: `replacement omits code with a placeholder: line 3 of new_str, "// ... rest of the method ...", stands for code it leaves out, and the edit would delete the lines it stands for; send the full text in new_str, every line that should remain written out; nothing was changed`},
		{name: "write over an existing file: Aider lazy // ... existing code ...",
			args: map[string]any{"command": "write", "path": "p.go", "file_text": "package p\n\n// ... existing code ...\n\nfunc New() {}\n"},
			want: `p.go: replacement omits code with a placeholder: line 3 of file_text, "// ... existing code ...", stands for code it leaves out, and the edit would delete the lines it stands for; send the full text in file_text, every line that should remain written out; nothing was changed`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"p.go": src})
			call(t, dir, map[string]any{"command": "create", "path": "seed.txt", "file_text": "seed\n"})
			tip, before, state := gittest.Rev(t, dir, "refs/edits/s"), gittest.Status(t, dir), gittest.Snapshot(t, dir)
			res := call(t, dir, tt.args)
			status, msg := fields(t, res)
			if res.OK || status != "error" || msg != tt.want {
				t.Fatalf("got %v %q\nwant %q", res.OK, msg, tt.want)
			}
			if gittest.ReadFile(t, dir, "p.go") != src || gittest.Rev(t, dir, "refs/edits/s") != tip || gittest.Status(t, dir) != before || gittest.Snapshot(t, dir) != state {
				t.Fatal("a refused call changed something")
			}
		})
	}
	// A new file may hold any comment: nothing of the file is lost.
	dir := gittest.NewWithCommit(t, map[string]string{"p.go": src})
	if res := call(t, dir, map[string]any{"command": "create", "path": "q.go", "file_text": "// ... existing code ...\n"}); !res.OK {
		t.Fatalf("create refused: %s", res.Text)
	}
}

// TestOmissionPlaceholderRefusedEditApplyPatch_ClineDetectCodeOmission:
// Edit, MultiEdit and apply_patch refuse, as text_editor does, a
// replacement that puts a placeholder (Cline's detectCodeOmission, aider's
// lazy comments) where the file's code was, naming it; through the real
// workspace the file, the session ref and the repository stay as they were.
func TestOmissionPlaceholderRefusedEditApplyPatch_ClineDetectCodeOmission(t *testing.T) {
	const src = "package p\n\nfunc Run() error {\n\tif err := open(); err != nil {\n\t\treturn err\n\t}\n\treturn loop()\n}\n"
	const body = "\tif err := open(); err != nil {\n\t\treturn err\n\t}\n\treturn loop()"
	tests := []struct {
		name, tool string
		args       map[string]any
		want       string
	}{
		{name: "Edit: Cline detectCodeOmission // ... rest of the method ...", tool: "Edit",
			args: map[string]any{"file_path": "p.go", "old_string": body, "new_string": "\tlog()\n\t// ... rest of the method ..."},
			want: `new_string omits code with a placeholder: Line 2 of new_string, "// ... rest of the method ...", stands for code it leaves out, and the edit would delete the lines it stands for. Send new_string in full, every line that should remain written out`},
		{name: "MultiEdit: aider lazy comment // ... existing code ... in edit 2", tool: "MultiEdit",
			args: map[string]any{"file_path": "p.go", "edits": []map[string]any{{"old_string": "func Run()", "new_string": "func Start()"}, {"old_string": body, "new_string": "\t// ... existing code ..."}}},
			want: `Edit 2 of 2 failed: new_string omits code with a placeholder: Line 1 of new_string, "// ... existing code ...", stands for code it leaves out, and the edit would delete the lines it stands for. Send new_string in full, every line that should remain written out. None of the 2 edits was applied; send them all again with edit 2 fixed`},
		{name: "apply_patch: Cline detectCodeOmission // rest of code unchanged", tool: "apply_patch",
			args: map[string]any{"input": "*** Begin Patch\n*** Update File: p.go\n@@ func Run() error {\n-" + strings.ReplaceAll(body, "\n", "\n-") + "\n+\tlog()\n+\t// rest of code unchanged\n }\n*** End Patch"},
			want: "Refused hunk 1 of 1 in '*** Update File: p.go': its added line '// rest of code unchanged' is a placeholder that stands for code it leaves out, and the hunk would delete the lines it stands for. Nothing was changed: the whole patch was refused. Send the patch again with every line that should remain written out as context (' '), and '-' only on the lines to delete."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"p.go": src})
			call(t, dir, map[string]any{"command": "create", "path": "seed.txt", "file_text": "seed\n"})
			if res := callTool(t, dir, "Read", map[string]any{"file_path": "p.go"}); !res.OK {
				t.Fatalf("Read: %s", res.Text)
			}
			tip, before, state := gittest.Rev(t, dir, "refs/edits/s"), gittest.Status(t, dir), gittest.Snapshot(t, dir)
			res := callTool(t, dir, tt.tool, tt.args)
			if res.OK || res.Text != tt.want {
				t.Fatalf("got %v %q\nwant %q", res.OK, res.Text, tt.want)
			}
			if gittest.ReadFile(t, dir, "p.go") != src || gittest.Rev(t, dir, "refs/edits/s") != tip || gittest.Status(t, dir) != before || gittest.Snapshot(t, dir) != state {
				t.Fatal("a refused call changed something")
			}
			gittest.Fsck(t, dir)
		})
	}
}

// TestTextEditorLineHintAndNegativeInsert: through a real repository, a
// line hint picks one of several occurrences (Roo Code's :start_line:) and
// says which; a negative insert_line counts from the end and says so.
func TestTextEditorLineHintAndNegativeInsert(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "x\ny\nx\n"})
	res := call(t, dir, map[string]any{"command": "str_replace", "path": "f.txt", "old_str": "x", "new_str": "X", "line": 3})
	want := "The file f.txt has been edited: old_str replaced at line 3. old_str occurs 2 times (at lines 1 and 3); \"line\" picked the one at line 3.\n@@ -1,3 +1,3 @@\n x\n y\n-x\n+X\n"
	if !res.OK || res.Text != want || gittest.ReadFile(t, dir, "f.txt") != "x\ny\nX\n" {
		t.Fatalf("got %q\nwant %q", res.Text, want)
	}
	res = call(t, dir, map[string]any{"command": "insert", "path": "f.txt", "insert_line": -1, "new_str": "end"})
	if !res.OK || !strings.HasPrefix(res.Text, "The file f.txt has been edited: text inserted after line 3 (insert_line -1 counts from the end).") || gittest.ReadFile(t, dir, "f.txt") != "x\ny\nX\nend\n" {
		t.Fatalf("got %q, file %q", res.Text, gittest.ReadFile(t, dir, "f.txt"))
	}
	gittest.Fsck(t, dir)
}

// TestTextEditorForgivenMatchRecorded: a str_replace matched at a tolerant
// stage says so in its result and in the commit's Edit-Match trailer, and
// undo_edit restores the exact bytes.
func TestTextEditorForgivenMatchRecorded(t *testing.T) {
	const src = "def f():\n    if x:   \n        return 1\n    return 2\n"
	dir := gittest.NewWithCommit(t, map[string]string{"f.py": src})
	res := call(t, dir, map[string]any{"command": "str_replace", "path": "f.py", "old_str": "if x:\n    return 1", "new_str": "if y:\n    return 3"})
	want := "The file f.py has been edited: old_str replaced at line 2. old_str is not in the file exactly: it matched ignoring trailing whitespace on 1 line, indentation off by 4 spaces on 2 lines, and new_str was adapted the same way; check the snippet.\n"
	if !res.OK || !strings.HasPrefix(res.Text, want) {
		t.Fatalf("got %q\nwant prefix %q", res.Text, want)
	}
	if got := gittest.ReadFile(t, dir, "f.py"); got != "def f():\n    if y:\n        return 3\n    return 2\n" {
		t.Fatalf("f.py = %q", got)
	}
	if trailer := gittest.Git(t, dir, "log", "-1", "--format=%(trailers:key=Edit-Match,valueonly)", "refs/edits/s"); trailer != "indentation: trailing whitespace on 1 line, indentation off by 4 spaces on 2 lines\n\n" {
		t.Fatalf("Edit-Match trailer %q", trailer)
	}
	if res := call(t, dir, map[string]any{"command": "undo_edit", "path": "f.py"}); !res.OK {
		t.Fatalf("undo refused: %s", res.Text)
	}
	if got := gittest.ReadFile(t, dir, "f.py"); got != src {
		t.Fatalf("after undo f.py = %q, want %q", got, src)
	}
	gittest.Fsck(t, dir)
}

// TestAttackShellEscapedPathNeverDeletesThroughASymlink: a shell-escaped
// path whose unescaped reading is a symlink is a link like any other: a
// patch deleting or moving `l\ k` (the link "l k" to a.txt) is refused,
// not turned into deleting a.txt.
func TestAttackShellEscapedPathNeverDeletesThroughASymlink(t *testing.T) {
	for _, tc := range []struct{ name, patch string }{
		{"delete", "*** Begin Patch\n*** Delete File: l\\ k\n*** End Patch"},
		{"quoted delete", "*** Begin Patch\n*** Delete File: 'l k'\n*** End Patch"},
		{"move", "*** Begin Patch\n*** Update File: l\\ k\n*** Move to: m.txt\n*** End Patch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "one\ntwo\n"})
			must(t, os.Symlink("a.txt", filepath.Join(dir, "l k")))
			gittest.Git(t, dir, "add", "l k")
			gittest.Git(t, dir, "commit", "-qm", "link")
			before, status, state := workFiles(t, dir), gittest.Status(t, dir), gittest.Snapshot(t, dir)
			res := callTool(t, dir, "apply_patch", map[string]any{"input": tc.patch})
			if res.OK {
				t.Fatalf("deleting through the symlink succeeded: %s", res.Text)
			}
			if !strings.Contains(res.Text, "is a symlink (to a.txt)") {
				t.Fatalf("the refusal does not say that the link is a symlink to a.txt: %s", res.Text)
			}
			if after := workFiles(t, dir); !sameFiles(before, after) || gittest.Status(t, dir) != status || gittest.Snapshot(t, dir) != state {
				t.Fatalf("something changed:\nbefore %v\nafter  %v", before, after)
			}
			noSession(t, dir)
		})
	}
}

// TestCodeEditAndApplyPatchForgivenMatchRecorded: code_edit and apply_patch
// matches at the shared ladder's stages are recorded in the commit's
// Edit-Match trailer, like Edit's, and undo restores the exact bytes.
func TestCodeEditAndApplyPatchForgivenMatchRecorded(t *testing.T) {
	const src = "say(“hi”)\nx  =  1\n"
	for _, tc := range []struct {
		tool    string
		args    map[string]any
		want    string
		trailer string
	}{
		{"code_edit", map[string]any{"edits": []any{map[string]any{"file_path": "f.py", "search": "say(\"hi\")\nx  =  1\n", "replace": "say(\"hi\")\nx = 2\n"}}},
			"say(“hi”)\nx = 2\n", "unicode: curly quotes on line 1"},
		{"apply_patch", map[string]any{"input": "*** Begin Patch\n*** Update File: f.py\n@@\n say(\"hi\")\n-x = 1\n+x = 2\n*** End Patch"},
			"say(“hi”)\nx = 2\n", "inner whitespace: hunk 1 of f.py at line 1, curly quotes on line 1, runs of spaces inside 1 line"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"f.py": src})
			callOK(t, dir, "Read", map[string]any{"file_path": "f.py"})
			callOK(t, dir, tc.tool, tc.args)
			if got := gittest.ReadFile(t, dir, "f.py"); got != tc.want {
				t.Fatalf("f.py = %q, want %q", got, tc.want)
			}
			if trailer := gittest.Git(t, dir, "log", "-1", "--format=%(trailers:key=Edit-Match,valueonly)", "refs/edits/s"); trailer != tc.trailer+"\n\n" {
				t.Fatalf("Edit-Match trailer %q, want %q", trailer, tc.trailer)
			}
			callOK(t, dir, "text_editor", map[string]any{"command": "undo_edit", "path": "f.py"})
			if got := gittest.ReadFile(t, dir, "f.py"); got != src {
				t.Fatalf("after undo f.py = %q, want %q", got, src)
			}
			gittest.Fsck(t, dir)
		})
	}
}
