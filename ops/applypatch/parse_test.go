package applypatch

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestParse pins the structure Parse reads, from Codex's parser tests
// (codex-rs/apply-patch/src/parser.rs: test_parse_patch, test_parse_patch_lenient,
// test_update_file_chunk) and git-edit's leniencies.
func TestParse(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []FileOp
	}{
		{"codex combined", "*** Begin Patch\n*** Add File: path/add.py\n+abc\n+def\n*** Delete File: path/delete.py\n*** Update File: path/update.py\n*** Move to: path/update2.py\n@@ def f():\n-    pass\n+    return 123\n*** End Patch", []FileOp{
			{Kind: Add, Path: "path/add.py", Lines: []string{"abc", "def"}, Line: 2},
			{Kind: Delete, Path: "path/delete.py", Line: 5},
			{Kind: Update, Path: "path/update.py", MoveTo: "path/update2.py", Line: 6, Hunks: []Hunk{
				{Context: "def f():", Lines: []Line{{'-', "    pass"}, {'+', "    return 123"}}}}},
		}},
		{"update then add", "*** Begin Patch\n*** Update File: file.py\n@@\n+line\n*** Add File: other.py\n+content\n*** End Patch", []FileOp{
			{Kind: Update, Path: "file.py", Line: 2, Hunks: []Hunk{{Lines: []Line{{'+', "line"}}}}},
			{Kind: Add, Path: "other.py", Lines: []string{"content"}, Line: 5},
		}},
		{"first hunk without @@", "*** Begin Patch\n*** Update File: file2.py\n import foo\n+bar\n*** End Patch", []FileOp{
			{Kind: Update, Path: "file2.py", Line: 2, Hunks: []Hunk{{Lines: []Line{{' ', "import foo"}, {'+', "bar"}}}}},
		}},
		{"empty line is empty context, End of File", "*** Begin Patch\n*** Update File: a\n@@ change_context\n\n context\n-remove\n+add\n*** End of File\n*** End Patch\n", []FileOp{
			{Kind: Update, Path: "a", Line: 2, Hunks: []Hunk{{Context: "change_context", EndOfFile: true,
				Lines: []Line{{' ', ""}, {' ', "context"}, {'-', "remove"}, {'+', "add"}}}}},
		}},
		{"nested headers, blank @@ and crlf", "*** Begin Patch\r\n*** Update File: a\r\n@@ class B\r\n@@\r\n@@ \tdef g():\r\n-x\r\n*** End Patch\r\n", []FileOp{
			{Kind: Update, Path: "a", Line: 2, Hunks: []Hunk{{Outer: []string{"class B"}, Context: "\tdef g():", Lines: []Line{{'-', "x"}}}}},
		}},
		{"heredoc, padding, blank lines between operations", "\n<<EOF\n  *** Begin Patch\n*** Delete File:  a.txt \n\n*** Add File: b\n*** End Patch  \nEOF\n\n", []FileOp{
			{Kind: Delete, Path: "a.txt", Line: 4},
			{Kind: Add, Path: "b", Lines: []string{}, Line: 6},
		}},
		{"move only", "*** Begin Patch\n*** Update File: a\n*** Move to: b\n*** End Patch", []FileOp{
			{Kind: Update, Path: "a", MoveTo: "b", Line: 2},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse(tt.input)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Files, tt.want) {
				t.Fatalf("got  %+v\nwant %+v", p.Files, tt.want)
			}
			again, err := Parse(p.String())
			if err != nil || again.String() != p.String() {
				t.Fatalf("String does not round-trip: %v\n%s\n%s", err, p.String(), again.String())
			}
		})
	}
}

