package texteditor

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

func TestPlanStrReplace(t *testing.T) {
	tests := []struct {
		name, content, old, new, want string
		line                          int
		crlfFix                       bool
	}{
		{name: "LF file", content: "a\nfoo bar\nc\n", old: "foo", new: "baz", want: "a\nbaz bar\nc\n", line: 2},
		{name: "multi-line LF", content: "a\nb\nc\n", old: "a\nb\n", new: "x\n", want: "x\nc\n", line: 1},
		{name: "delete with empty new_str", content: "a\nb\nc\n", old: "b\n", new: "", want: "a\nc\n", line: 2},
		{name: "CRLF file, LF old_str and new_str", content: "one\r\ntwo\r\nthree\r\n", old: "one\ntwo\n", new: "uno\ndos\ntres\n",
			want: "uno\r\ndos\r\ntres\r\nthree\r\n", line: 1, crlfFix: true},
		{name: "CRLF file, exact single-line match, LF new_str", content: "one\r\ntwo\r\n", old: "two", new: "2\n2b",
			want: "one\r\n2\r\n2b\r\n", line: 2},
		{name: "CRLF file, CRLF old_str as is", content: "one\r\ntwo\r\n", old: "one\r\n", new: "1\r\n", want: "1\r\ntwo\r\n", line: 1},
		{name: "CRLF file, old_str starting with LF does not split a CRLF", content: "foo\r\nbar\r\n", old: "\nbar", new: "\nbaz",
			want: "foo\r\nbaz\r\n", line: 1, crlfFix: true},
		{name: "CRLF file, leading LF matches a real lone LF", content: "a\r\nb\r\nfoo\nbar\r\n", old: "\nbar", new: "\nbaz",
			want: "a\r\nb\r\nfoo\r\nbaz\r\n", line: 3},
		{name: "BOM file, first line", content: text.BOM + "first\nsecond\n", old: "first", new: "1st", want: text.BOM + "1st\nsecond\n", line: 1},
		{name: "no final newline, last line", content: "a\nlast", old: "last", new: "final", want: "a\nfinal", line: 2},
		{name: "no final newline, add lines at end", content: "a\nlast", old: "last", new: "last\nmore", want: "a\nlast\nmore", line: 2},
		{name: "tabs kept", content: "func f() {\n\treturn 1\n}\n", old: "\treturn 1", new: "\treturn 2", want: "func f() {\n\treturn 2\n}\n", line: 2},
		{name: "non-ASCII", content: "naïve café\n日本語\n", old: "日本", new: "中国", want: "naïve café\n中国語\n", line: 2},
		{name: "mixed file, LF majority: CRLF line untouched elsewhere", content: "a\r\nb\nc\nd\n", old: "c\n", new: "C\nC2\n", want: "a\r\nb\nC\nC2\nd\n", line: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			content := []byte(tt.content)
			pl, err := PlanStrReplace("f.txt", content, tt.old, tt.new)
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			got, err := text.ApplyEdits(content, pl.Edits)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
			if pl.Line != tt.line || pl.CRLFFix != tt.crlfFix {
				t.Errorf("planned %+v, want line %d crlfFix %v", pl, tt.line, tt.crlfFix)
			}
			if string(content[pl.Offset:pl.Offset+len(pl.Old)]) != pl.Old {
				t.Errorf("Old %q is not at Offset %d", pl.Old, pl.Offset)
			}
		})
	}
}

func TestPlanStrReplaceNoChange(t *testing.T) {
	for _, tt := range []struct{ content, old, new string }{
		{"a\nb\n", "a", "a"},
		{"a\r\nb\r\n", "a\nb", "a\nb"},      // same after CRLF conversion
		{"a\r\nb\r\n", "a\nb", "a\r\nb"},    // new_str already CRLF
		{"a\r\nb\r\n", "a\r\nb", "a\nb"},    // old_str CRLF, new_str converted to it
		{"x\r\ny\r\n", "y\r\n", "y\n"},      // exact match, new converted
		{"x\ny\n", "y", strings.Clone("y")}, // a different string with the same text
	} {
		pl, err := PlanStrReplace("f", []byte(tt.content), tt.old, tt.new)
		if err != nil || pl.Edits != nil {
			t.Errorf("PlanStrReplace(%q, %q, %q) = %v, %v; want no edits, no error", tt.content, tt.old, tt.new, pl.Edits, err)
		}
	}
	// Equal strings still have to be found.
	if _, err := PlanStrReplace("f", []byte("abc"), "zz", "zz"); !errors.Is(err, ErrNotFound) {
		t.Errorf("err = %v, want ErrNotFound", err)
	}
}

