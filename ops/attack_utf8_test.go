package ops_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

// badText are the ways a JSON string can fail to be text, as they appear
// inside the string token, with what the refusal says about each.
var badText = []struct{ name, inJSON, says string }{
	{"raw byte 0xfe", "\xfe", "the byte 0xfe is not UTF-8"},
	{`lone \ud800`, `\ud800`, `the escape \ud800 is a high surrogate not followed by a low surrogate`},
	{`lone \udc00`, `\udc00`, `the escape \udc00 is a low surrogate without a high surrogate`},
	{`\ud800 then \u0041`, `\ud800\u0041`, `the escape \ud800 is a high surrogate not followed by a low surrogate`},
}

// utf8Case puts a marker, «», into one string field of a valid call; the
// bad text replaces it in the attacks, good in the control.
type utf8Case struct {
	tool, args string
	field      string // what the refusal names, quoted: the field's JSON path
	good       string // the marker's replacement in the control call
	noControl  bool   // the call is refused for another reason even with good text
}

const (
	marker = "«»"
	pair   = `\ud83d\ude00` // U+1F600 as a surrogate pair
)

var utf8Cases = []utf8Case{
	{tool: "text_editor", args: `{"command": "wr«»ite", "path": "new.txt", "file_text": "x\n"}`, field: `"command"`},
	{tool: "text_editor", args: `{"command": "write", "path": "new«».txt", "file_text": "x\n"}`, field: `"path"`, good: pair},
	{tool: "text_editor", args: `{"command": "write", "path": "new.txt", "file_text": "x«»\n"}`, field: `"file_text"`, good: pair},
	{tool: "text_editor", args: `{"command": "create", "path": "new.txt", "file_text": "«»"}`, field: `"file_text"`, good: pair},
	{tool: "text_editor", args: `{"command": "str_replace", "path": "f.txt", "old_str": "hel«»lo", "new_str": "bye"}`, field: `"old_str"`},
	{tool: "text_editor", args: `{"command": "str_replace", "path": "f.txt", "old_str": "hello", "new_str": "«»"}`, field: `"new_str"`, good: pair},
	{tool: "text_editor", args: `{"command": "insert", "path": "f.txt", "insert_line": 1, "new_str": "«»"}`, field: `"new_str"`, good: pair},
	{tool: "text_editor", args: `{"command": "view", "path": "f«».txt"}`, field: `"path"`},
	{tool: "text_editor", args: `{"command": "undo_edit", "path": "f«».txt"}`, field: `"path"`, noControl: true},
	{tool: "text_editor", args: `{"command": "view", "pa«»th": "f.txt"}`, field: `a field name`},
	{tool: "edit", args: `{"command": "ins«»ert", "arguments": {"file_path": "f.txt", "content": "x", "position": {"offset": 0}}}`, field: `"command"`},
	{tool: "edit", args: `{"command": "insert", "arguments": {"file_path": "f«».txt", "content": "x", "position": {"offset": 0}}}`, field: `"arguments.file_path"`},
	{tool: "edit", args: `{"command": "insert", "arguments": {"file_path": "f.txt", "content": "x«»", "position": {"offset": 0}}}`, field: `"arguments.content"`, good: pair},
	{tool: "edit", args: `{"command": "replaceAll", "arguments": {"file_path": "f.txt", "pattern": "hel«»lo", "replacement": "bye"}}`, field: `"arguments.pattern"`},
	{tool: "edit", args: `{"command": "replaceAll", "arguments": {"file_path": "f.txt", "pattern": "hello", "replacement": "«»"}}`, field: `"arguments.replacement"`, good: pair},
	{tool: "edit", args: `{"command": "search", "arguments": {"file_path": "f.txt", "pattern": "w«»orld"}}`, field: `"arguments.pattern"`},
	{tool: "edit_lines", args: `{"path": "f«».txt", "operations": [{"op": "insert", "afterLine": 0, "content": ["x"]}]}`, field: `"path"`},
	{tool: "edit_lines", args: `{"path": "f.txt", "operations": [{"op": "ins«»ert", "afterLine": 0, "content": ["x"]}]}`, field: `"operations[0].op"`},
	{tool: "edit_lines", args: `{"path": "f.txt", "operations": [{"op": "delete", "startLine": 2, "endLine": 2}, {"op": "insert", "afterLine": 0, "content": ["a", "b«»"]}]}`, field: `"operations[1].content[1]"`, good: pair},
	{tool: "Edit", args: `{"file_path": "f«».txt", "old_string": "hello", "new_string": "bye"}`, field: `"file_path"`},
	{tool: "Edit", args: `{"file_path": "f.txt", "old_string": "hel«»lo", "new_string": "bye"}`, field: `"old_string"`},
	{tool: "Edit", args: `{"file_path": "f.txt", "old_string": "hello", "new_string": "«»"}`, field: `"new_string"`, good: pair},
	{tool: "MultiEdit", args: `{"file_path": "f«».txt", "edits": [{"old_string": "hello", "new_string": "bye"}]}`, field: `"file_path"`},
	{tool: "MultiEdit", args: `{"file_path": "f.txt", "edits": [{"old_string": "hello", "new_string": "bye"}, {"old_string": "wor«»ld", "new_string": "earth"}]}`, field: `"edits[1].old_string"`},
	{tool: "MultiEdit", args: `{"file_path": "f.txt", "edits": [{"old_string": "hello", "new_string": "«»"}]}`, field: `"edits[0].new_string"`, good: pair},
	{tool: "Read", args: `{"file_path": "f«».txt"}`, field: `"file_path"`},
	{tool: "code_edit", args: `{"file_path": "f«».txt", "search": "hello\n", "replace": "bye\n"}`, field: `"file_path"`},
	{tool: "code_edit", args: `{"file_path": "f.txt", "search": "hel«»lo\n", "replace": "bye\n"}`, field: `"search"`},
	{tool: "code_edit", args: `{"file_path": "f.txt", "search": "hello\n", "replace": "«»\n"}`, field: `"replace"`, good: pair},
	{tool: "code_edit", args: `{"edits": [{"file_path": "f.txt", "search": "hello\n", "replace": "bye\n"}, {"file_path": "g«».txt", "search": "", "replace": "new\n"}]}`, field: `"edits[1].file_path"`, good: pair},
	{tool: "code_edit", args: `{"edits": [{"file_path": "f.txt", "search": "hello\n", "replace": "«»\n"}]}`, field: `"edits[0].replace"`, good: pair},
	{tool: "edit_history", args: `{"path": "f«».txt"}`, field: `"path"`},
	{tool: "edit_history", args: `{"commit": "abcd«»"}`, field: `"commit"`, noControl: true},
	{tool: "edit_undo", args: `{"edit": "abcd«»"}`, field: `"edit"`, noControl: true},
	{tool: "edit_undo", args: `{"path": "f«».txt"}`, field: `"path"`, noControl: true},
	{tool: "edit_undo", args: `{"turn": "«»"}`, field: `"turn"`, noControl: true},
	{tool: "edit_redo", args: `{"edit": "abcd«»"}`, field: `"edit"`, noControl: true},
	{tool: "edit_redo", args: `{"path": "f«».txt"}`, field: `"path"`, noControl: true},
	{tool: "edit_rollback", args: `{"to": "«»"}`, field: `"to"`, noControl: true},
	{tool: "edit_checkpoint", args: `{"name": "cp«»"}`, field: `"name"`, good: pair},
	{tool: "edit_reject", args: `{"path": "f«».txt", "hunks": [1]}`, field: `"path"`, noControl: true},
}

