package ops_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

// declaredFiles are files in an encoding their git attributes declare, the
// way people keep legacy code (Delphi, ADVPL, xHarbour in Windows-1252;
// Russian projects in Windows-1251; Japanese ones in Shift_JIS). For
// working-tree-encoding git itself writes the file from a UTF-8 blob (its
// iconv, not git-edit's codec, makes the bytes); for the encoding
// attribute, which git converts by nothing, latin1 makes them (Windows-1252
// is Latin-1 for every character used here).
var declaredFiles = []struct {
	file, attr string
	text       string // UTF-8
	old, new   string
	byGit      bool // git writes the file (working-tree-encoding)
}{
	{"ru.txt", "working-tree-encoding=cp1251", "Привет, мир\nвторая строка\n", "Привет, мир", "Привет, свет", true},
	{"sj.txt", "working-tree-encoding=SHIFT-JIS", "日本語のテキスト\n二行目\n", "二行目", "三行目", true},
	{"le.txt", "working-tree-encoding=UTF-16LE", "no mark, wörld\r\nsecond 中 line\r\n", "no mark, wörld", "no mark, earth", true},
	{"pt.txt", "encoding=windows-1252", "configuração\nnão há\n", "não há", "então há", false},
}

// latin1 is s (runes below U+0100 only) in ISO-8859-1.
func latin1(t *testing.T, s string) string {
	t.Helper()
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r >= 0x100 {
			t.Fatalf("%q is not Latin-1", r)
		}
		b = append(b, byte(r))
	}
	return string(b)
}

// newDeclared makes a repository holding declaredFiles, each with a UTF-8
// twin ref-<file> to compare the same edit with, and returns it with the
// bytes of each declared file as checked out.
func newDeclared(t *testing.T) (string, map[string]string) {
	t.Helper()
	dir := gittest.New(t)
	var attrs strings.Builder
	for _, f := range declaredFiles {
		attrs.WriteString(f.file + " " + f.attr + "\n")
		gittest.WriteFile(t, dir, "ref-"+f.file, f.text)
		if f.byGit {
			gittest.WriteFile(t, dir, f.file, f.text) // UTF-8, added before the attribute
		} else {
			gittest.WriteFile(t, dir, f.file, latin1(t, f.text))
		}
	}
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "files")
	gittest.WriteFile(t, dir, ".gitattributes", attrs.String())
	gittest.Git(t, dir, "add", ".gitattributes") // the files' blobs stay UTF-8
	gittest.Git(t, dir, "commit", "-q", "-m", "attributes")
	// git writes each working-tree-encoding file from its UTF-8 blob.
	gittest.Git(t, dir, "rm", "-q", "--cached", "ru.txt", "sj.txt", "le.txt")
	gittest.Git(t, dir, "reset", "-q", "--hard")
	original := map[string]string{}
	for _, f := range declaredFiles {
		original[f.file] = gittest.ReadFile(t, dir, f.file)
		if f.byGit && original[f.file] == f.text {
			t.Fatalf("git wrote %s in UTF-8: % x", f.file, original[f.file])
		}
	}
	if st := gittest.Status(t, dir); st != "" {
		t.Fatalf("git status after the checkout:\n%s", st)
	}
	return dir, original
}

