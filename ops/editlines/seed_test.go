package editlines

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// The seed's examples, each with its exact expected bytes and result.

func TestSeedSingleReplace(t *testing.T) {
	// A 121-line src/main.go, so that the result matches the seed's logged
	// result exactly: {"linesChanged": 5, "newLineCount": 120}.
	head := "package main\n" +
		"\n" +
		"import \"fmt\"\n" +
		"\n" +
		"func main() {\n" +
		"    fmt.Println(run())\n" +
		"}\n" +
		"\n" +
		"func run() error {\n" +
		"    oldFunc()\n" +
		"    cleanup()\n" +
		"    return err\n" +
		"}\n"
	tail := numbered("// filler ", 14, 121)
	content := head + tail
	args := `{
  "path": "src/main.go",
  "operations": [
    {
      "op": "replace",
      "startLine": 10,
      "endLine": 12,
      "content": ["    newFunc()", "    return nil"]
    }
  ]
}`
	want := "package main\n" +
		"\n" +
		"import \"fmt\"\n" +
		"\n" +
		"func main() {\n" +
		"    fmt.Println(run())\n" +
		"}\n" +
		"\n" +
		"func run() error {\n" +
		"    newFunc()\n" +
		"    return nil\n" +
		"}\n" + tail
	got, p, err := run(t, content, args)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	a, _ := Parse([]byte(args))
	if s := seedApply(content, a.Operations); s != want {
		t.Errorf("the seed's algorithm disagrees:\n%s", s)
	}
	res, err := json.Marshal(Response{Path: "/full/path/src/main.go", LinesChanged: p.LinesChanged, NewLineCount: p.NewLineCount})
	if err != nil {
		t.Fatal(err)
	}
	if w := `{"path":"/full/path/src/main.go","linesChanged":5,"newLineCount":120}`; string(res) != w {
		t.Errorf("result %s, want %s", res, w)
	}
}

func TestSeedMultipleOperations(t *testing.T) {
	content := `{
  "name": "demo",
  "port": 8080,
  "host": "localhost",
  "timeout": 30,
  "retries": 3,
  "log": "info",
  "cache": true,
  "workers": 4,
  "legacy": false,
  "compat": "v1",
  "deprecated": null,
  "version": "1.0"
}
`
	args := `{
  "path": "config.json",
  "operations": [
    {
      "op": "replace",
      "startLine": 3,
      "endLine": 3,
      "content": ["  \"port\": 9000,"]
    },
    {
      "op": "insert",
      "afterLine": 5,
      "content": ["  \"debug\": true,"]
    },
    {
      "op": "delete",
      "startLine": 10,
      "endLine": 12
    }
  ]
}`
	want := `{
  "name": "demo",
  "port": 9000,
  "host": "localhost",
  "timeout": 30,
  "debug": true,
  "retries": 3,
  "log": "info",
  "cache": true,
  "workers": 4,
  "version": "1.0"
}
`
	got, p, err := run(t, content, args)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	a, _ := Parse([]byte(args))
	if s := seedApply(content, a.Operations); s != want {
		t.Errorf("the seed's algorithm disagrees:\n%s", s)
	}
	// 1 removed + 1 added, 1 added, 3 removed; 14 - 1 + 1 + 1 - 3 lines.
	if p.LinesChanged != 6 || p.NewLineCount != 12 {
		t.Errorf("linesChanged %d newLineCount %d, want 6 and 12", p.LinesChanged, p.NewLineCount)
	}
}

func TestSeedInsertAtBeginning(t *testing.T) {
	args := `{
  "path": "file.txt",
  "operations": [
    {
      "op": "insert",
      "afterLine": 0,
      "content": ["// Copyright 2024", "// MIT License", ""]
    }
  ]
}`
	for _, tt := range []struct{ name, content, want string }{
		{"LF", "hello\nworld\n", "// Copyright 2024\n// MIT License\n\nhello\nworld\n"},
		{"CRLF", "hello\r\nworld\r\n", "// Copyright 2024\r\n// MIT License\r\n\r\nhello\r\nworld\r\n"},
		{"BOM", "\xef\xbb\xbfhello\nworld", "\xef\xbb\xbf// Copyright 2024\n// MIT License\n\nhello\nworld"},
		{"empty file", "", "// Copyright 2024\n// MIT License\n\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, p, err := run(t, tt.content, args)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if p.LinesChanged != 3 {
				t.Errorf("linesChanged %d, want 3", p.LinesChanged)
			}
		})
	}
}