// TestAttackInvalidUTF8ArgumentsChangeNothing: in every string field of
// every tool, at any depth, invalid UTF-8 bytes and lone surrogate escapes
// are refused, naming the field, before anything is touched: the worktree
// (every entry and byte), git status, every ref (the session's included)
// and the person's repository state are as they were. The control call
// with valid text (a surrogate pair where it can be) shows that the bad
// text, and nothing else in the call, is what was refused. Calls go
// through (*Engine).Call, the entry the MCP server uses.
func TestAttackInvalidUTF8ArgumentsChangeNothing(t *testing.T) {
	covered := map[string]bool{}
	for _, tc := range append(utf8Cases, registryUTF8Cases(t)...) {
		covered[tc.tool] = true
		t.Run(tc.tool+" "+tc.field, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "hello\nworld\n"})
			gittest.Git(t, dir, "config", "edit.requireRead", "false")
			e, err := ops.Open(ops.Options{Root: dir, Session: "s"})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { e.Close() })
			person := gittest.Snapshot(t, dir)
			before := observe(t, dir)
			for _, bad := range badText {
				args := strings.Replace(tc.args, marker, bad.inJSON, 1)
				res, err := e.Call(context.Background(), tc.tool, []byte(args))
				if err != nil {
					t.Fatalf("%s: %v", args, err)
				}
				if res.OK {
					t.Fatalf("%s %q: accepted: %s", tc.tool, args, res.Text)
				}
				if want := tc.field + " is not valid UTF-8 text: " + bad.says; !strings.Contains(res.Text, want) || tc.field == "" && !strings.Contains(res.Text, `" is not valid UTF-8`) {
					t.Errorf("%s with %s: the refusal does not say %q:\n%s", tc.tool, bad.name, want, res.Text)
				}
				if after := observe(t, dir); after != before {
					t.Fatalf("%s with %s: a refused call changed something:\nbefore:\n%s\nafter:\n%s", tc.tool, bad.name, before, after)
				}
			}
			if gittest.Snapshot(t, dir) != person {
				t.Fatalf("the refused calls changed the person's repository state")
			}
			if tc.noControl {
				return
			}
			args := strings.Replace(tc.args, marker, tc.good, 1)
			res, err := e.Call(context.Background(), tc.tool, []byte(args))
			if err != nil || !res.OK {
				t.Fatalf("control %s %s: refused: %v %s", tc.tool, args, err, res.Text)
			}
		})
	}
	for _, name := range ops.Tools() {
		if !covered[name] {
			t.Errorf("tool %s has no case: add one per string field", name)
		}
	}
}

