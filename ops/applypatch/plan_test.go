package applypatch

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// TestPlanFailureFields: a refusal names the file, the hunk (1-based within
// its file) and the lines not found, and its JSON carries them.
func TestPlanFailureFields(t *testing.T) {
	tests := []struct {
		name, patch string
		files       map[string][]byte
		sentinel    error
		path        string
		hunk        int
		lines       []string
	}{
		{"second hunk's lines", "*** Begin Patch\n*** Update File: s.txt\n@@\n-a\n+A\n@@\n c\n-d\n*** End Patch",
			map[string][]byte{"s.txt": []byte("a\nc\nx\n")}, ErrNoMatch, "s.txt", 2, []string{"c", "d"}},
		{"header not found", "*** Begin Patch\n*** Update File: m.py\n@@ class C:\n-x\n*** End Patch",
			map[string][]byte{"m.py": []byte("x\n")}, ErrNoMatch, "m.py", 1, []string{"class C:"}},
		// Issue 25: a hunk found only before the previous one is taken
		// (hunks out of file order) unless it overlaps a hunk placed.
		{"out of order and overlapping", "*** Begin Patch\n*** Update File: m.py\n@@\n b\n-c\n@@\n-a\n b\n*** End Patch",
			map[string][]byte{"m.py": []byte("a\nb\nc\n")}, ErrOverlap, "m.py", 2, nil},
		{"move destination exists", "*** Begin Patch\n*** Update File: a\n*** Move to: b\n*** End Patch",
			map[string][]byte{"a": []byte("x\n"), "b": nil}, ErrFileExists, "b", 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse(tt.patch)
			if err != nil {
				t.Fatal(err)
			}
			files := map[string]File{}
			for path, c := range tt.files {
				files[path] = File{Content: c, Exists: true}
			}
			changes, _, err := Plan(p, files)
			var f *Failure
			if !errors.As(err, &f) || !errors.Is(err, tt.sentinel) || changes != nil {
				t.Fatalf("Plan = %v, %v; want a *Failure wrapping %v", changes, err, tt.sentinel)
			}
			if f.Path != tt.path || f.Hunk != tt.hunk || !reflect.DeepEqual(f.Lines, tt.lines) {
				t.Fatalf("failure locates %q hunk %d lines %q; want %q hunk %d lines %q", f.Path, f.Hunk, f.Lines, tt.path, tt.hunk, tt.lines)
			}
			var got map[string]any
			b, _ := json.Marshal(f)
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			if got["success"] != false || got["error"] != f.Message || got["path"] != tt.path {
				t.Fatalf("JSON %s does not carry the failure", b)
			}
		})
	}
}

// TestPlanLeavesInputsAlone: Plan neither modifies files nor returns
// content that aliases them.
func TestPlanLeavesInputsAlone(t *testing.T) {
	p, err := Parse("*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** Update File: b\n*** Move to: c\n*** End Patch")
	if err != nil {
		t.Fatal(err)
	}
	a, b := []byte("x\n"), []byte("keep\n")
	changes, sum, err := Plan(p, map[string]File{"a": {Content: a, Exists: true}, "b": {Content: b, Exists: true}})
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != "x\n" || string(b) != "keep\n" {
		t.Fatalf("inputs modified: %q %q", a, b)
	}
	changes[1].Content[0] = 'K'
	if string(b) != "keep\n" {
		t.Fatal("a change aliases its input")
	}
	want := Summary{Modified: []string{"a", "c"}, Moved: []Move{{From: "b", To: "c"}}}
	if !reflect.DeepEqual(sum, want) || len(changes) != 3 || !changes[2].Delete || changes[2].Path != "b" {
		t.Fatalf("summary %+v, changes %+v", sum, changes)
	}
	res, _ := json.Marshal(sum.Response())
	if string(res) != `{"success":true,"output":"Success. Updated the following files:\nM a\nM c\n","modified":["a","c"],"moved":[{"from":"b","to":"c"}]}` {
		t.Fatalf("result JSON %s", res)
	}
}

// TestSeekLadder: each rung is tried over the whole range before the next,
// so an exact match later in the file wins over a tolerant one earlier;
// atEnd tries the end only.
func TestSeekLadder(t *testing.T) {
	f := &fileLines{lines: []string{"  foo", "foo\t", "foo", "\u201cq\u201d \u2013 x", "end"}}
	tests := []struct {
		pattern []string
		start   int
		atEnd   bool
		want    int
		ok      bool
	}{
		{[]string{"foo"}, 0, false, 2, true},
		{[]string{"foo "}, 0, false, 1, true},
		{[]string{" foo"}, 0, false, 0, true},
		{[]string{`"q" - x`}, 0, false, 3, true},
		{[]string{"foo"}, 3, false, 0, false},
		{[]string{"end"}, 0, true, 4, true},
		{[]string{"foo"}, 0, true, 0, false},
		{[]string{"a", "b", "c", "d", "e", "f"}, 0, false, 0, false},
		{nil, 3, false, 3, true},
	}
	for _, tt := range tests {
		got, ok := f.seek(tt.pattern, tt.start, tt.atEnd)
		if got != tt.want || ok != tt.ok {
			t.Errorf("seek(%q, %d, %v) = %d, %v; want %d, %v", tt.pattern, tt.start, tt.atEnd, got, ok, tt.want, tt.ok)
		}
	}
}

// TestParseArgs: the one field, refused in jsonargs's words otherwise.
func TestParseArgs(t *testing.T) {
	a, err := ParseArgs([]byte(`{"input": "*** Begin Patch\n*** End Patch"}`))
	if err != nil || a.Input != "*** Begin Patch\n*** End Patch" {
		t.Fatalf("ParseArgs = %+v, %v", a, err)
	}
	for raw, want := range map[string]string{
		`{}`:                           `invalid arguments: apply_patch needs "input", the patch text from "*** Begin Patch" to "*** End Patch"; send {"input": "*** Begin Patch\n*** Add File: hello.txt\n+Hello, world!\n*** End Patch"}`,
		`{"input": 1}`:                 `invalid arguments: "input" must be a string (the patch text from "*** Begin Patch" to "*** End Patch"), got a number`,
		`{"patch": "x"}`:               `invalid arguments: unknown field "patch"; the accepted fields are "input"`,
		`{"Input": "x"}`:               `invalid arguments: unknown field "Input" (did you mean "input"? names are case-sensitive); the accepted fields are "input"`,
		`{"input": "a", "input": "b"}`: `invalid arguments: "input" is given more than once; send each field once`,
	} {
		_, err := ParseArgs([]byte(raw))
		var f *Failure
		if !errors.As(err, &f) || !errors.Is(err, ErrInvalidArgs) || f.Message != want {
			t.Errorf("ParseArgs(%s) = %v\nwant %s", raw, err, want)
		}
	}
}