func TestSeedDeleteSingleLine(t *testing.T) {
	args := `{
  "path": "file.txt",
  "operations": [
    {
      "op": "delete",
      "startLine": 5,
      "endLine": 5
    }
  ]
}`
	content := "one\ntwo\nthree\nfour\nfive\nsix\nseven\n"
	got, p, err := run(t, content, args)
	if err != nil {
		t.Fatal(err)
	}
	if want := "one\ntwo\nthree\nfour\nsix\nseven\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if p.LinesChanged != 1 || p.NewLineCount != 6 {
		t.Errorf("linesChanged %d newLineCount %d, want 1 and 6", p.LinesChanged, p.NewLineCount)
	}
}

// TestSeedExecutionOrder: the seed's "Execution Order" example. Every line
// number refers to the original file, as bottom-up application guarantees,
// whatever order the operations are listed in.
func TestSeedExecutionOrder(t *testing.T) {
	content := numbered("line ", 1, 60)
	want := numbered("line ", 1, 4) + "new 5\nnew 6\n" + numbered("line ", 8, 19) + numbered("line ", 23, 50) +
		"after 50\n" + numbered("line ", 51, 60)
	ops := []string{
		`{"op": "replace", "startLine": 5, "endLine": 7, "content": ["new 5", "new 6"]}`,
		`{"op": "delete", "startLine": 20, "endLine": 22}`,
		`{"op": "insert", "afterLine": 50, "content": ["after 50"]}`,
	}
	for _, order := range [][3]int{{0, 1, 2}, {2, 1, 0}, {1, 2, 0}} {
		args := `{"path": "f", "operations": [` + ops[order[0]] + "," + ops[order[1]] + "," + ops[order[2]] + `]}`
		got, p, err := run(t, content, args)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("order %v: got\n%s\nwant\n%s", order, got, want)
		}
		a, _ := Parse([]byte(args))
		if s := seedApply(content, a.Operations); s != want {
			t.Errorf("order %v: the seed's algorithm disagrees:\n%s", order, s)
		}
		// 3 removed + 2 added, 3 removed, 1 added; 60 - 1 - 3 + 1 lines.
		if p.LinesChanged != 9 || p.NewLineCount != 57 {
			t.Errorf("linesChanged %d newLineCount %d, want 9 and 57", p.LinesChanged, p.NewLineCount)
		}
	}
}

func TestSeedOverlap(t *testing.T) {
	args := `{
  "path": "f",
  "operations": [
    {"op": "replace", "startLine": 8, "endLine": 12, "content": ["..."]},
    {"op": "delete", "startLine": 10, "endLine": 15}
  ]
}`
	_, _, err := run(t, numbered("line ", 1, 20), args)
	if err == nil || seedPart(err) != "operations overlap at line 10" {
		t.Fatalf("err = %v, want operations overlap at line 10", err)
	}
	if !errors.Is(err, ErrOverlap) || !errors.Is(err, ErrInvalidArgs) {
		t.Errorf("err does not wrap ErrOverlap and ErrInvalidArgs")
	}
	res, _ := json.Marshal(ErrorResult{Error: err.Error()})
	if w := `{"error":"operations overlap at line 10; operation 1 (replace lines 8-12) and operation 2 (delete lines 10-15) both touch line 10. All line numbers refer to the file before the call: merge the two into one operation, or change their lines so that no line is touched twice"}`; string(res) != w {
		t.Errorf("result %s, want %s", res, w)
	}
}