func TestPlanStrReplaceErrors(t *testing.T) {
	const notFound = "old_str not found in src/f.go; view the file and copy the exact text to replace, including whitespace, indentation and line breaks"
	many := strings.Repeat("x\n", 25)
	tests := []struct {
		name, content, old, want string
		sentinel                 error
	}{
		{"not found", "hello\n", "world", notFound, ErrNotFound},
		// The refusals teach as code_edit's do: the closest lines and the
		// first difference, after the text every refusal starts with.
		// (Whitespace, line-break and final-newline differences are
		// forgiven by the ladder now: TestPlanStrReplaceLadder.)
		{"a typo, in the middle of a block", "func f() {\n\tx := 1\n\treturn x\n}\n", "\tx := 1\n\treturn y\n", notFound + `
Did you mean lines 2-3? The file has:
     2		x := 1
     3		return x
The first difference is at line 3: the file has "\treturn x" where old_str line 2 has "\treturn y".`, ErrNotFound},
		{"two occurrences", "foo\nbar\nfoo\n", "foo",
			"old_str is not unique in src/f.go: found 2 occurrences of old_str, at lines 1 and 3; include more surrounding lines in old_str to make it unique", ErrAmbiguous},
		{"three occurrences", "a\nb\nc\nx\ne\nf\ng\nh\nx\nj\nk\nl\nm\nn\no\np\nx x\n", "x",
			"old_str is not unique in src/f.go: found 4 occurrences of old_str, at lines 4, 9 and 17 (2 times); include more surrounding lines in old_str to make it unique", ErrAmbiguous},
		{"overlapping occurrences", "say aaa\n", "aa",
			"old_str is not unique in src/f.go: found 2 occurrences of old_str (some of them overlap), at line 1 (2 times); include more surrounding lines in old_str to make it unique", ErrAmbiguous},
		{"CRLF retry ambiguous", "a\r\nb\r\na\r\nb\r\n", "a\nb",
			"old_str is not unique in src/f.go: found 2 occurrences of old_str, at lines 1 and 3; include more surrounding lines in old_str to make it unique", ErrAmbiguous},
		{"many occurrences are capped", many, "x",
			"old_str is not unique in src/f.go: found 25 occurrences of old_str, at lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 and 5 more lines; include more surrounding lines in old_str to make it unique", ErrAmbiguous},
		{"empty old_str", "abc", "",
			`invalid arguments: "old_str" is empty, and empty text cannot be located; to add text use "insert" with "insert_line", or "write" to replace the whole file`, ErrInvalidArgs},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pl, err := PlanStrReplace("src/f.go", []byte(tt.content), tt.old, "new")
			if err == nil {
				t.Fatalf("no error, pl.Edits %v", pl.Edits)
			}
			if !errors.Is(err, tt.sentinel) {
				t.Errorf("error does not wrap %v: %v", tt.sentinel, err)
			}
			if err.Error() != tt.want {
				t.Errorf("error\n got: %s\nwant: %s", err, tt.want)
			}
		})
	}
}

