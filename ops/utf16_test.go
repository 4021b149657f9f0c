package ops_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/ops/text"
	"github.com/git-edit/git-edit/repo/gittest"
)

// utf16Text is the text of the UTF-16 files below: CRLF lines, letters
// outside ASCII and a character outside the BMP (a surrogate pair).
const utf16Text = "wörld\r\nsecond 中 line 😀\r\nthird\r\n"

// utf16Encodings are the byte orders, each with its mark and the test's
// own encoder (the standard library's, independent of text.EncodeText).
var utf16Encodings = []struct {
	name string
	file string
	enc  func(s string) []byte // s (UTF-8, no BOM) as UTF-16 with the mark
}{
	{"UTF-16LE", "le.txt", func(s string) []byte {
		b := []byte{0xff, 0xfe}
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u), byte(u>>8))
		}
		return b
	}},
	{"UTF-16BE", "be.txt", func(s string) []byte {
		b := []byte{0xfe, 0xff}
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u>>8), byte(u))
		}
		return b
	}},
}

// callOK runs one tool call in session s and fails the test unless it
// succeeds; it returns the text an agent reads.
func callOK(t *testing.T, dir, tool string, args any) string {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ops.Call(context.Background(), ops.Options{Root: dir, Session: "s"}, tool, raw)
	if err != nil || !res.OK {
		t.Fatalf("%s %s: refused: %v %s", tool, raw, err, res.Text)
	}
	return res.Text
}