// TestSeedErrorTexts: every error text of the seed that this package
// produces, word for word (the file errors belong to the caller).
func TestSeedErrorTexts(t *testing.T) {
	five := numbered("l", 1, 5)
	tests := []struct {
		name, content, ops, want string
		kind                     error
	}{
		{"empty operations", five, ``, "no operations provided", ErrNoOperations},
		{"unknown operation", five, `{"op": "move", "startLine": 1, "endLine": 2}`, "unknown operation: move", ErrUnknownOperation},
		{"unknown operation, wrong case", five, `{"op": "Replace"}`, "unknown operation: Replace", ErrUnknownOperation},
		{"unknown operation, empty", five, `{"op": ""}`, "unknown operation: ", ErrUnknownOperation},
		{"startLine 0", five, `{"op": "delete", "startLine": 0, "endLine": 1}`, "invalid line number: 0 (must be >= 1)", ErrInvalidLineNumber},
		{"startLine negative", five, `{"op": "replace", "startLine": -3, "endLine": 1, "content": []}`, "invalid line number: -3 (must be >= 1)", ErrInvalidLineNumber},
		{"afterLine negative", five, `{"op": "insert", "afterLine": -1, "content": ["x"]}`, "invalid line number: -1 (must be >= 0)", ErrInvalidLineNumber},
		{"range", five, `{"op": "delete", "startLine": 4, "endLine": 2}`, "invalid range: startLine 4 > endLine 2", ErrInvalidRange},
		{"range, endLine 0", five, `{"op": "replace", "startLine": 1, "endLine": 0, "content": ["x"]}`, "invalid range: startLine 1 > endLine 0", ErrInvalidRange},
		{"out of range start", five, `{"op": "delete", "startLine": 6, "endLine": 6}`, "line 6 out of range (file has 5 lines)", ErrLineOutOfRange},
		{"out of range end", five, `{"op": "replace", "startLine": 5, "endLine": 7, "content": []}`, "line 7 out of range (file has 5 lines)", ErrLineOutOfRange},
		{"out of range insert", five, `{"op": "insert", "afterLine": 6, "content": ["x"]}`, "line 6 out of range (file has 5 lines)", ErrLineOutOfRange},
		{"out of range, one line", "x", `{"op": "delete", "startLine": 2, "endLine": 2}`, "line 2 out of range (file has 1 lines)", ErrLineOutOfRange},
		{"out of range, empty file", "", `{"op": "delete", "startLine": 1, "endLine": 1}`, "line 1 out of range (file has 0 lines)", ErrLineOutOfRange},
		{"overlap", five, `{"op": "delete", "startLine": 2, "endLine": 3}, {"op": "replace", "startLine": 3, "endLine": 4, "content": []}`, "operations overlap at line 3", ErrOverlap},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := run(t, tt.content, `{"path": "f", "operations": [`+tt.ops+`]}`)
			if err == nil {
				t.Fatal("no error")
			}
			if seedPart(err) != tt.want || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error\n got: %s\nwant: %s", err, tt.want)
			}
			if !errors.Is(err, tt.kind) {
				t.Errorf("error does not wrap %v", tt.kind)
			}
			if tt.kind != ErrLineOutOfRange && !errors.Is(err, ErrInvalidArgs) {
				t.Errorf("error does not wrap ErrInvalidArgs")
			}
			if tt.kind == ErrLineOutOfRange && errors.Is(err, ErrInvalidArgs) {
				t.Errorf("an out-of-range error wraps ErrInvalidArgs")
			}
			var e *Error
			if !errors.As(err, &e) || e.Kind != tt.kind || e.Text != tt.want {
				t.Errorf("not an *Error{%v, %q}: %#v", tt.kind, tt.want, err)
			}
			if strings.HasPrefix(err.Error(), "invalid arguments") {
				t.Errorf("seed error is prefixed")
			}
		})
	}
}

// TestRefusalHelp: after the seed's text, an unknown operation lists the
// valid ones and an overlap names the two operations, whole text exact.
func TestRefusalHelp(t *testing.T) {
	ten := numbered("l", 1, 10)
	tests := []struct{ name, ops, want string }{
		{"unknown operation", `{"op": "remove", "startLine": 1, "endLine": 2}`,
			`unknown operation: remove; "op" is one of "replace" (startLine, endLine, content), "insert" (afterLine, content) and "delete" (startLine, endLine)`},
		{"two ranges", `{"op": "insert", "afterLine": 1, "content": ["x"]}, {"op": "delete", "startLine": 3, "endLine": 5}, {"op": "replace", "startLine": 4, "endLine": 4, "content": ["y"]}`,
			"operations overlap at line 4; operation 2 (delete lines 3-5) and operation 3 (replace line 4) both touch line 4. All line numbers refer to the file before the call: merge the two into one operation, or change their lines so that no line is touched twice"},
		{"an insert before the range it conflicts with", `{"op": "insert", "afterLine": 4, "content": ["x"]}, {"op": "insert", "afterLine": 4, "content": ["z"]}, {"op": "delete", "startLine": 4, "endLine": 6}`,
			"operations overlap at line 4; operation 1 (insert after line 4) and operation 3 (delete lines 4-6) both touch line 4. All line numbers refer to the file before the call: merge the two into one operation, or change their lines so that no line is touched twice"},
		{"listed backwards", `{"op": "delete", "startLine": 4, "endLine": 8}, {"op": "delete", "startLine": 1, "endLine": 4}`,
			"operations overlap at line 4; operation 1 (delete lines 4-8) and operation 2 (delete lines 1-4) both touch line 4. All line numbers refer to the file before the call: merge the two into one operation, or change their lines so that no line is touched twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := run(t, ten, `{"path": "f", "operations": [`+tt.ops+`]}`)
			if err == nil || err.Error() != tt.want {
				t.Errorf("error\n got: %v\nwant: %s", err, tt.want)
			}
		})
	}
}
