package ops_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

func callResult(t *testing.T, dir, tool string, args any) ops.Result {
	t.Helper()
	raw, _ := json.Marshal(args)
	res, err := ops.Call(context.Background(), ops.Options{Root: dir, Session: "s"}, tool, raw)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return res
}

// A new file at a path declared working-tree-encoding=UTF-16 is created
// (with a mark, as git writes it) and git reads back the text sent
// (review of issue 25b, finding 3: it was refused as "not UTF-16 text").
func TestDeclaredEncodingNewFileUTF16(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{".gitattributes": "*.u16 working-tree-encoding=UTF-16\n"})
	res := callResult(t, dir, "text_editor", map[string]any{"command": "create", "path": "a.u16", "file_text": "hi\n"})
	if !res.OK {
		t.Fatalf("create refused: %s", res.Text)
	}
	disk := gittest.ReadFile(t, dir, "a.u16")
	gittest.WriteFile(t, dir, "utf8.txt", "hi\n")
	if got, want := gittest.Git(t, dir, "hash-object", "--path=a.u16", "a.u16"), gittest.Git(t, dir, "hash-object", "utf8.txt"); got != want {
		t.Errorf("git reads a.u16 (% x) as a blob other than the text sent", disk)
	}
}

// UTF-16LE-BOM declared: a new file and a move's destination are written
// as UTF-16LE with its mark; an existing UTF-8 file there is refused by
// Read and Edit, changing nothing (review of issue 25b, finding 4).
func TestDeclaredEncodingUTF16WithMark(t *testing.T) {
	t.Run("new file", func(t *testing.T) {
		dir := gittest.NewWithCommit(t, map[string]string{".gitattributes": "*.u16 encoding=UTF-16LE-BOM\n"})
		res := callResult(t, dir, "text_editor", map[string]any{"command": "create", "path": "a.u16", "file_text": "hi\n"})
		if !res.OK {
			t.Fatalf("create refused: %s", res.Text)
		}
		if disk, want := gittest.ReadFile(t, dir, "a.u16"), "\xff\xfeh\x00i\x00\n\x00"; disk != want {
			t.Errorf("a.u16 on disk: % x; want UTF-16LE with its mark % x", disk, want)
		}
	})
	t.Run("new file, working-tree-encoding", func(t *testing.T) {
		dir := gittest.NewWithCommit(t, map[string]string{".gitattributes": "*.u16 working-tree-encoding=UTF-16LE-BOM\n"})
		res := callResult(t, dir, "text_editor", map[string]any{"command": "create", "path": "a.u16", "file_text": "hi\n"})
		if !res.OK {
			t.Fatalf("create refused: %s", res.Text)
		}
	})
	t.Run("move from cp1251", func(t *testing.T) {
		dir := gittest.NewWithCommit(t, map[string]string{".gitattributes": "*.ru encoding=cp1251\n*.u16 encoding=UTF-16LE-BOM\n", "a.ru": "\xcf\xf0\xe8\xe2\xe5\xf2\n"})
		patch := "*** Begin Patch\n*** Update File: a.ru\n*** Move to: b.u16\n@@\n-Привет\n+Привет!\n*** End Patch\n"
		res := callResult(t, dir, "apply_patch", map[string]any{"input": patch})
		if !res.OK {
			t.Fatalf("refused: %s", res.Text)
		}
		if disk := gittest.ReadFile(t, dir, "b.u16"); !strings.HasPrefix(disk, "\xff\xfe") {
			t.Errorf("b.u16 (declared UTF-16LE-BOM) on disk: % x; not UTF-16LE", disk)
		}
	})
	t.Run("existing UTF-8 file", func(t *testing.T) {
		dir := gittest.NewWithCommit(t, map[string]string{".gitattributes": "a.txt encoding=UTF-16LE-BOM\n", "a.txt": "abc\n"})
		before := observe(t, dir)
		if res := callResult(t, dir, "Read", map[string]any{"file_path": "a.txt"}); res.OK || !strings.Contains(res.Text, "it does not start with a UTF-16 byte order mark") {
			t.Errorf("Read of a UTF-8 file at a path declared UTF-16LE-BOM: %v %s", res.OK, res.Text)
		}
		res := callResult(t, dir, "Edit", map[string]any{"file_path": "a.txt", "old_string": "abc", "new_string": "abd"})
		if res.OK {
			t.Errorf("a UTF-8 file at a path declared UTF-16LE-BOM was edited as UTF-8: % x", gittest.ReadFile(t, dir, "a.txt"))
		} else if observe(t, dir) != before {
			t.Errorf("the refusal changed something")
		}
	})
}