// Every writing tool edits a file in its declared encoding as it edits the
// same text in UTF-8, and writes the result back in that encoding
// (Claude Code #7134, #3416 and #64601, Copilot CLI #3604: the peers read
// Windows-1252 as UTF-8 and write every accent back as U+FFFD or in
// UTF-8). The agent reads decoded text; for working-tree-encoding git's
// own decoding of the new bytes (git hash-object --path) is the UTF-8
// result, which is also the blob the session records, as `git add` would;
// for the encoding attribute the bytes are the result in Windows-1252 and
// the blob is those bytes. Undo puts back the exact bytes; fsck is clean.
func TestDeclaredEncodingEveryWritingTool_ClaudeCode7134_3416_64601_CopilotCLI3604(t *testing.T) {
	for _, tool := range ops.Registry() {
		if tool.WriteCall == nil {
			continue
		}
		t.Run(tool.Name, func(t *testing.T) {
			dir, original := newDeclared(t)
			for _, f := range declaredFiles {
				ref := "ref-" + f.file
				callOK(t, dir, "Read", map[string]any{"file_path": ref})
				callOK(t, dir, tool.Name, tool.WriteCall(ref, f.old, f.new))
				want := gittest.ReadFile(t, dir, ref)
				if want == f.text || !strings.Contains(want, f.new) {
					t.Fatalf("%s: the reference edit gave %q", f.file, want)
				}

				read := callOK(t, dir, "Read", map[string]any{"file_path": f.file})
				if !strings.Contains(read, f.old) || strings.Contains(read, "\ufffd") {
					t.Fatalf("%s: Read shows %q; want the decoded text", f.file, read)
				}
				out := callOK(t, dir, tool.Name, tool.WriteCall(f.file, f.old, f.new))
				if strings.Contains(out, "\ufffd") || strings.ContainsRune(out, 0) {
					t.Errorf("%s: the result shows undecoded bytes: %q", f.file, out)
				}
				disk := gittest.ReadFile(t, dir, f.file)
				blob := gittest.Git(t, dir, "cat-file", "blob", "refs/edits/s:"+f.file)
				if f.byGit {
					// git's own reading of the new bytes is the UTF-8 result.
					cleaned := gittest.Git(t, dir, "hash-object", "--path="+f.file, f.file)
					if wantID := gittest.Git(t, dir, "hash-object", ref); cleaned != wantID {
						t.Fatalf("%s: git reads the new bytes\n% x\nas a blob other than the UTF-8 result %q", f.file, disk, want)
					}
					if blob != want {
						t.Errorf("%s: the session's blob is %q; want the UTF-8 result %q", f.file, blob, want)
					}
				} else {
					if wantDisk := latin1(t, want); disk != wantDisk {
						t.Fatalf("%s: on disk\n% x\nwant the result in Windows-1252\n% x", f.file, disk, wantDisk)
					}
					if blob != disk {
						t.Errorf("%s: the session's blob is not the bytes on disk:\n% x", f.file, blob)
					}
				}
			}
			if log := gittest.Git(t, dir, "log", "--format=%b", "refs/edits/s"); strings.Contains(log, "Edit-Op: sync") {
				t.Errorf("a sync commit in the session:\n%s", log)
			}
			for _, f := range declaredFiles {
				callOK(t, dir, "text_editor", map[string]any{"command": "undo_edit", "path": f.file})
				if got := gittest.ReadFile(t, dir, f.file); got != original[f.file] {
					t.Errorf("%s after undo:\n% x\nwant\n% x", f.file, got, original[f.file])
				}
			}
			var refs []string
			for _, f := range declaredFiles {
				refs = append(refs, "ref-"+f.file)
			}
			if st := gittest.StatusExcept(t, dir, refs...); st != "" {
				t.Errorf("git status after the undos:\n%s", st)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// A new file whose path declares an encoding is written in it: git reads
// it back as the agent's text.
func TestDeclaredEncodingNewFile(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{".gitattributes": "*.ru working-tree-encoding=cp1251\n"})
	const body = "Новый файл\nстрока два\n"
	callOK(t, dir, "text_editor", map[string]any{"command": "create", "path": "a.ru", "file_text": body})
	disk := gittest.ReadFile(t, dir, "a.ru")
	// "Новый" in Windows-1251.
	if !strings.HasPrefix(disk, "\xcd\xee\xe2\xfb\xe9 ") {
		t.Fatalf("a.ru on disk: % x", disk)
	}
	gittest.WriteFile(t, dir, "utf8.txt", body)
	if got, want := gittest.Git(t, dir, "hash-object", "--path=a.ru", "a.ru"), gittest.Git(t, dir, "hash-object", "utf8.txt"); got != want {
		t.Fatalf("git reads a.ru (% x) as a blob other than the text sent", disk)
	}
	if blob := gittest.Git(t, dir, "cat-file", "blob", "refs/edits/s:a.ru"); blob != body {
		t.Errorf("the session records %q; want the UTF-8 text as git add stores it", blob)
	}
	gittest.Fsck(t, dir)
}

// What git-edit cannot read or write in a file's declared encoding is
// refused by every tool that reads or edits the file, saying what is
// wrong and what to do; nothing changes.
func TestDeclaredEncodingRefusals(t *testing.T) {
	cases := []struct {
		name, attrs, file, content string
		old, new                   string
		says                       string
	}{
		{"an encoding nobody names so", "x.txt encoding=klingon\n", "x.txt", "abc\n", "abc", "abd",
			"x.txt has encoding=klingon in its git attributes, an encoding git-edit does not know (unknown encoding \"klingon\"); nothing was read or changed. Name it in .gitattributes as IANA or the WHATWG Encoding Standard does (windows-1251, ISO-8859-1, Shift_JIS, UTF-16LE)"},
		{"bytes that are not Shift_JIS", "x.txt encoding=Shift_JIS\n", "x.txt", "ok\nbad \x81\x20 here\n", "ok", "fine",
			"x.txt is declared Shift_JIS (encoding=Shift_JIS in its git attributes), but not in the declared encoding: its bytes are not Shift_JIS text (line 2 has bytes that decode to no character); git-edit reads and writes it only in that encoding, and nothing was read or changed. Correct the file's bytes or its attribute"},
		{"an odd number of bytes in a file declared UTF-16LE", "x.txt encoding=UTF-16LE\n", "x.txt", "odd", "odd", "even",
			"x.txt is declared UTF-16LE (encoding=UTF-16LE in its git attributes), but not in the declared encoding: its bytes are not UTF-16LE text (line 1 has bytes that decode to no character)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{".gitattributes": c.attrs, c.file: c.content})
			before := observe(t, dir)
			calls := map[string]map[string]any{
				"text_editor view": {"command": "view", "path": c.file},
				"Read":             {"file_path": c.file},
			}
			for _, tool := range ops.Registry() {
				if tool.WriteCall != nil {
					calls[tool.Name] = tool.WriteCall(c.file, c.old, c.new)
				}
			}
			for name, args := range calls {
				tool, _, _ := strings.Cut(name, " ")
				raw, _ := json.Marshal(args)
				res, err := ops.Call(context.Background(), ops.Options{Root: dir, Session: "s"}, tool, raw)
				if err != nil || res.OK || !strings.Contains(res.Text, c.says) {
					t.Errorf("%s: %v %v %s\nwant the refusal to say %q", name, err, res.OK, res.Text, c.says)
				}
			}
			if after := observe(t, dir); after != before {
				t.Fatalf("a refusal changed something:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
}

// Text the declared encoding cannot hold is refused, naming the line and
// the character; the file and the session stay as they were.
func TestDeclaredEncodingTextItCannotHold(t *testing.T) {
	dir, _ := newDeclared(t)
	before := observe(t, dir)
	callOK(t, dir, "Read", map[string]any{"file_path": "ru.txt"})
	raw, _ := json.Marshal(map[string]any{"file_path": "ru.txt", "old_string": "вторая строка", "new_string": "вторая строка\nи 中文 здесь"})
	res, err := ops.Call(context.Background(), ops.Options{Root: dir, Session: "s"}, "Edit", raw)
	const says = "line 3 has '中' (U+4E2D), which cp1251 cannot encode"
	if err != nil || res.OK || !strings.Contains(res.Text, says) {
		t.Fatalf("%v %v %s\nwant a refusal saying %q", err, res.OK, res.Text, says)
	}
	// Read records what the agent saw (advisory), nothing else.
	if after := observe(t, dir); after != before {
		t.Fatalf("the refusal changed something:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}
