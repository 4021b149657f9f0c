package texteditor

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestParseValid(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want Args
	}{
		{"view", `{"command":"view","path":"a.go"}`, Args{Command: "view", Path: "a.go"}},
		{"view range", `{"command":"view","path":"a.go","view_range":[2,-1]}`, Args{Command: "view", Path: "a.go", ViewRange: []int{2, -1}}},
		{"view range single line", `{"command":"view","path":"a.go","view_range":[3,3]}`, Args{Command: "view", Path: "a.go", ViewRange: []int{3, 3}}},
		{"view null range", `{"command":"view","path":"a.go","view_range":null,"old_str":null}`, Args{Command: "view", Path: "a.go"}},
		{"write", `{"command":"write","path":"a","file_text":""}`, Args{Command: "write", Path: "a", FileText: ptr("")}},
		{"create", ` {"command":"create","path":"a","file_text":"x\n"} ` + "\n", Args{Command: "create", Path: "a", FileText: ptr("x\n")}},
		{"str_replace", `{"command":"str_replace","path":"a","old_str":"x","new_str":""}`, Args{Command: "str_replace", Path: "a", OldStr: ptr("x"), NewStr: ptr("")}},
		{"insert", `{"command":"insert","path":"a","insert_line":0,"new_str":"x"}`, Args{Command: "insert", Path: "a", InsertLine: ptr(0), NewStr: ptr("x")}},
		{"insert integral float", `{"command":"insert","path":"a","insert_line":3.0,"new_str":"x"}`, Args{Command: "insert", Path: "a", InsertLine: ptr(3), NewStr: ptr("x")}},
		{"insert exponent", `{"command":"insert","path":"a","insert_line":1e2,"new_str":"x"}`, Args{Command: "insert", Path: "a", InsertLine: ptr(100), NewStr: ptr("x")}},
		// A negative insert_line counts from the end, as the MCP text
		// editors that accept "insert_line = -1: insert at the end" do.
		{"insert_line negative counts from the end", `{"command":"insert","path":"a","insert_line":-1,"new_str":"x"}`, Args{Command: "insert", Path: "a", InsertLine: ptr(-1), NewStr: ptr("x")}},
		{"str_replace with a line hint (Roo :start_line:)", `{"command":"str_replace","path":"a","old_str":"x","new_str":"","line":7}`, Args{Command: "str_replace", Path: "a", OldStr: ptr("x"), NewStr: ptr(""), Line: 7}},
		{"undo_edit", `{"path":"a","command":"undo_edit"}`, Args{Command: "undo_edit", Path: "a"}},
		{"unicode escapes", `{"command":"str_replace","path":"\u00e9.txt","old_str":"\t\u2603","new_str":"\r\n"}`, Args{Command: "str_replace", Path: "é.txt", OldStr: ptr("\t☃"), NewStr: ptr("\r\n")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.raw))
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if !argsEqual(got, tt.want) {
				t.Errorf("got %s, want %s", show(got), show(tt.want))
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	const accepted = `the accepted fields are "command", "path", "file_text", "old_str", "new_str", "insert_line", "view_range" and "line"`
	const commands = `view, write, create, str_replace, insert or undo_edit`
	const example = `send one JSON object such as {"command": "view", "path": "README.md"}`
	const rangeFix = `use [start, end] with 1-based line numbers, or [start, -1] to view to the end of the file`
	tests := []struct {
		name, raw, want string
	}{
		// Shape of the input.
		{"empty", ``, `invalid arguments: the arguments are empty; ` + example},
		{"blank", " \n ", `invalid arguments: the arguments are empty; ` + example},
		{"array", `["view"]`, `invalid arguments: the arguments must be a JSON object, got an array; send one object such as {"command": "view", "path": "README.md"}`},
		{"string", `"view"`, `invalid arguments: the arguments must be a JSON object, got a string; send one object such as {"command": "view", "path": "README.md"}`},
		{"syntax", `{"command": view}`, `invalid arguments: the arguments are not valid JSON (invalid character 'v' looking for beginning of value); ` + example},
		{"cut off", `{"command": "view"`, `invalid arguments: the arguments are not valid JSON: the object is cut off; send one complete JSON object`},
		{"trailing object", `{"command":"view","path":"a"}{"x":1}`, `invalid arguments: unexpected data after the JSON object; send exactly one JSON object`},
		{"trailing garbage", `{"command":"view","path":"a"} x`, `invalid arguments: unexpected data after the JSON object; send exactly one JSON object`},
		{"unknown field", `{"command":"view","path":"a","file":"b"}`, `invalid arguments: unknown field "file"; ` + accepted},
		{"wrong case field", `{"command":"view","Path":"a"}`, `invalid arguments: unknown field "Path" (did you mean "path"? names are case-sensitive); ` + accepted},
		{"duplicate field", `{"command":"view","path":"a","path":"b"}`, `invalid arguments: "path" is given more than once; send each field once`},

		// command.
		{"no command", `{"path":"a"}`, `invalid arguments: missing "command"; set it to one of ` + commands},
		{"unknown command", `{"command":"delete","path":"a"}`, `invalid arguments: unknown command "delete"; use one of ` + commands},
		{"command number", `{"command":1,"path":"a"}`, `invalid arguments: "command" must be a string (one of ` + commands + `), got a number`},

		// Required fields per command.
		{"view no path", `{"command":"view"}`, `invalid arguments: view needs "path" (the file to operate on)`},
		{"undo no path", `{"command":"undo_edit","path":null}`, `invalid arguments: undo_edit needs "path" (the file to operate on)`},
		{"write no file_text", `{"command":"write","path":"a"}`, `invalid arguments: write needs "file_text" (the entire new content of the file)`},
		{"create no file_text", `{"command":"create","path":"a"}`, `invalid arguments: create needs "file_text" (the entire new content of the file)`},
		{"str_replace no old_str", `{"command":"str_replace","path":"a","new_str":"x"}`, `invalid arguments: str_replace needs "old_str" (the exact text to replace)`},
		{"str_replace no new_str", `{"command":"str_replace","path":"a","old_str":"x"}`, `invalid arguments: str_replace needs "new_str" (the replacement text; use "" to delete old_str)`},
		{"insert no insert_line", `{"command":"insert","path":"a","new_str":"x"}`, `invalid arguments: insert needs "insert_line" (the line after which to insert; 0 inserts before the first line)`},
		{"insert no new_str", `{"command":"insert","path":"a","insert_line":1}`, `invalid arguments: insert needs "new_str" (the lines to insert)`},

		// Fields a command does not use.
		{"view with old_str", `{"command":"view","path":"a","old_str":"x"}`, `invalid arguments: "old_str" is not used by view; remove it (view takes "path" and optionally "view_range")`},
		{"str_replace with view_range", `{"command":"str_replace","path":"a","old_str":"x","new_str":"y","view_range":[1,2]}`, `invalid arguments: "view_range" is not used by str_replace; remove it (str_replace takes "path", "old_str" and "new_str" and optionally "line")`},
		{"write with new_str", `{"command":"write","path":"a","file_text":"x","new_str":"y"}`, `invalid arguments: "new_str" is not used by write; remove it (write takes "path" and "file_text")`},

		// Values.
		{"empty path", `{"command":"str_replace","path":"","old_str":"x","new_str":"y"}`, `invalid arguments: "path" is empty; give the path of the file to edit`},
		{"path number", `{"command":"view","path":7}`, `invalid arguments: "path" must be a string (the file's path), got a number`},
		{"file_text object", `{"command":"write","path":"a","file_text":{"x":1}}`, `invalid arguments: "file_text" must be a string (the file's entire content), got an object`},
		{"old_str array", `{"command":"str_replace","path":"a","old_str":["x"],"new_str":"y"}`, `invalid arguments: "old_str" must be a string (the exact text to replace), got an array`},
		{"new_str bool", `{"command":"str_replace","path":"a","old_str":"x","new_str":false}`, `invalid arguments: "new_str" must be a string (the replacement text; "" deletes old_str), got a boolean`},
		{"empty old_str", `{"command":"str_replace","path":"a","old_str":"","new_str":"y"}`, `invalid arguments: "old_str" is empty, and empty text cannot be located; to add text use "insert" with "insert_line", or "write" to replace the whole file`},
		{"empty insert new_str", `{"command":"insert","path":"a","insert_line":1,"new_str":""}`, `invalid arguments: "new_str" is empty, so there is nothing to insert; give the lines to insert in "new_str"`},
		{"insert_line string", `{"command":"insert","path":"a","insert_line":"3","new_str":"x"}`, `invalid arguments: "insert_line" must be a whole number, got a string`},
		{"str_replace line 0", `{"command":"str_replace","path":"a","old_str":"x","new_str":"y","line":0}`, `invalid arguments: "line" is 0, but lines are numbered from 1; give the line where old_str starts, or leave "line" out`},
		{"str_replace line string", `{"command":"str_replace","path":"a","old_str":"x","new_str":"y","line":"3"}`, `invalid arguments: "line" must be a whole number, got a string`},
		{"insert with line", `{"command":"insert","path":"a","insert_line":1,"new_str":"x","line":2}`, `invalid arguments: "line" is not used by insert; remove it (insert takes "path", "insert_line" and "new_str")`},
		{"insert_line fraction", `{"command":"insert","path":"a","insert_line":1.5,"new_str":"x"}`, `invalid arguments: "insert_line" must be a whole number, got 1.5`},
		{"insert_line 1e30", `{"command":"insert","path":"a","insert_line":1e30,"new_str":"x"}`, `invalid arguments: "insert_line" is 1e30, which is too large to be a line number; use a line number of the file`},
		{"insert_line 1e400", `{"command":"insert","path":"a","insert_line":1e400,"new_str":"x"}`, `invalid arguments: "insert_line" is 1e400, which is too large to be a line number; use a line number of the file`},
		{"insert_line huge int", `{"command":"insert","path":"a","insert_line":99999999999999999999,"new_str":"x"}`, `invalid arguments: "insert_line" is 99999999999999999999, which is too large to be a line number; use a line number of the file`},
		{"insert_line huge negative", `{"command":"insert","path":"a","insert_line":-99999999999999999999,"new_str":"x"}`, `invalid arguments: "insert_line" is -99999999999999999999, which is too large to be a line number; use a line number of the file`},
		{"view_range string", `{"command":"view","path":"a","view_range":"1-5"}`, `invalid arguments: "view_range" must be an array of two whole numbers, got a string; ` + rangeFix},
		{"view_range one item", `{"command":"view","path":"a","view_range":[1]}`, `invalid arguments: "view_range" must have exactly 2 numbers, got 1; ` + rangeFix},
		{"view_range three items", `{"command":"view","path":"a","view_range":[1,2,3]}`, `invalid arguments: "view_range" must have exactly 2 numbers, got 3; ` + rangeFix},
		{"view_range string item", `{"command":"view","path":"a","view_range":[1,"2"]}`, `invalid arguments: "view_range end" must be a whole number, got a string`},
		{"view_range huge", `{"command":"view","path":"a","view_range":[1e30,-1]}`, `invalid arguments: "view_range start" is 1e30, which is too large to be a line number; use a line number of the file`},
		{"view_range zero start", `{"command":"view","path":"a","view_range":[0,5]}`, `invalid arguments: "view_range" start is 0, but lines are numbered from 1; ` + rangeFix},
		{"view_range end before start", `{"command":"view","path":"a","view_range":[5,3]}`, `invalid arguments: "view_range" end 3 is before start 5; use an end of at least 5, or -1 to view to the end of the file`},
		{"view_range end -2", `{"command":"view","path":"a","view_range":[1,-2]}`, `invalid arguments: "view_range" end -2 is before start 1; use an end of at least 1, or -1 to view to the end of the file`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.raw))
			if err == nil {
				t.Fatalf("no error, got %s", show(got))
			}
			if !errors.Is(err, ErrInvalidArgs) {
				t.Errorf("error does not wrap ErrInvalidArgs: %v", err)
			}
			if err.Error() != tt.want {
				t.Errorf("error\n got: %s\nwant: %s", err, tt.want)
			}
		})
	}
}