// registryUTF8Cases derives a case from every writing tool of the
// registry: the marker in the text its write call writes. The field is
// whatever the tool names (its path differs by dialect), so the refusal
// need only name a quoted field.
func registryUTF8Cases(t *testing.T) []utf8Case {
	var cases []utf8Case
	for _, tool := range ops.Registry() {
		if tool.WriteCall == nil {
			continue
		}
		raw, err := json.Marshal(tool.WriteCall("f.txt", "world", "earth"+marker))
		if err != nil || !strings.Contains(string(raw), marker) {
			t.Fatalf("%s: the write call does not carry its text: %s %v", tool.Name, raw, err)
		}
		cases = append(cases, utf8Case{tool: tool.Name, args: string(raw), good: pair})
	}
	return cases
}

// TestAttackWriteToInvalidUTF8NameCreatesNothing: write to "\xfe.txt" used
// to create "\xef\xbf\xbd.txt" (U+FFFD); it must create nothing at all,
// and a surrogate pair in a name makes exactly that character.
func TestAttackWriteToInvalidUTF8NameCreatesNothing(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "hello\n"})
	before := observe(t, dir)
	for _, name := range []string{"\xfe.txt", `\ud800.txt`, "sub/\xfe/x.txt", `sub/\udc00.txt`} {
		args := `{"command": "write", "path": "` + name + `", "file_text": "x\n"}`
		res, err := ops.Call(context.Background(), ops.Options{Root: dir, Session: "s"}, "text_editor", []byte(args))
		if err != nil || res.OK || !strings.Contains(res.Text, `"path" is not valid UTF-8 text`) {
			t.Fatalf("write %q: %v %v %s", name, err, res.OK, res.Text)
		}
		if after := observe(t, dir); after != before {
			t.Fatalf("write %q created something:\nbefore:\n%s\nafter:\n%s", name, before, after)
		}
	}
	res, err := ops.Call(context.Background(), ops.Options{Root: dir, Session: "s"}, "text_editor",
		[]byte(`{"command": "write", "path": "`+pair+`.txt", "file_text": "x\n"}`))
	if err != nil || !res.OK {
		t.Fatalf("write to a surrogate pair name: %v %s", err, res.Text)
	}
	if got := gittest.ReadFile(t, dir, "\U0001F600.txt"); got != "x\n" {
		t.Fatalf("\U0001F600.txt holds %q", got)
	}
	if got := gittest.Git(t, dir, "show", "--format=", "--name-only", "-z", "refs/edits/s"); got != "\U0001F600.txt\x00" {
		t.Fatalf("the session's commit names %q", got)
	}
}

// observe is what a refused call must leave alone: every worktree entry
// (type, mode, bytes), `git status`, and every ref, the session's included.
func observe(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == ".git" {
			return filepath.SkipDir
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%q %v", rel, info.Mode())
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, " %q", data)
		}
		b.WriteByte('\n')
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	b.WriteString("status:\n" + gittest.Status(t, dir))
	b.WriteString("refs:\n" + gittest.Git(t, dir, "for-each-ref", "--format=%(refname) %(objectname)"))
	return b.String()
}
