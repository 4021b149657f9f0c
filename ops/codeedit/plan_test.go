package codeedit

import (
	"errors"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

func TestIsFilenameLine(t *testing.T) {
	tests := []struct {
		line, path string
		want       bool
	}{
		{"src/utils.py", "src/utils.py", true},
		{"utils.py", "src/utils.py", true},
		{"  utils.py  ", "src/utils.py", true},
		{"/home/me/proj/src/utils.py", "src/utils.py", true},
		{"./src/utils.py", "src/utils.py", true},
		{`src\utils.py`, "src/utils.py", true},
		{"`src/utils.py`", "src/utils.py", true},
		{"**src/utils.py**", "src/utils.py", true},
		{"src/utils.py:", "src/utils.py", true},
		{"utils.py", "./src/utils.py", true},
		// Not filename lines: code, other files, no path shape.
		{"xutils.py", "src/utils.py", false},
		{"other/utils.py", "src/utils.py", false},
		{"import utils.py", "src/utils.py", false},
		{"# src/utils.py", "src/utils.py", false},
		{"os.path", "path", false},
		{"Makefile", "Makefile", false},
		{"utils", "src/utils", false},
		{"src/utils.py.bak", "src/utils.py", false},
		{"", "src/utils.py", false},
		{"utils.py()", "src/utils.py", false},
	}
	for _, tc := range tests {
		if got := isFilenameLine(tc.line, tc.path); got != tc.want {
			t.Errorf("isFilenameLine(%q, %q) = %v, want %v", tc.line, tc.path, got, tc.want)
		}
	}
}

func TestStrip(t *testing.T) {
	tests := []struct {
		name, search, replace string
		wantS, wantR          string
	}{
		{
			name:   "filename line and fences on both",
			search: "src/app.py\n```python\nx = 1\n```\n", replace: "src/app.py\n```python\nx = 2\n```",
			wantS: "x = 1\n", wantR: "x = 2\n",
		},
		{
			name:   "fences only on replace",
			search: "x = 1\n", replace: "```\nx = 2\n```\n",
			wantS: "x = 1\n", wantR: "x = 2\n",
		},
		{
			name:   "whole Aider block pasted across both",
			search: "src/app.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\n", replace: "=======\nx = 2\n>>>>>>> REPLACE\n```\n",
			wantS: "x = 1\n", wantR: "x = 2\n",
		},
		{
			name:   "markers without fences",
			search: "<<<<<<< SEARCH\nx = 1", replace: "x = 2\n>>>>>>> REPLACE",
			wantS: "x = 1", wantR: "x = 2\n",
		},
		{
			name:   "a bare ======= is content without a worded marker",
			search: "Title\n=======\n", replace: "=======\nTitle\n",
			wantS: "Title\n=======\n", wantR: "=======\nTitle\n",
		},
		{
			name:   "wrappers in the middle are content",
			search: "a\n```\nb\n", replace: "a\nsrc/app.py\nb\n",
			wantS: "a\n```\nb\n", wantR: "a\nsrc/app.py\nb\n",
		},
		{
			name:   "a lone filename line is not stripped",
			search: "app.py", replace: "app.py",
			wantS: "app.py", wantR: "app.py",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			worded := hasWordedMarker(tc.search) || hasWordedMarker(tc.replace)
			s, sw := stripSearch("src/app.py", tc.search, worded)
			r, _ := stripReplace("src/app.py", tc.replace, worded, true)
			if s != tc.wantS || r != tc.wantR {
				t.Errorf("got %q / %q, want %q / %q", s, r, tc.wantS, tc.wantR)
			}
			_ = sw
		})
	}
}

func TestPlanStripsWrappers(t *testing.T) {
	content := "def f():\n    return 1\n"
	got, r := plan(t, "src/app.py", content,
		"src/app.py\n```python\ndef f():\n    return 1\n```\n",
		"```python\ndef f():\n    return 2\n```\n")
	check(t, got, r, "def f():\n    return 2\n", StageExact, 1)
	if !strings.Contains(r.Message, "Stripped from search: the filename line and the ``` fences.") ||
		!strings.Contains(r.Message, "Stripped from replace: the ``` fences.") {
		t.Errorf("message: %s", r.Message)
	}
}

func TestPlanKeepsWrappersThatAreContent(t *testing.T) {
	t.Run("fenced block in Markdown", func(t *testing.T) {
		content := "# Demo\n\n```sh\nmake\n```\n\nDone.\n"
		got, r := plan(t, "README.md", content, "```sh\nmake\n```\n", "```sh\nmake test\n```\n")
		check(t, got, r, "# Demo\n\n```sh\nmake test\n```\n\nDone.\n", StageExact, 3)
		if !strings.Contains(r.Message, "matched as file content") {
			t.Errorf("message: %s", r.Message)
		}
	})
	t.Run("Markdown replace that adds a fence", func(t *testing.T) {
		content := "Run:\n\n    make\n"
		got, _ := plan(t, "README.md", content, "    make\n", "```sh\nmake\n```\n")
		if got != "Run:\n\n```sh\nmake\n```\n" {
			t.Errorf("got %q", got)
		}
	})
	t.Run("file list naming itself", func(t *testing.T) {
		content := "build/\n.gitignore\nnode_modules/\n"
		got, r := plan(t, ".gitignore", content, ".gitignore\nnode_modules/\n", "node_modules/\n")
		check(t, got, r, "build/\nnode_modules/\n", StageExact, 2)
	})
}

