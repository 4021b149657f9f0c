package editlines

import (
	"errors"
	"reflect"
	"testing"
)

func TestParseValid(t *testing.T) {
	tests := []struct {
		name, raw string
		want      Args
	}{
		{"all kinds",
			`{"path":"a.go","operations":[{"op":"replace","startLine":5,"endLine":7,"content":["x","y"]},{"op":"insert","afterLine":10,"content":["z"]},{"op":"delete","startLine":15,"endLine":17}]}`,
			Args{Path: "a.go", Operations: []Operation{
				{Op: OpReplace, StartLine: 5, EndLine: 7, Content: []string{"x", "y"}},
				{Op: OpInsert, AfterLine: 10, Content: []string{"z"}},
				{Op: OpDelete, StartLine: 15, EndLine: 17},
			}}},
		{"field order free", `{"operations":[{"endLine":1,"startLine":1,"op":"delete"}],"path":"a"}`,
			Args{Path: "a", Operations: []Operation{{Op: OpDelete, StartLine: 1, EndLine: 1}}}},
		{"afterLine 0", `{"path":"a","operations":[{"op":"insert","afterLine":0,"content":[""]}]}`,
			Args{Path: "a", Operations: []Operation{{Op: OpInsert, AfterLine: 0, Content: []string{""}}}}},
		{"empty content", `{"path":"a","operations":[{"op":"replace","startLine":1,"endLine":1,"content":[]}]}`,
			Args{Path: "a", Operations: []Operation{{Op: OpReplace, StartLine: 1, EndLine: 1, Content: []string{}}}}},
		{"nulls for other kinds' fields", `{"path":"a","operations":[{"op":"insert","afterLine":2,"content":["x"],"startLine":null,"endLine":null}]}`,
			Args{Path: "a", Operations: []Operation{{Op: OpInsert, AfterLine: 2, Content: []string{"x"}}}}},
		{"integral float and exponent", `{"path":"a","operations":[{"op":"delete","startLine":3.0,"endLine":1e1}]}`,
			Args{Path: "a", Operations: []Operation{{Op: OpDelete, StartLine: 3, EndLine: 10}}}},
		{"startLine equals endLine", `{"path":"a","operations":[{"op":"delete","startLine":4,"endLine":4}]}`,
			Args{Path: "a", Operations: []Operation{{Op: OpDelete, StartLine: 4, EndLine: 4}}}},
		{"huge line numbers parse (bounds need the file)", `{"path":"a","operations":[{"op":"delete","startLine":1,"endLine":9007199254740993}]}`,
			Args{Path: "a", Operations: []Operation{{Op: OpDelete, StartLine: 1, EndLine: 9007199254740993}}}},
		{"escapes and newlines in content", `{"path":"\u00e9","operations":[{"op":"insert","afterLine":1,"content":["\ta\nb","\r\n"]}]}`,
			Args{Path: "é", Operations: []Operation{{Op: OpInsert, AfterLine: 1, Content: []string{"\ta\nb", "\r\n"}}}}},
		{"whitespace around", " \n{\"path\":\"a\",\"operations\":[{\"op\":\"delete\",\"startLine\":1,\"endLine\":1}]}\n ",
			Args{Path: "a", Operations: []Operation{{Op: OpDelete, StartLine: 1, EndLine: 1}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.raw))
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestParseErrors: the refusals that are not the seed's own texts (those are
// in TestSeedErrorTexts), in jsonargs' style.
func TestParseErrors(t *testing.T) {
	const example = `{"path": "src/main.go", "operations": [{"op": "replace", "startLine": 5, "endLine": 7, "content": ["new line 5", "new line 6"]}]}`
	const opExample = `{"op": "replace", "startLine": 5, "endLine": 7, "content": ["new line 5", "new line 6"]}`
	const opAccepted = `the accepted fields are "op", "startLine", "endLine", "afterLine" and "content"`
	wrap := func(op string) string { return `{"path":"a","operations":[` + op + `]}` }
	tests := []struct{ name, raw, want string }{
		// The arguments object.
		{"empty", ``, `invalid arguments: the arguments are empty; send one JSON object such as ` + example},
		{"array", `[]`, `invalid arguments: the arguments must be a JSON object, got an array; send one object such as ` + example},
		{"syntax", `{"path": a}`, `invalid arguments: the arguments are not valid JSON (invalid character 'a' looking for beginning of value); send one JSON object such as ` + example},
		{"cut off", `{"path":"a","operations":[`, `invalid arguments: the arguments are not valid JSON: the object is cut off; send one complete JSON object`},
		{"trailing data", `{"path":"a","operations":[]} {}`, `invalid arguments: unexpected data after the JSON object; send exactly one JSON object`},
		{"unknown field", `{"path":"a","operations":[],"dryRun":true}`, `invalid arguments: unknown field "dryRun"; the accepted fields are "path" and "operations"`},
		{"wrong case field", `{"Path":"a","operations":[]}`, `invalid arguments: unknown field "Path" (did you mean "path"? names are case-sensitive); the accepted fields are "path" and "operations"`},
		{"repeated field", `{"path":"a","path":"b","operations":[]}`, `invalid arguments: "path" is given more than once; send each field once`},

		// path.
		{"no path", `{"operations":[]}`, `invalid arguments: missing "path"; give the path of the file to edit`},
		{"null path", `{"path":null,"operations":[]}`, `invalid arguments: missing "path"; give the path of the file to edit`},
		{"empty path", `{"path":"","operations":[]}`, `invalid arguments: "path" is empty; give the path of the file to edit`},
		{"path number", `{"path":1,"operations":[]}`, `invalid arguments: "path" must be a string (the file's path), got a number`},

		// operations.
		{"no operations", `{"path":"a"}`, `invalid arguments: missing "operations"; give an array of operations such as ` + opExample},
		{"null operations", `{"path":"a","operations":null}`, `invalid arguments: missing "operations"; give an array of operations such as ` + opExample},
		{"operations object", `{"path":"a","operations":{"op":"delete"}}`, `invalid arguments: "operations" must be an array (an array of operations such as ` + opExample + `), got an object`},
		{"operation a string", wrap(`"delete 3"`), `invalid arguments: "operations[0]" must be a JSON object, got a string; send one object such as ` + opExample},
		{"operation null", wrap(`null`), `invalid arguments: "operations[0]" must be a JSON object, got null; send one object such as ` + opExample},
		{"unknown operation field", wrap(`{"op":"delete","startLine":1,"endLine":1,"lines":2}`), `invalid arguments: unknown field "lines" in "operations[0]"; ` + opAccepted},
		{"wrong case operation field", wrap(`{"op":"delete","startline":1,"endLine":1}`), `invalid arguments: unknown field "startline" in "operations[0]" (did you mean "startLine"? names are case-sensitive); ` + opAccepted},
		{"repeated operation field", wrap(`{"op":"delete","op":"delete"}`), `invalid arguments: "op" is given more than once in "operations[0]"; send each field once`},
		{"second operation reported by index", `{"path":"a","operations":[{"op":"delete","startLine":1,"endLine":1},{"op":"insert","afterLine":1,"content":["x"],"x":1}]}`,
			`invalid arguments: unknown field "x" in "operations[1]"; ` + opAccepted},

		// op.
		{"no op", wrap(`{"startLine":1,"endLine":1}`), `invalid arguments: missing "op" in "operations[0]"; set it to "replace", "insert" or "delete"`},
		{"op number", wrap(`{"op":1}`), `invalid arguments: "operations[0].op" must be a string ("replace", "insert" or "delete"), got a number`},
		{"op array", wrap(`{"op":["delete"]}`), `invalid arguments: "operations[0].op" must be a string ("replace", "insert" or "delete"), got an array`},

		// Fields per kind.
		{"insert with startLine", wrap(`{"op":"insert","afterLine":1,"startLine":1,"content":["x"]}`), `invalid arguments: "startLine" is not used by insert in "operations[0]"; remove it (insert takes "op", "afterLine" and "content")`},
		{"delete with content", wrap(`{"op":"delete","startLine":1,"endLine":1,"content":[]}`), `invalid arguments: "content" is not used by delete in "operations[0]"; remove it (delete takes "op", "startLine" and "endLine")`},
		{"replace with afterLine", wrap(`{"op":"replace","startLine":1,"endLine":1,"afterLine":0,"content":[]}`), `invalid arguments: "afterLine" is not used by replace in "operations[0]"; remove it (replace takes "op", "startLine", "endLine" and "content")`},
		{"replace without endLine", wrap(`{"op":"replace","startLine":1,"content":["x"]}`), `invalid arguments: replace in "operations[0]" needs "endLine" (the last line to replace, inclusive)`},
		{"replace without content", wrap(`{"op":"replace","startLine":1,"endLine":1}`), `invalid arguments: replace in "operations[0]" needs "content" (an array of strings, one per line, without line endings)`},
		{"delete without startLine", wrap(`{"op":"delete","endLine":1}`), `invalid arguments: delete in "operations[0]" needs "startLine" (the first line to delete, 1-based)`},
		{"insert without afterLine", wrap(`{"op":"insert","content":["x"]}`), `invalid arguments: insert in "operations[0]" needs "afterLine" (the line after which to insert; 0 inserts at the beginning of the file)`},
		{"insert with null content", wrap(`{"op":"insert","afterLine":0,"content":null}`), `invalid arguments: insert in "operations[0]" needs "content" (an array of strings, one per line, without line endings)`},

		// Line numbers.
		{"startLine string", wrap(`{"op":"delete","startLine":"3","endLine":4}`), `invalid arguments: "operations[0].startLine" must be a whole number, got a string`},
		{"endLine bool", wrap(`{"op":"delete","startLine":3,"endLine":true}`), `invalid arguments: "operations[0].endLine" must be a whole number, got a boolean`},
		{"afterLine fraction", wrap(`{"op":"insert","afterLine":1.5,"content":["x"]}`), `invalid arguments: "operations[0].afterLine" must be a whole number, got 1.5`},
		{"startLine huge", wrap(`{"op":"delete","startLine":1e30,"endLine":1e30}`), `invalid arguments: "operations[0].startLine" is 1e30, which is too large to be a line number; use a line number of the file`},
		{"endLine huge int", wrap(`{"op":"replace","startLine":1,"endLine":99999999999999999999,"content":[]}`), `invalid arguments: "operations[0].endLine" is 99999999999999999999, which is too large to be a line number; use a line number of the file`},
		{"afterLine huge negative", wrap(`{"op":"insert","afterLine":-1e400,"content":["x"]}`), `invalid arguments: "operations[0].afterLine" is -1e400, which is too large to be a line number; use a line number of the file`},

		// content.
		{"content a string", wrap(`{"op":"insert","afterLine":0,"content":"x"}`), `invalid arguments: "operations[0].content" must be an array (an array of strings, one per line, without line endings), got a string`},
		{"content an object", wrap(`{"op":"replace","startLine":1,"endLine":1,"content":{"0":"x"}}`), `invalid arguments: "operations[0].content" must be an array (an array of strings, one per line, without line endings), got an object`},
		{"number in content", wrap(`{"op":"insert","afterLine":0,"content":["x",2]}`), `invalid arguments: "operations[0].content[1]" must be a string (one line of text, without its line ending), got a number`},
		{"null in content", wrap(`{"op":"insert","afterLine":0,"content":[null]}`), `invalid arguments: "operations[0].content[0]" must be a string (one line of text, without its line ending), got null`},
		{"nested array in content", wrap(`{"op":"insert","afterLine":0,"content":[["x"]]}`), `invalid arguments: "operations[0].content[0]" must be a string (one line of text, without its line ending), got an array`},

		// Type errors come before value errors within an operation, and
		// operations are checked in input order.
		{"type error before range error", wrap(`{"op":"replace","startLine":5,"endLine":1,"content":"x"}`), `invalid arguments: "operations[0].content" must be an array (an array of strings, one per line, without line endings), got a string`},
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

// TestParseOrder: the first failing operation, in input order, is reported,
// whatever kind of failure it is.
func TestParseOrder(t *testing.T) {
	tests := []struct{ raw, want string }{
		{`{"path":"a","operations":[{"op":"delete","startLine":3,"endLine":1},{"op":"move"}]}`, "invalid range: startLine 3 > endLine 1"},
		{`{"path":"a","operations":[{"op":"move"},{"op":"delete","startLine":3,"endLine":1}]}`, "unknown operation: move"},
		{`{"path":"a","operations":[{"op":"delete","startLine":0,"endLine":-1}]}`, "invalid line number: 0 (must be >= 1)"},
		{`{"path":"a","operations":[{"op":"insert","afterLine":0,"content":[]},{"op":"delete","startLine":1,"endLine":1,"x":1}]}`,
			`invalid arguments: unknown field "x" in "operations[1]"; the accepted fields are "op", "startLine", "endLine", "afterLine" and "content"`},
		// A field no kind takes is refused by the decoder, before "op" is
		// looked at; a field of a known kind is judged only once the kind
		// is known, so an unknown op is reported first.
		{`{"path":"a","operations":[{"op":"move","to":3}]}`,
			`invalid arguments: unknown field "to" in "operations[0]"; the accepted fields are "op", "startLine", "endLine", "afterLine" and "content"`},
		{`{"path":"a","operations":[{"op":"move","afterLine":3}]}`, "unknown operation: move"},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.raw))
		if err == nil || seedPart(err) != tt.want {
			t.Errorf("%s\n got: %v\nwant: %s", tt.raw, err, tt.want)
		}
	}
}