func TestParseFileTextLimit(t *testing.T) {
	ok := `{"command":"write","path":"a","file_text":"` + strings.Repeat("é", MaxWriteChars) + `"}`
	if _, err := Parse([]byte(ok)); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
	over := `{"command":"create","path":"a","file_text":"` + strings.Repeat("é", MaxWriteChars+1) + `"}`
	_, err := Parse([]byte(over))
	want := `too large: "file_text" has 400,001 characters, more than the limit of 400,000; write a smaller file, or write the first part and add the rest with "insert"`
	if err == nil || err.Error() != want || !errors.Is(err, ErrTooLarge) {
		t.Errorf("error\n got: %v\nwant: %s", err, want)
	}
}

// FuzzParse: no input makes Parse panic, and every refusal wraps a sentinel.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"command":"insert","path":"a","insert_line":1e30,"new_str":"x"}`))
	f.Add([]byte(`{"command":"view","path":"a","view_range":[1,-1]}`))
	f.Add([]byte(`{"command":"str_replace","path":"a","old_str":"x","new_str":"y"}`))
	f.Add([]byte(`{"command":"view","path":"a"} []`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		a, err := Parse(raw)
		if err != nil {
			if !errors.Is(err, ErrInvalidArgs) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("unwrapped error: %v", err)
			}
			return
		}
		if !slices.Contains(Commands, a.Command) || a.Path == "" {
			t.Fatalf("accepted %s", show(a))
		}
	})
}

func ptr[T any](v T) *T { return &v }

func argsEqual(a, b Args) bool {
	eqS := func(x, y *string) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	eqI := func(x, y *int) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	return a.Command == b.Command && a.Path == b.Path && eqS(a.FileText, b.FileText) && eqS(a.OldStr, b.OldStr) &&
		eqS(a.NewStr, b.NewStr) && eqI(a.InsertLine, b.InsertLine) && slices.Equal(a.ViewRange, b.ViewRange) &&
		(a.ViewRange == nil) == (b.ViewRange == nil) && a.Line == b.Line
}

func show(a Args) string {
	s := func(p *string) string {
		if p == nil {
			return "nil"
		}
		return strconv.Quote(*p)
	}
	i := "nil"
	if a.InsertLine != nil {
		i = strconv.Itoa(*a.InsertLine)
	}
	return fmt.Sprintf("{%s %q file_text=%s old=%s new=%s line=%s range=%v hint=%d}", a.Command, a.Path, s(a.FileText), s(a.OldStr), s(a.NewStr), i, a.ViewRange, a.Line)
}
