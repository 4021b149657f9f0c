package texteditor

import (
	"errors"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

func TestFenceTag(t *testing.T) {
	tests := []struct{ path, content, want string }{
		{"main.go", "package main\n", "go"},
		{"dir/sub/tool.py", "print('hi')\n", "python"},
		{"notes.unknownext", "hello\n", ""},
		{"noextension", "hello\n", ""},
		{"README.md", "# Title\n", "markdown"},
		{"data.json", "{}\n", "json"},
		{"x.cpp", "int main() {}\n", "cpp"},
		{"run", "#!/bin/bash\necho hi\n", "shell"},
		{"Makefile", "all:\n\ttrue\n", "makefile"},
		{"bom.py", text.BOM + "x = 1\n", "python"},
	}
	for _, tt := range tests {
		if got := FenceTag(tt.path, []byte(tt.content)); got != tt.want {
			t.Errorf("FenceTag(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

func TestRenderView(t *testing.T) {
	const goSrc = "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n"
	tests := []struct {
		name, path, content string
		viewRange           []int
		want                string
	}{
		{"go file", "cmd/main.go", goSrc, nil, "```go\n" + goSrc + "```"},
		{"python file", "a.py", "x = 1\n", nil, "```python\nx = 1\n```"},
		{"unknown extension", "a.zzz9", "plain\n", nil, "```\nplain\n```"},
		{"no final newline gets one before the fence", "a.zzz9", "plain", nil, "```\nplain\n```"},
		{"empty file", "a.zzz9", "", nil, "```\n```"},
		{"BOM not shown", "a.zzz9", text.BOM + "x\n", nil, "```\nx\n```"},
		{"CRLF shown as is", "a.zzz9", "a\r\nb\r\n", nil, "```\na\r\nb\r\n```"},
		{"backticks inside a line do not grow the fence", "a.zzz9", "say ```` here\n", nil, "```\nsay ```` here\n```"},
		{"fence grows past a line-start run", "a.zzz9", "```\ncode\n```\n", nil, "````\n```\ncode\n```\n````"},
		{"fence grows past the longest run", "a.zzz9", "``\n`````x\n```\n", nil, "``````\n``\n`````x\n```\n``````"},
		{"indented run counts", "a.zzz9", "   ````\n", nil, "`````\n   ````\n`````"},
		{"run on the last line without newline", "a.zzz9", "x\n```", nil, "````\nx\n```\n````"},
		{"range", "a.zzz9", "1\n2\n3\n4\n", []int{2, 3}, "```\n2\n3\n```"},
		{"range to end", "a.zzz9", "1\n2\n3\n4\n", []int{3, -1}, "```\n3\n4\n```"},
		{"range single line", "a.zzz9", "1\n2\n3\n4\n", []int{4, 4}, "```\n4\n```"},
		{"range last line without newline", "a.zzz9", "1\n2", []int{2, -1}, "```\n2\n```"},
		{"range in BOM CRLF file", "a.zzz9", text.BOM + "1\r\n2\r\n3\r\n", []int{1, 2}, "```\n1\r\n2\r\n```"},
		{"range fence only counts the shown text", "a.zzz9", "````\nx\n", []int{2, 2}, "```\nx\n```"},
		{"range keeps the file's language", "m.go", goSrc, []int{3, 5}, "```go\nfunc main() {\n\tprintln(\"hi\")\n}\n```"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := RenderView(tt.path, []byte(tt.content), tt.viewRange)
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestRenderViewErrors(t *testing.T) {
	tests := []struct {
		name, content string
		viewRange     []int
		want          string
		sentinel      error
	}{
		{"start past the end", "1\n2\n3\n", []int{4, -1},
			"line out of range: view_range start 4 is outside f.txt, which has 3 lines; use a start from 1 to 3", ErrOutOfRange},
		{"end past the end", "1\n2\n3\n", []int{2, 9},
			"line out of range: view_range end 9 is outside f.txt, which has 3 lines; use an end from 2 to 3, or -1 for the last line", ErrOutOfRange},
		{"one line", "1", []int{1, 2},
			"line out of range: view_range end 2 is outside f.txt, which has 1 line; use an end from 1 to 1, or -1 for the last line", ErrOutOfRange},
		{"empty file", "", []int{1, -1},
			`line out of range: f.txt is empty, so it has no lines to show; view it without "view_range"`, ErrOutOfRange},
		{"BOM-only file", text.BOM, []int{1, 1},
			`line out of range: f.txt is empty, so it has no lines to show; view it without "view_range"`, ErrOutOfRange},
		{"start zero", "1\n", []int{0, 1},
			"line out of range: view_range start 0 is outside f.txt, which has 1 line; use a start from 1 to 1", ErrOutOfRange},
		{"end before start", "1\n2\n", []int{2, 1},
			"line out of range: view_range end 1 is outside f.txt, which has 2 lines; use an end from 2 to 2, or -1 for the last line", ErrOutOfRange},
		{"malformed", "1\n", []int{1},
			`invalid arguments: "view_range" must have exactly 2 numbers, got 1; use [start, end] with 1-based line numbers, or [start, -1] to view to the end of the file`, ErrInvalidArgs},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := RenderView("f.txt", []byte(tt.content), tt.viewRange)
			if err == nil || !errors.Is(err, tt.sentinel) || err.Error() != tt.want {
				t.Errorf("error\n got: %v\nwant: %s", err, tt.want)
			}
		})
	}
}

func TestRenderViewLimits(t *testing.T) {
	line := strings.Repeat("x", 99) + "\n"         // 100 bytes, 100 characters
	atLimit := strings.Repeat("é", MaxViewBytes/2) // 409,600 bytes, 204,800 characters
	if _, err := RenderView("f.txt", []byte(atLimit), nil); err != nil {
		t.Fatalf("at the byte limit: %v", err)
	}

	overBytes := []byte(strings.Repeat(line, 5000)) // 500,000 bytes
	_, err := RenderView("f.txt", overBytes, nil)
	want := `too large: f.txt is 500,000 bytes, more than the 409,600-byte (400 KiB) limit for viewing a whole file; view part of it with "view_range": [start, end] (it has 5,000 lines)`
	if err == nil || err.Error() != want || !errors.Is(err, ErrTooLarge) {
		t.Errorf("error\n got: %v\nwant: %s", err, want)
	}

	// A ranged view of a big file is fine while the shown text is small.
	got, err := RenderView("f.txt", overBytes, []int{4999, -1})
	if err != nil || got != "```text\n"+line+line+"```" {
		t.Errorf("ranged view of a big file = %q, %v", got, err)
	}

	// Under 400 KiB but over 400,000 characters (ASCII: 1 byte a character).
	overChars := []byte(strings.Repeat("z", MaxViewChars+1))
	_, err = RenderView("f.txt", overChars, nil)
	want = `too large: f.txt has 400,001 characters, more than the 400,000-character limit for viewing a whole file; view part of it with "view_range": [start, end] (it has 1 line)`
	if err == nil || err.Error() != want || !errors.Is(err, ErrTooLarge) {
		t.Errorf("error\n got: %v\nwant: %s", err, want)
	}

	// The character limit applies to the text a range shows.
	big := []byte("a\n" + strings.Repeat("z", MaxViewChars+1) + "\nb\n")
	_, err = RenderView("f.txt", big, []int{1, 2})
	want = `too large: lines 1 to 2 of f.txt have 400,004 characters, more than the 400,000-character limit for a view; view fewer lines with a smaller "view_range"`
	if err == nil || err.Error() != want || !errors.Is(err, ErrTooLarge) {
		t.Errorf("error\n got: %v\nwant: %s", err, want)
	}
	if got, err := RenderView("f.txt", big, []int{3, 3}); err != nil || got != "```text\nb\n```" {
		t.Errorf("small range of a big file = %q, %v", got, err)
	}
}

func TestCodeBlock(t *testing.T) {
	if got := CodeBlock("x.go", []byte(text.BOM+"package x")); got != "```go\npackage x\n```" {
		t.Errorf("CodeBlock = %q", got)
	}
}