func TestPlanInsert(t *testing.T) {
	tests := []struct {
		name, content string
		line          int
		text, want    string
	}{
		{"at 0", "a\nb\n", 0, "x", "x\na\nb\n"},
		{"middle", "a\nb\n", 1, "x", "a\nx\nb\n"},
		{"after last line", "a\nb\n", 2, "x", "a\nb\nx\n"},
		{"trailing newline is the terminator", "a\nb\n", 1, "x\n", "a\nx\nb\n"},
		{"extra newline is an empty line", "a\nb\n", 1, "x\n\n", "a\nx\n\nb\n"},
		{"only a newline inserts one empty line", "a\nb\n", 1, "\n", "a\n\nb\n"},
		{"several lines", "a\nb\n", 1, "x\ny", "a\nx\ny\nb\n"},
		{"after last line of a file without final newline", "a\nb", 2, "x", "a\nb\nx"},
		{"after last line without final newline, x with newline", "a\nb", 2, "x\ny\n", "a\nb\nx\ny"},
		{"empty line after last line of a file without final newline", "a", 1, "\n", "a\n\n"},
		{"trailing empty line after last line without final newline", "a", 1, "x\n\n", "a\nx\n\n"},
		{"CRLF: empty line after last line without final newline", "a\r\nb", 2, "\n", "a\r\nb\r\n\r\n"},
		{"middle of a file without final newline", "a\nb", 1, "x", "a\nx\nb"},
		{"empty file", "", 0, "c", "c\n"},
		{"empty file, several lines", "", 0, "c\nd\n", "c\nd\n"},
		{"CRLF file", "a\r\nb\r\n", 1, "x\ny\n", "a\r\nx\r\ny\r\nb\r\n"},
		{"CRLF file without final newline", "a\r\nb", 2, "x", "a\r\nb\r\nx"},
		{"CRLF file, agent CRLF kept", "a\r\nb\r\n", 0, "x\r\n", "x\r\na\r\nb\r\n"},
		{"BOM file at 0 goes after the BOM", text.BOM + "a\n", 0, "x", text.BOM + "x\na\n"},
		{"BOM-only file", text.BOM, 0, "x", text.BOM + "x\n"},
		{"tabs kept", "\ta\n", 1, "\tb\n", "\ta\n\tb\n"},
		{"single line without newline, at 0", "a", 0, "x", "x\na"},
		{"LF file, agent CRLF terminator becomes the file's", "a\n", 1, "x\r\n", "a\nx\n"},
		// Negative lines count from the end (the MCP text editors'
		// "insert_line = -1: insert at the end").
		{"-1 after the last line", "a\nb\n", -1, "x", "a\nb\nx\n"},
		{"-2 before the last line", "a\nb\n", -2, "x", "a\nx\nb\n"},
		{"-(count+1) before the first line", "a\nb\n", -3, "x", "x\na\nb\n"},
		{"-1 after the last line without final newline", "a\nb", -1, "x", "a\nb\nx"},
		{"-1 into an empty file", "", -1, "c", "c\n"},
		{"-1 in a CRLF file", "a\r\nb\r\n", -1, "x\n", "a\r\nb\r\nx\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			content := []byte(tt.content)
			pl, err := PlanInsert("f.txt", content, tt.line, tt.text)
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			got, err := text.ApplyEdits(content, pl.Edits)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestPlanInsertErrors(t *testing.T) {
	tests := []struct {
		name, content string
		line          int
		text, want    string
		sentinel      error
	}{
		{"past the end", "a\nb\n", 3, "x",
			"line out of range: insert_line 3 is outside f.txt, which has 2 lines; use a number from 0 (before the first line) to 2 (after the last line)", ErrOutOfRange},
		{"one line", "a", 5, "x",
			"line out of range: insert_line 5 is outside f.txt, which has 1 line; use a number from 0 (before the first line) to 1 (after the last line)", ErrOutOfRange},
		{"empty file", "", 1, "x",
			"line out of range: insert_line 1 is outside f.txt, which has 0 lines; use a number from 0 (before the first line) to 0 (after the last line)", ErrOutOfRange},
		{"negative past the start", "a\n", -3, "x",
			"line out of range: insert_line -3 is outside f.txt, which has 1 line; counting from the end, -1 inserts after the last line and -2 before the first, or use a number from 0 (before the first line) to 1 (after the last line)", ErrOutOfRange},
		{"negative into an empty file", "", -2, "x",
			"line out of range: insert_line -2 is outside f.txt, which has 0 lines; counting from the end, -1 inserts after the last line and -1 before the first, or use a number from 0 (before the first line) to 0 (after the last line)", ErrOutOfRange},
		{"empty new_str", "a\n", 0, "",
			`invalid arguments: "new_str" is empty, so there is nothing to insert; give the lines to insert in "new_str"`, ErrInvalidArgs},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := PlanInsert("f.txt", []byte(tt.content), tt.line, tt.text)
			if err == nil || !errors.Is(err, tt.sentinel) || err.Error() != tt.want {
				t.Errorf("error\n got: %v\nwant: %s", err, tt.want)
			}
		})
	}
}

func TestPlanWrite(t *testing.T) {
	tests := []struct {
		name, old string
		exists    bool
		text      string
		want      string
	}{
		{"new file as is", "", false, "a\nb", "a\nb"},
		{"new file keeps CRLF and BOM given", "", false, text.BOM + "a\r\nb\n", text.BOM + "a\r\nb\n"},
		{"LF file", "x\n", true, "a\nb\n", "a\nb\n"},
		{"CRLF file converts lone LF", "x\r\ny\r\n", true, "a\nb\r\nc", "a\r\nb\r\nc"},
		{"BOM file keeps its BOM", text.BOM + "x\n", true, "a\n", text.BOM + "a\n"},
		{"BOM file, text with BOM not doubled", text.BOM + "x\n", true, text.BOM + "a\n", text.BOM + "a\n"},
		{"BOM + CRLF file", text.BOM + "x\r\n", true, "a\nb\n", text.BOM + "a\r\nb\r\n"},
		{"existing empty file", "", true, "a\nb", "a\nb"},
		{"no BOM added to a file without one", "x\n", true, "a", "a"},
		{"empty text keeps BOM", text.BOM + "x", true, "", text.BOM},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := []byte(tt.old)
			got := PlanWrite(old, tt.exists, tt.text)
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if !bytes.Equal(old, []byte(tt.old)) {
				t.Errorf("old modified")
			}
		})
	}
}

func BenchmarkStrReplace10MB(b *testing.B) {
	var buf bytes.Buffer
	for i := 0; buf.Len() < 10<<20; i++ {
		buf.WriteString("\tline of some ordinary source text, number ")
		buf.WriteString(strings.Repeat("x", i%7))
		buf.WriteString("\n")
		if i == 100000 {
			buf.WriteString("\tthe unique target line\n")
		}
	}
	content := buf.Bytes()
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		pl, err := PlanStrReplace("big.txt", content, "\tthe unique target line\n", "\tthe replaced line\n")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := text.ApplyEdits(content, pl.Edits); err != nil {
			b.Fatal(err)
		}
	}
}