func TestPlanAppendAndCreate(t *testing.T) {
	t.Run("new file", func(t *testing.T) {
		r, err := Plan(Edit{FilePath: "src/new.py", Search: "", Replace: "print('hi')\n"}, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := text.ApplyEdits(nil, r.Edits)
		check(t, string(got), r, "print('hi')\n", StageCreate, 1)
	})
	t.Run("new file, filename line and fences stripped", func(t *testing.T) {
		r, err := Plan(Edit{FilePath: "src/new.py", Search: "", Replace: "src/new.py\n```python\nx = 1\n```"}, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := text.ApplyEdits(nil, r.Edits)
		check(t, string(got), r, "x = 1\n", StageCreate, 1)
	})
	t.Run("new empty file", func(t *testing.T) {
		r, err := Plan(Edit{FilePath: "empty.txt"}, nil, false)
		if err != nil || r.Stage != StageCreate || len(r.Edits) != 1 {
			t.Fatalf("%+v, %v", r, err)
		}
	})
	t.Run("existing file without final newline", func(t *testing.T) {
		got, r := plan(t, "a.txt", "one\ntwo", "", "three\n")
		check(t, got, r, "one\ntwo\nthree\n", StageAppend, 3)
	})
	t.Run("existing CRLF file", func(t *testing.T) {
		got, r := plan(t, "a.txt", "one\r\ntwo", "", "three\nfour")
		check(t, got, r, "one\r\ntwo\r\nthree\r\nfour", StageAppend, 3)
		if r.EndLine != 4 {
			t.Errorf("EndLine %d", r.EndLine)
		}
	})
	t.Run("existing file with final newline", func(t *testing.T) {
		got, r := plan(t, "a.txt", "one\n", "", "two\n")
		check(t, got, r, "one\ntwo\n", StageAppend, 2)
	})
	t.Run("blank search appends", func(t *testing.T) {
		got, r := plan(t, "a.txt", "one\n", "\n  \n", "two\n")
		check(t, got, r, "one\ntwo\n", StageAppend, 2)
	})
	t.Run("BOM-only file", func(t *testing.T) {
		got, _ := plan(t, "a.txt", text.BOM, "", "x\n")
		if got != text.BOM+"x\n" {
			t.Errorf("got %q", got)
		}
	})
	t.Run("nothing to append", func(t *testing.T) {
		got, r := plan(t, "a.txt", "one", "", "")
		check(t, got, r, "one", StageAppend, 0)
		if len(r.Edits) != 0 {
			t.Errorf("edits %+v", r.Edits)
		}
	})
}

func TestAppend(t *testing.T) {
	tests := []struct {
		content string
		exists  bool
		replace string
		want    string
	}{
		{"", false, "a\nb", "a\nb"},
		{"", false, "a\r\nb\n", "a\r\nb\n"},
		{"", true, "a\n", "a\n"},
		{"x", true, "a\n", "x\na\n"},
		{"x\r\n", true, "a\nb\n", "x\r\na\r\nb\r\n"},
		{"x\r\ny", true, "a", "x\r\ny\r\na"},
		{text.BOM + "x", true, "a", text.BOM + "x\na"},
	}
	for _, tc := range tests {
		got, err := text.ApplyEdits([]byte(tc.content), Append([]byte(tc.content), tc.exists, tc.replace))
		if err != nil || string(got) != tc.want {
			t.Errorf("Append(%q, %v, %q) = %q, %v; want %q", tc.content, tc.exists, tc.replace, got, err, tc.want)
		}
	}
}

func TestPlanErrors(t *testing.T) {
	t.Run("missing file", func(t *testing.T) {
		_, err := Plan(Edit{FilePath: "nope.py", Search: "x", Replace: "y"}, nil, false)
		if !errors.Is(err, ErrFileNotFound) || !strings.Contains(err.Error(), "nope.py does not exist") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("no match names the file", func(t *testing.T) {
		_, err := Plan(Edit{FilePath: "src/a.py", Search: "```\nzzz\n```", Replace: "y"}, []byte("a\n"), true)
		var nm *NoMatch
		if !errors.As(err, &nm) || nm.Path != "src/a.py" || !strings.HasPrefix(err.Error(), "search text not found in src/a.py: ") ||
			!strings.Contains(err.Error(), "Stripped from search: the ``` fences.") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("elision error names the file", func(t *testing.T) {
		_, err := Plan(Edit{FilePath: "src/a.py", Search: "a\n...\nb\n", Replace: "a\nb\n"}, []byte("a\nb\n"), true)
		if !errors.Is(err, ErrElision) || !strings.HasPrefix(err.Error(), "src/a.py: ") {
			t.Fatalf("got %v", err)
		}
	})
}

func TestTabsInFileSpacesInNewLines(t *testing.T) {
	// Spaces in the file, the agent's new lines indented with a tab: the
	// tab becomes the file's unit (4, detected from the whole file).
	got, r := apply(t, "def f():\n    x = 1\n", "x = 1\n", "x = 1\nif x:\n\ty()\n")
	check(t, got, r, "def f():\n    x = 1\n    if x:\n        y()\n", StageIndentation, 2)
}