// A move to a path whose attributes declare UTF-8 writes UTF-8, not the
// source's legacy encoding (review of issue 25b, finding 5).
func TestDeclaredEncodingMoveToUTF8(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{".gitattributes": "*.ru encoding=cp1251\n*.txt encoding=UTF-8\n", "a.ru": "\xcf\xf0\xe8\xe2\xe5\xf2\n"})
	patch := "*** Begin Patch\n*** Update File: a.ru\n*** Move to: b.txt\n@@\n-Привет\n+Привет!\n*** End Patch\n"
	res := callResult(t, dir, "apply_patch", map[string]any{"input": patch})
	if !res.OK {
		t.Fatalf("refused: %s", res.Text)
	}
	if got, want := gittest.ReadFile(t, dir, "b.txt"), "Привет!\n"; got != want {
		t.Errorf("b.txt (declared UTF-8) on disk: % x; want UTF-8 % x", got, want)
	}
}

// Text an encoder accepts but writes as other text (GB18030: a
// private-use character; ISO-2022-JP: a raw ESC, after which the file
// would not decode) is refused (review of issue 25b, finding 6).
func TestDeclaredEncodingWrittenTextReadsBack(t *testing.T) {
	for _, c := range []struct{ enc, ins string }{{"GB18030", "\ue000"}, {"ISO-2022-JP", "\x1b"}} {
		t.Run(c.enc, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{".gitattributes": "a.txt encoding=" + c.enc + "\n", "a.txt": "abc\n"})
			callOK(t, dir, "Read", map[string]any{"file_path": "a.txt"})
			before := observe(t, dir)
			res := callResult(t, dir, "Edit", map[string]any{"file_path": "a.txt", "old_string": "abc", "new_string": "a" + c.ins + "c"})
			if res.OK || !strings.Contains(res.Text, "line 1 has") || !strings.Contains(res.Text, "which "+c.enc+" writes as bytes that do not read back as it") {
				t.Fatalf("wrote % x: %v %s\nwant a refusal naming the line and the character", gittest.ReadFile(t, dir, "a.txt"), res.OK, res.Text)
			}
			if observe(t, dir) != before {
				t.Errorf("the refusal changed something")
			}
		})
	}
}

// "ascii" is US-ASCII, not the WHATWG label for windows-1252: a
// non-ASCII character is refused, as git's iconv refuses it (review of
// issue 25b, finding 7).
func TestDeclaredEncodingASCII(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{".gitattributes": "a.txt encoding=ascii\n", "a.txt": "abc\n"})
	callOK(t, dir, "Read", map[string]any{"file_path": "a.txt"})
	res := callResult(t, dir, "Edit", map[string]any{"file_path": "a.txt", "old_string": "abc", "new_string": "café"})
	if res.OK || !strings.Contains(res.Text, "line 1 has 'é' (U+00E9), which ascii cannot encode") {
		out, err := exec.Command("iconv", "-f", "ascii", "-t", "utf-8", dir+"/a.txt").CombinedOutput()
		t.Errorf("%v %s: é into a file declared ascii: % x (iconv -f ascii: %v %s)", res.OK, res.Text, gittest.ReadFile(t, dir, "a.txt"), err, out)
	}
}