// TestParseRefusals pins the exact texts of malformed patches (Codex's
// wording first, then what to do) and the patch line they name.
func TestParseRefusals(t *testing.T) {
	const fix = " Nothing was changed; fix the patch and send it again."
	tests := []struct {
		name, input string
		line        int
		want        string
	}{
		{"empty", "", 1, "Invalid patch: The first line of the patch must be '*** Begin Patch'."},
		{"bad first line", "bad", 1, "Invalid patch: The first line of the patch must be '*** Begin Patch'."},
		{"bad last line", "*** Begin Patch\nbad", 2, "Invalid patch: The last line of the patch must be '*** End Patch'."},
		{"mismatched heredoc quotes", "<<\"EOF'\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\nEOF", 1, "Invalid patch: The first line of the patch must be '*** Begin Patch'."},
		{"empty update", "*** Begin Patch\n*** Update File: test.py\n*** End Patch", 2, "Invalid patch hunk on line 2: Update file hunk for path 'test.py' is empty."},
		{"bad header", "*** Begin Patch\nbad\n*** End Patch", 2, "Invalid patch hunk on line 2: 'bad' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'." + fix},
		// Issue 25: a line without a prefix inside a hunk is now a context
		// line that lost its space (TestParseLenient); after "*** End of
		// File" it still needs a new "@@".
		{"line after End of File without @@", "*** Begin Patch\n*** Update File: a\n@@\n-x\n*** End of File\nbad\n*** End Patch", 6, "Invalid patch hunk on line 6: Expected update hunk to start with a @@ context marker, got: 'bad'."},
		{"marker inside a hunk", "*** Begin Patch\n*** Update File: a\n@@\n*** Frob\n*** End Patch", 4, "Invalid patch hunk on line 4: Unexpected line found in update hunk: '*** Frob'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)" + fix},
		{"no lines after @@", "*** Begin Patch\n*** Update File: a\n@@\n*** End of File\n*** End Patch", 4, "Invalid patch hunk on line 4: Update hunk does not contain any lines."},
		{"empty path", "*** Begin Patch\n*** Delete File: \n*** End Patch", 2, "Invalid patch hunk on line 2: '*** Delete File:' has no path."},
		{"empty move path", "*** Begin Patch\n*** Update File: a\n*** Move to:\n@@\n-x\n*** End Patch", 3, "Invalid patch hunk on line 3: '*** Move to:' has no path."},
		{"two patches", "*** Begin Patch\n*** Delete File: a\n*** End Patch\n*** Begin Patch\n*** Delete File: b\n*** End Patch", 3, "Invalid patch hunk on line 3: '*** End Patch' is not a valid hunk header."},
		{"no operations", "*** Begin Patch\n*** End Patch", 0, "No files were modified."},
		{"move onto itself", "*** Begin Patch\n*** Update File: a\n*** Move to: a\n@@\n-x\n*** End Patch", 2, "Invalid patch hunk on line 2: '*** Move to: a' moves 'a' onto itself."},
		{"add and delete one path", "*** Begin Patch\n*** Delete File: a\n*** Add File: a\n+x\n*** End Patch", 3, "Invalid patch: 'a' is named by two file operations, '*** Delete File' on line 2 and '*** Add File' on line 3."},
		{"move onto another operation's path", "*** Begin Patch\n*** Add File: b\n*** Update File: a\n*** Move to: b\n*** End Patch", 3, "Invalid patch: 'b' is named by two file operations, '*** Add File' on line 2 and '*** Move to' on line 3."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.input)
			var f *Failure
			if !errors.As(err, &f) {
				t.Fatalf("got %v, want a *Failure", err)
			}
			if !strings.HasPrefix(f.Message, tt.want) || f.PatchLine != tt.line {
				t.Fatalf("got line %d %q\nwant line %d, text starting %q", f.PatchLine, f.Message, tt.line, tt.want)
			}
			if !errors.Is(err, ErrInvalidPatch) && !errors.Is(err, ErrSamePath) {
				t.Fatalf("%v wraps neither ErrInvalidPatch nor ErrSamePath", err)
			}
			if !strings.Contains(f.Message, "Nothing was changed") && !strings.Contains(f.Message, "nothing was changed") && !strings.HasPrefix(f.Message, "No files were modified.") {
				t.Fatalf("refusal does not say nothing was changed: %q", f.Message)
			}
		})
	}
}

// TestPathsAndDistinct: Paths lists each path once in patch order, and
// Distinct with a resolver catches two spellings of one file.
func TestPathsAndDistinct(t *testing.T) {
	p, err := Parse("*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-x\n*** Add File: ./a.txt\n+y\n*** Delete File: c.txt\n*** End Patch")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.Paths(), []string{"a.txt", "b.txt", "./a.txt", "c.txt"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Paths = %q, want %q", got, want)
	}
	err = p.Distinct(func(path string) string { return strings.TrimPrefix(path, "./") })
	var f *Failure
	if !errors.As(err, &f) || !errors.Is(err, ErrSamePath) || f.Path != "./a.txt" || f.PatchLine != 6 {
		t.Fatalf("Distinct with a resolver = %#v", err)
	}
}
