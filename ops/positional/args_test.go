package positional

import (
	"errors"
	"fmt"
	"testing"
)

// call builds the JSON input of one call.
func call(cmd, args string) string {
	return fmt.Sprintf(`{"command": %q, "arguments": %s}`, cmd, args)
}

func TestParseValid(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want Args
	}{
		{"insert line column", call("insert", `{"file_path":"/r/a.txt","content":"x\n","position":{"line":3,"column":1}}`),
			Args{Command: CmdInsert, FilePath: "/r/a.txt", Content: "x\n", Position: Point{Line: 3, Column: 1}}},
		{"insert offset", call("insert", `{"file_path":"a","content":"","position":{"offset":0}}`),
			Args{Command: CmdInsert, FilePath: "a", Position: Point{HasOffset: true}}},
		{"insert all three", call("insert", `{"file_path":"a","content":"x","position":{"line":2,"column":4,"offset":9}}`),
			Args{Command: CmdInsert, FilePath: "a", Content: "x", Position: Point{Line: 2, Column: 4, Offset: 9, HasOffset: true}}},
		{"null fields are absent", call("insert", `{"file_path":"a","content":"x","position":{"line":null,"column":null,"offset":5}}`),
			Args{Command: CmdInsert, FilePath: "a", Content: "x", Position: Point{Offset: 5, HasOffset: true}}},
		{"integral float", call("insert", `{"file_path":"a","content":"x","position":{"line":2.0,"column":1e1}}`),
			Args{Command: CmdInsert, FilePath: "a", Content: "x", Position: Point{Line: 2, Column: 10}}},
		{"delete", call("delete", `{"file_path":"a","range":{"start":{"line":1,"column":1},"end":{"offset":4}}}`),
			Args{Command: CmdDelete, FilePath: "a", Range: Span{Start: Point{Line: 1, Column: 1}, End: Point{Offset: 4, HasOffset: true}}}},
		{"replace", call("replace", `{"file_path":"a","content":"new","range":{"end":{"offset":4},"start":{"offset":2}}}`),
			Args{Command: CmdReplace, FilePath: "a", Content: "new", Range: Span{Start: Point{Offset: 2, HasOffset: true}, End: Point{Offset: 4, HasOffset: true}}}},
		{"replaceAll", call("replaceAll", `{"file_path":"a","pattern":"f(o+)","replacement":"b$1"}`),
			Args{Command: CmdReplaceAll, FilePath: "a", Pattern: "f(o+)", Replacement: "b$1"}},
		{"search", `{"arguments":{"pattern":"\\d+","file_path":"é.txt"},"command":"search"}`,
			Args{Command: CmdSearch, FilePath: "é.txt", Pattern: `\d+`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.raw))
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if (got.Regexp != nil) != (tt.want.Pattern != "") || (got.Regexp != nil && got.Regexp.String() != tt.want.Pattern) {
				t.Errorf("Regexp = %v, want the compiled %q", got.Regexp, tt.want.Pattern)
			}
			got.Regexp = nil
			if got != tt.want {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	const commands = `insert, delete, replace, replaceAll or search`
	const insertExample = `{"file_path": "/repo/a.txt", "content": "text", "position": {"line": 3, "column": 1}}`
	const posExample = `{"line": 3, "column": 1} or {"offset": 42}`
	const rangeExample = `{"start": {"line": 3, "column": 1}, "end": {"line": 4, "column": 1}}`
	const lineOrOffset = `give "line" and "column" together (1-based), or only "offset" (0-based)`
	ins := func(pos string) string {
		return call("insert", `{"file_path":"a","content":"x","position":`+pos+`}`)
	}
	del := func(rng string) string { return call("delete", `{"file_path":"a","range":`+rng+`}`) }
	tests := []struct{ name, raw, want string }{
		// The outer object.
		{"empty", ``, `invalid arguments: the arguments are empty; send one JSON object such as {"command": "insert", "arguments": ` + insertExample + `}`},
		{"not an object", `[1]`, `invalid arguments: the arguments must be a JSON object, got an array; send one object such as {"command": "insert", "arguments": ` + insertExample + `}`},
		{"cut off", `{"command":"insert"`, `invalid arguments: the arguments are not valid JSON: the object is cut off; send one complete JSON object`},
		{"unknown top field", `{"command":"search","arguments":{},"path":"a"}`, `invalid arguments: unknown field "path"; the accepted fields are "command" and "arguments"`},
		{"no command", `{"arguments":{}}`, `invalid arguments: missing "command"; set it to one of ` + commands},
		{"command number", `{"command":1}`, `invalid arguments: "command" must be a string (one of ` + commands + `), got a number`},
		{"unknown command", `{"command":"view"}`, `invalid arguments: unknown command "view"; use one of ` + commands},
		{"command case", `{"command":"replaceall"}`, `invalid arguments: unknown command "replaceall" (did you mean "replaceAll"? commands are case-sensitive); use one of ` + commands},
		{"no arguments", `{"command":"insert"}`, `invalid arguments: missing "arguments"; give an object with the insert fields "file_path", "content" and "position", such as ` + insertExample},
		{"arguments string", `{"command":"insert","arguments":"a.txt"}`, `invalid arguments: "arguments" must be a JSON object, got a string; send one object such as ` + insertExample},

		// The arguments object.
		{"field of another command", call("insert", `{"file_path":"a","content":"x","range":{}}`),
			`invalid arguments: unknown field "range" in "arguments"; the accepted fields are "file_path", "content" and "position"`},
		{"wrong case field", call("search", `{"File_path":"a","pattern":"x"}`),
			`invalid arguments: unknown field "File_path" in "arguments" (did you mean "file_path"? names are case-sensitive); the accepted fields are "file_path" and "pattern"`},
		{"repeated field", call("search", `{"file_path":"a","pattern":"x","pattern":"y"}`),
			`invalid arguments: "pattern" is given more than once in "arguments"; send each field once`},
		{"missing file_path", call("search", `{"pattern":"x"}`), `invalid arguments: search needs "file_path" in "arguments" (the path of the file)`},
		{"missing content", call("insert", `{"file_path":"a","position":{"offset":1}}`), `invalid arguments: insert needs "content" in "arguments" (the text to insert)`},
		{"missing replace content", call("replace", `{"file_path":"a","range":{}}`), `invalid arguments: replace needs "content" in "arguments" (the new text for the range)`},
		{"missing position", call("insert", `{"file_path":"a","content":"x"}`), `invalid arguments: insert needs "position" in "arguments" (where to insert, such as ` + posExample + `)`},
		{"missing range", call("delete", `{"file_path":"a"}`), `invalid arguments: delete needs "range" in "arguments" (the text to delete, such as ` + rangeExample + `)`},
		{"missing pattern", call("replaceAll", `{"file_path":"a","replacement":""}`), `invalid arguments: replaceAll needs "pattern" in "arguments" (a regular expression in Go's RE2 syntax)`},
		{"missing replacement", call("replaceAll", `{"file_path":"a","pattern":"x"}`), `invalid arguments: replaceAll needs "replacement" in "arguments" (the replacement text; $1 or ${name} inserts a capture group, $$ a literal $)`},
		{"empty file_path", call("search", `{"file_path":"","pattern":"x"}`), `invalid arguments: "file_path" is empty; give the path of the file to search`},
		{"empty file_path edit", call("delete", `{"file_path":"","range":{}}`), `invalid arguments: "file_path" is empty; give the path of the file to edit`},
		{"file_path number", call("search", `{"file_path":3,"pattern":"x"}`), `invalid arguments: "file_path" must be a string (the path of the file), got a number`},
		{"content array", call("insert", `{"file_path":"a","content":["x"],"position":{"offset":1}}`), `invalid arguments: "content" must be a string (the text to insert), got an array`},
		{"replacement bool", call("replaceAll", `{"file_path":"a","pattern":"x","replacement":true}`), `invalid arguments: "replacement" must be a string (the replacement text; $1 or ${name} inserts a capture group, $$ a literal $), got a boolean`},

		// Positions.
		{"position string", ins(`"3:1"`), `invalid arguments: "position" must be a JSON object, got a string; send one object such as ` + posExample},
		{"position empty", ins(`{}`), `invalid arguments: "position" needs "offset" (0-based), or "line" and "column" (1-based), such as ` + posExample},
		{"line without column", ins(`{"line":3}`), `invalid arguments: "position" has "line" but no "column"; ` + lineOrOffset},
		{"column without line", ins(`{"column":3}`), `invalid arguments: "position" has "column" but no "line"; ` + lineOrOffset},
		{"line and offset without column", ins(`{"line":3,"offset":7}`), `invalid arguments: "position" has "line" but no "column"; ` + lineOrOffset},
		{"unknown position field", ins(`{"line":3,"col":1}`), `invalid arguments: unknown field "col" in "position"; the accepted fields are "line", "column" and "offset"`},
		{"line 0", ins(`{"line":0,"column":1}`), `invalid arguments: "position.line" is 0, but lines are numbered from 1; use 1 for the first line`},
		{"column 0", ins(`{"line":1,"column":0}`), `invalid arguments: "position.column" is 0, but columns are numbered from 1; use 1 for the start of the line`},
		{"negative line", ins(`{"line":-2,"column":1}`), `invalid arguments: "position.line" is -2, but lines are numbered from 1; use 1 for the first line`},
		{"negative offset", ins(`{"offset":-1}`), `invalid arguments: "position.offset" is -1, but offsets are numbered from 0; use 0 for the start of the file`},
		{"offset string", ins(`{"offset":"4"}`), `invalid arguments: "position.offset" must be a whole number, got a string`},
		{"offset fraction", ins(`{"offset":4.5}`), `invalid arguments: "position.offset" must be a whole number, got 4.5`},
		{"huge offset", ins(`{"offset":1e30}`), `invalid arguments: "position.offset" is 1e30, which is too large to be an offset; use an offset of the file`},
		{"huge line", ins(`{"line":99999999999999999999,"column":1}`), `invalid arguments: "position.line" is 99999999999999999999, which is too large to be a line number; use a line number of the file`},
		{"huge column", ins(`{"line":1,"column":1e400}`), `invalid arguments: "position.column" is 1e400, which is too large to be a column number; use a column number of the file`},
		{"huge negative offset", ins(`{"offset":-99999999999999999999}`), `invalid arguments: "position.offset" is -99999999999999999999, which is too large to be an offset; use an offset of the file`},

		// Ranges.
		{"range array", del(`[1,2]`), `invalid arguments: "range" must be a JSON object, got an array; send one object such as ` + rangeExample},
		{"range no start", del(`{"end":{"offset":1}}`), `invalid arguments: "range" needs "start" (the first position of the range, inclusive), such as ` + rangeExample},
		{"range no end", del(`{"start":{"offset":1}}`), `invalid arguments: "range" needs "end" (the position just after the range, exclusive), such as ` + rangeExample},
		{"range unknown field", del(`{"start":{"offset":1},"stop":{"offset":2}}`), `invalid arguments: unknown field "stop" in "range"; the accepted fields are "start" and "end"`},
		{"range start bad", del(`{"start":{"line":1},"end":{"offset":2}}`), `invalid arguments: "range.start" has "line" but no "column"; ` + lineOrOffset},
		{"range end column 0", del(`{"start":{"offset":1},"end":{"line":1,"column":0}}`), `invalid arguments: "range.end.column" is 0, but columns are numbered from 1; use 1 for the start of the line`},
		{"range end not object", del(`{"start":{"offset":1},"end":5}`), `invalid arguments: "range.end" must be a JSON object, got a number; send one object such as ` + posExample},

		// Patterns.
		{"empty pattern", call("search", `{"file_path":"a","pattern":""}`), `invalid arguments: "pattern" is empty, and an empty pattern matches between every two characters; give a regular expression that matches the text`},
		{"pattern number", call("search", `{"file_path":"a","pattern":1}`), `invalid arguments: "pattern" must be a string (a regular expression in Go's RE2 syntax), got a number`},
		{"invalid pattern", call("search", `{"file_path":"a","pattern":"(a"}`),
			"invalid arguments: \"pattern\" is not a valid regular expression: missing closing ): `(a`; Go's RE2 syntax is used (no lookarounds or backreferences)"},
		{"lookahead", call("replaceAll", `{"file_path":"a","pattern":"a(?=b)","replacement":""}`),
			"invalid arguments: \"pattern\" is not a valid regular expression: invalid or unsupported Perl syntax: `(?=`; Go's RE2 syntax is used (no lookarounds or backreferences)"},
		{"backreference", call("search", `{"file_path":"a","pattern":"(a)\\1"}`),
			"invalid arguments: \"pattern\" is not a valid regular expression: invalid escape sequence: `\\1`; Go's RE2 syntax is used (no lookarounds or backreferences)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.raw))
			if err == nil {
				t.Fatalf("no error, got %+v", got)
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