// Every tool that writes edits a UTF-16 file (either byte order, with its
// mark, CRLF) exactly as it edits a UTF-8 file with a BOM and the same
// text: the bytes on disk are that result in UTF-16 with the same mark,
// byte order and line endings; the agent reads decoded text; the session
// records the bytes on disk (no working-tree-encoding here) with no sync
// commit; undo puts back the exact bytes; git fsck is clean.
func TestUTF16EveryWritingTool(t *testing.T) {
	for _, tool := range ops.Registry() {
		if tool.WriteCall == nil {
			continue
		}
		t.Run(tool.Name, func(t *testing.T) {
			files := map[string]string{"ref.txt": text.BOM + utf16Text}
			for _, e := range utf16Encodings {
				files[e.file] = string(e.enc(utf16Text))
			}
			dir := gittest.NewWithCommit(t, files)
			head := gittest.Rev(t, dir, "HEAD")

			// The reference: the same call on the UTF-8 file.
			callOK(t, dir, "Read", map[string]any{"file_path": "ref.txt"})
			callOK(t, dir, tool.Name, tool.WriteCall("ref.txt", "wörld", "earth 🌍"))
			want := gittest.ReadFile(t, dir, "ref.txt")
			if want == files["ref.txt"] || !strings.Contains(want, "earth 🌍") || !strings.HasPrefix(want, text.BOM) {
				t.Fatalf("the reference edit of the UTF-8 file gave %q", want)
			}
			want = strings.TrimPrefix(want, text.BOM)

			for _, e := range utf16Encodings {
				read := callOK(t, dir, "Read", map[string]any{"file_path": e.file})
				if !strings.Contains(read, "second 中 line 😀") || strings.ContainsRune(read, 0) {
					t.Fatalf("%s: Read shows %q; want the decoded text", e.name, read)
				}
				out := callOK(t, dir, tool.Name, tool.WriteCall(e.file, "wörld", "earth 🌍"))
				if strings.ContainsRune(out, 0) || strings.Contains(out, "\ufffd") {
					t.Errorf("%s: the result shows undecoded bytes: %q", e.name, out)
				}
				disk := gittest.ReadFile(t, dir, e.file)
				if wantDisk := string(e.enc(want)); disk != wantDisk {
					t.Fatalf("%s: on disk\n% x\nwant (the UTF-8 result %q in %s)\n% x", e.name, disk, want, e.name, wantDisk)
				}
				if got := gittest.Git(t, dir, "cat-file", "blob", "refs/edits/s:"+e.file); got != disk {
					t.Errorf("%s: the session's blob is not the bytes on disk:\n% x", e.name, got)
				}
				view := callOK(t, dir, "text_editor", map[string]any{"command": "view", "path": e.file})
				if !strings.Contains(view, "earth 🌍") || strings.ContainsRune(view, 0) {
					t.Errorf("%s: view shows %q; want the decoded text", e.name, view)
				}
			}
			// Three edits on top of HEAD, none of them a sync commit.
			if log := gittest.Git(t, dir, "log", "--format=%s%n%b", head+"..refs/edits/s"); strings.Contains(log, "Edit-Op: sync") || strings.Count(log, "Edit-Op: edit") != 3 {
				t.Errorf("the session's history:\n%s", log)
			}
			for _, e := range utf16Encodings {
				callOK(t, dir, "text_editor", map[string]any{"command": "undo_edit", "path": e.file})
				if got := gittest.ReadFile(t, dir, e.file); got != files[e.file] {
					t.Errorf("%s: after undo\n% x\nwant\n% x", e.name, got, files[e.file])
				}
			}
			if st := gittest.StatusExcept(t, dir, "ref.txt"); st != "" {
				t.Errorf("git status after the undos:\n%s", st)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// A file that starts with a UTF-16 byte order mark but is not well-formed
// UTF-16 is refused as not text by every tool that reads or edits it, and
// the refusal says what is broken; nothing changes. (text_editor write
// may still replace it whole, as it may a binary file.)
func TestUTF16MalformedRefused(t *testing.T) {
	files := map[string]string{
		"odd.txt":  "\xff\xfea\x00b",             // 5 bytes
		"lone.txt": "\xfe\xff\x00a\xd8\x3d\x00b", // U+D83D, then "b"
	}
	says := map[string]string{
		"odd.txt":  "is not valid UTF-16: it starts with a UTF-16LE byte order mark but has an odd number of bytes (5)",
		"lone.txt": "is not valid UTF-16: it starts with a UTF-16BE byte order mark but has a lone surrogate (U+D83D) at byte 4",
	}
	dir := gittest.NewWithCommit(t, files)
	before := observe(t, dir)
	for path, want := range says {
		calls := map[string]map[string]any{
			"text_editor view": {"command": "view", "path": path},
			"Read":             {"file_path": path},
		}
		for _, tool := range ops.Registry() {
			if tool.WriteCall != nil && tool.Name != "text_editor" {
				calls[tool.Name] = tool.WriteCall(path, "a", "x")
			}
		}
		for name, args := range calls {
			tool, _, _ := strings.Cut(name, " ")
			raw, _ := json.Marshal(args)
			res, err := ops.Call(context.Background(), ops.Options{Root: dir, Session: "s"}, tool, raw)
			if err != nil || res.OK || !strings.Contains(res.Text, want) || !strings.Contains(res.Text, path) {
				t.Errorf("%s of %s: %v %v %s\nwant the refusal to name the file and say %q", name, path, err, res.OK, res.Text, want)
			}
		}
	}
	if after := observe(t, dir); after != before {
		t.Fatalf("a refusal changed something:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// apply_patch's Move keeps a UTF-16 file UTF-16, in its byte order.
func TestUTF16MoveKeepsTheEncoding(t *testing.T) {
	for _, e := range utf16Encodings {
		t.Run(e.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{e.file: string(e.enc(utf16Text))})
			callOK(t, dir, "apply_patch", map[string]any{"input": "*** Begin Patch\n*** Update File: " + e.file + "\n*** Move to: moved.txt\n@@\n-wörld\n+earth 🌍\n*** End Patch"})
			want := string(e.enc(strings.Replace(utf16Text, "wörld", "earth 🌍", 1)))
			if got := gittest.ReadFile(t, dir, "moved.txt"); got != want {
				t.Fatalf("moved.txt:\n% x\nwant\n% x", got, want)
			}
			if got := gittest.ReadFile(t, dir, e.file); got != gittest.Missing {
				t.Fatalf("%s is still there: %q", e.file, got)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// A file git checks out as UTF-16 (working-tree-encoding=UTF-16LE-BOM) is
// edited as text: git's own `git diff` of the worktree, which decodes it
// through the attribute, shows exactly the agent's change, and undo puts
// back the bytes git wrote. (What the session stores for it is the
// storage side of issue 13, not checked here.)
func TestUTF16WorkingTreeEncoding(t *testing.T) {
	dir := gittest.New(t)
	gittest.WriteFile(t, dir, ".gitattributes", "*.txt working-tree-encoding=UTF-16LE-BOM\n")
	gittest.WriteFile(t, dir, "w.txt", string(utf16Encodings[0].enc(utf16Text)))
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "person's commit")
	// Let git write the file itself, as a checkout does.
	gittest.Git(t, dir, "rm", "-q", "--cached", "w.txt")
	gittest.Git(t, dir, "reset", "-q", "--hard")
	original := gittest.ReadFile(t, dir, "w.txt")
	if !strings.HasPrefix(original, "\xff\xfe") {
		t.Fatalf("git checked out % x", original)
	}
	callOK(t, dir, "Read", map[string]any{"file_path": "w.txt"})
	callOK(t, dir, "Edit", map[string]any{"file_path": "w.txt", "old_string": "second 中 line", "new_string": "2nd 中 line"})
	want := string(utf16Encodings[0].enc(strings.Replace(utf16Text, "second", "2nd", 1)))
	if got := gittest.ReadFile(t, dir, "w.txt"); got != want {
		t.Fatalf("on disk\n% x\nwant\n% x", got, want)
	}
	diff := gittest.Git(t, dir, "diff", "-U0", "--no-color", "w.txt")
	if !strings.Contains(diff, "\n-second 中 line 😀\r\n+2nd 中 line 😀\r\n") || strings.Count(diff, "\n+") != 2 || strings.Count(diff, "\n-") != 2 {
		t.Errorf("git diff of the worktree:\n%s", diff)
	}
	callOK(t, dir, "text_editor", map[string]any{"command": "undo_edit", "path": "w.txt"})
	if got := gittest.ReadFile(t, dir, "w.txt"); got != original {
		t.Fatalf("after undo\n% x\nwant\n% x", got, original)
	}
	if st := gittest.Status(t, dir); st != "" {
		t.Errorf("git status after undo:\n%s", st)
	}
	gittest.Fsck(t, dir)
}
