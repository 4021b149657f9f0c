package exactedit

import (
	"errors"
	"reflect"
	"testing"

	"github.com/git-edit/git-edit/ops/jsonargs"
)

func TestParseEdit(t *testing.T) {
	tests := []struct {
		raw  string
		want EditArgs
	}{
		{`{"file_path": "/a.go", "old_string": "x", "new_string": "y"}`, EditArgs{FilePath: "/a.go", OldString: "x", NewString: "y"}},
		{`{"file_path": "/a.go", "old_string": "x", "new_string": "", "replace_all": true}`, EditArgs{FilePath: "/a.go", OldString: "x", ReplaceAll: true}},
		{`{"file_path": "/a.go", "old_string": "x", "new_string": "y", "replace_all": null}`, EditArgs{FilePath: "/a.go", OldString: "x", NewString: "y"}},
		// Emptiness and equality are PlanEdit's to refuse, in the seed's words.
		{`{"file_path": "a.go", "old_string": "", "new_string": ""}`, EditArgs{FilePath: "a.go"}},
		// gemini-cli replace's expected_replacements; roo-code's start_line, or line.
		{`{"file_path": "a.go", "old_string": "x", "new_string": "y", "expected_replacements": 2}`, EditArgs{FilePath: "a.go", OldString: "x", NewString: "y", ExpectedReplacements: 2}},
		{`{"file_path": "a.go", "old_string": "x", "new_string": "y", "line": 7}`, EditArgs{FilePath: "a.go", OldString: "x", NewString: "y", Line: 7}},
		{`{"file_path": "a.go", "old_string": "x", "new_string": "y", "start_line": 7.0, "expected_replacements": null}`, EditArgs{FilePath: "a.go", OldString: "x", NewString: "y", Line: 7}},
	}
	for _, tt := range tests {
		got, err := ParseEdit([]byte(tt.raw))
		if err != nil || got != tt.want {
			t.Errorf("ParseEdit(%s) = %+v, %v; want %+v", tt.raw, got, err, tt.want)
		}
	}
}

func TestParseMultiEdit(t *testing.T) {
	raw := `{"file_path": "/a.go", "edits": [{"old_string": "a", "new_string": "b", "line": 3}, {"old_string": "c", "new_string": "", "replace_all": true, "expected_replacements": 4}], "sequential": true}`
	got, err := ParseMultiEdit([]byte(raw))
	want := MultiEditArgs{FilePath: "/a.go", Sequential: true, Edits: []EditArgs{
		{FilePath: "/a.go", OldString: "a", NewString: "b", Line: 3},
		{FilePath: "/a.go", OldString: "c", ReplaceAll: true, ExpectedReplacements: 4},
	}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("ParseMultiEdit = %+v, %v; want %+v", got, err, want)
	}
}

func TestParseRead(t *testing.T) {
	tests := []struct {
		raw  string
		want ReadArgs
	}{
		{`{"file_path": "/a.go"}`, ReadArgs{FilePath: "/a.go", Offset: 1, Limit: 2000}},
		{`{"file_path": "/a.go", "offset": 10, "limit": 5}`, ReadArgs{FilePath: "/a.go", Offset: 10, Limit: 5}},
		{`{"file_path": "/a.go", "offset": null, "limit": 3.0}`, ReadArgs{FilePath: "/a.go", Offset: 1, Limit: 3}},
	}
	for _, tt := range tests {
		got, err := ParseRead([]byte(tt.raw))
		if err != nil || got != tt.want {
			t.Errorf("ParseRead(%s) = %+v, %v; want %+v", tt.raw, got, err, tt.want)
		}
	}
}

// TestParseRefusals pins the details of every kind of refusal; each is a
// *Failure "Invalid arguments" wrapping jsonargs.ErrInvalid.
func TestParseRefusals(t *testing.T) {
	edit := func(raw []byte) error { _, err := ParseEdit(raw); return err }
	multi := func(raw []byte) error { _, err := ParseMultiEdit(raw); return err }
	read := func(raw []byte) error { _, err := ParseRead(raw); return err }
	tests := []struct {
		name    string
		parse   func([]byte) error
		raw     string
		details string
	}{
		{"Edit: empty", edit, ``,
			`the arguments are empty; send one JSON object such as {"file_path": "/src/app.js", "old_string": "import { a } from './a';", "new_string": "import { b } from './b';"}`},
		{"Edit: not an object", edit, `[]`,
			`the arguments must be a JSON object, got an array; send one object such as {"file_path": "/src/app.js", "old_string": "import { a } from './a';", "new_string": "import { b } from './b';"}`},
		{"Edit: unknown field", edit, `{"file_path": "/a", "old_string": "a", "new_string": "b", "path": "/a"}`,
			`unknown field "path"; the accepted fields are "file_path", "old_string", "new_string", "replace_all", "expected_replacements", "line" and "start_line"`},
		{"Edit: wrong case", edit, `{"file_path": "/a", "Old_string": "a", "new_string": "b"}`,
			`unknown field "Old_string" (did you mean "old_string"? names are case-sensitive); the accepted fields are "file_path", "old_string", "new_string", "replace_all", "expected_replacements", "line" and "start_line"`},
		{"Edit: repeated field", edit, `{"file_path": "/a", "old_string": "a", "old_string": "b", "new_string": "b"}`,
			`"old_string" is given more than once; send each field once`},
		{"Edit: missing file_path", edit, `{"old_string": "a", "new_string": "b"}`,
			`Edit needs "file_path" (the path of the file)`},
		{"Edit: empty file_path", edit, `{"file_path": "", "old_string": "a", "new_string": "b"}`,
			`"file_path" is empty; give the path of the file`},
		{"Edit: missing old_string", edit, `{"file_path": "/a", "new_string": "b"}`,
			`Edit needs "old_string" (the exact text to replace, copied from the file)`},
		{"Edit: null new_string is missing", edit, `{"file_path": "/a", "old_string": "a", "new_string": null}`,
			`Edit needs "new_string" (the text to put in its place; "" deletes old_string)`},
		{"Edit: old_string not a string", edit, `{"file_path": "/a", "old_string": 3, "new_string": "b"}`,
			`"old_string" must be a string (the exact text to replace, copied from the file), got a number`},
		{"Edit: replace_all not a boolean", edit, `{"file_path": "/a", "old_string": "a", "new_string": "b", "replace_all": "true"}`,
			`"replace_all" must be true or false, got a string`},
		{"Edit: file_path not a string", edit, `{"file_path": ["/a"], "old_string": "a", "new_string": "b"}`,
			`"file_path" must be a string (the path of the file), got an array`},
		{"Edit: trailing data", edit, `{"file_path": "/a", "old_string": "a", "new_string": "b"} {}`,
			`unexpected data after the JSON object; send exactly one JSON object`},

		{"MultiEdit: missing edits", multi, `{"file_path": "/a"}`,
			`MultiEdit needs "edits" (an array of {"old_string", "new_string", "replace_all"} objects, applied in order)`},
		{"MultiEdit: edits not an array", multi, `{"file_path": "/a", "edits": {"old_string": "a", "new_string": "b"}}`,
			`"edits" must be an array (one object per edit), got an object`},
		{"MultiEdit: edits empty", multi, `{"file_path": "/a", "edits": []}`,
			`"edits" is empty; give at least one {"old_string", "new_string"} object`},
		{"MultiEdit: item not an object", multi, `{"file_path": "/a", "edits": ["a"]}`,
			`"edits[0]" must be a JSON object, got a string; send one object such as {"old_string": "a()", "new_string": "b()"}`},
		{"MultiEdit: item with file_path", multi, `{"file_path": "/a", "edits": [{"old_string": "a", "new_string": "b"}, {"file_path": "/a", "old_string": "a", "new_string": "b"}]}`,
			`unknown field "file_path" in "edits[1]"; the accepted fields are "old_string", "new_string", "replace_all", "expected_replacements", "line" and "start_line"`},
		{"MultiEdit: item missing new_string", multi, `{"file_path": "/a", "edits": [{"old_string": "a", "new_string": "b"}, {"old_string": "c"}]}`,
			`edits[1] needs "new_string" (the text to put in its place; "" deletes old_string)`},
		{"MultiEdit: item replace_all wrong type", multi, `{"file_path": "/a", "edits": [{"old_string": "a", "new_string": "b", "replace_all": 1}]}`,
			`edits[0]: "replace_all" must be true or false, got a number`},
		{"Edit: expected_replacements 0", edit, `{"file_path": "/a", "old_string": "a", "new_string": "b", "expected_replacements": 0}`,
			`"expected_replacements" is 0; it is the number of occurrences of old_string to replace, at least 1 (leave it out to require a unique old_string)`},
		{"Edit: expected_replacements fractional", edit, `{"file_path": "/a", "old_string": "a", "new_string": "b", "expected_replacements": 1.5}`,
			`"expected_replacements" must be a whole number, got 1.5`},
		{"Edit: line 0", edit, `{"file_path": "/a", "old_string": "a", "new_string": "b", "line": 0}`,
			`"line" is 0, but lines are numbered from 1; give the line where the text to replace starts`},
		{"Edit: line and start_line both", edit, `{"file_path": "/a", "old_string": "a", "new_string": "b", "line": 2, "start_line": 2}`,
			`give the line hint as "line" or as "start_line", not both`},
		{"MultiEdit: item start_line negative", multi, `{"file_path": "/a", "edits": [{"old_string": "a", "new_string": "b", "start_line": -1}]}`,
			`edits[0]: "start_line" is -1, but lines are numbered from 1; give the line where the text to replace starts`},
		{"MultiEdit: item expected_replacements a string", multi, `{"file_path": "/a", "edits": [{"old_string": "a", "new_string": "b", "expected_replacements": "2"}]}`,
			`edits[0]: "expected_replacements" must be a whole number, got a string`},
		{"MultiEdit: sequential not a boolean", multi, `{"file_path": "/a", "edits": [{"old_string": "a", "new_string": "b"}], "sequential": "yes"}`,
			`"sequential" must be true or false, got a string`},
		{"MultiEdit: missing file_path", multi, `{"edits": [{"old_string": "a", "new_string": "b"}]}`,
			`MultiEdit needs "file_path" (the path of the file)`},

		{"Read: missing file_path", read, `{}`, `Read needs "file_path" (the path of the file)`},
		{"Read: offset 0", read, `{"file_path": "/a", "offset": 0}`,
			`"offset" is 0, but lines are numbered from 1; use 1 (or leave "offset" out) to start at the first line`},
		{"Read: negative limit", read, `{"file_path": "/a", "limit": -5}`,
			`"limit" is -5; it is the number of lines to show, at least 1 (leave it out for 2000)`},
		{"Read: fractional offset", read, `{"file_path": "/a", "offset": 1.5}`, `"offset" must be a whole number, got 1.5`},
		{"Read: offset as a string", read, `{"file_path": "/a", "offset": "10"}`, `"offset" must be a whole number, got a string`},
		{"Read: huge limit", read, `{"file_path": "/a", "limit": 1e300}`,
			`"limit" is 1e300, which is too large to be a number of lines; use a number of lines of the file`},
		{"Read: unknown field", read, `{"file_path": "/a", "pages": 2}`,
			`unknown field "pages"; the accepted fields are "file_path", "offset" and "limit"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.parse([]byte(tt.raw))
			checkFailure(t, err, "Invalid arguments", tt.details, jsonargs.ErrInvalid)
		})
	}
}

// TestConstructors pins the texts the engine uses for file-level refusals.
func TestConstructors(t *testing.T) {
	checkFailure(t, NotRead("/src/app.js"), "File must be read before editing",
		"Use Read tool on file before attempting edits: Read /src/app.js first, then send the edit with old_string copied from what Read shows", ErrNotRead)
	checkFailure(t, ModifiedSinceRead("/src/app.js"), "File has been modified since it was read",
		"/src/app.js changed after your last Read of it; read it again, then send the edit with old_string copied from the new content", ErrModified)
	checkFailure(t, FileNotFound("/src/gone.js"), "File not found",
		"There is no file at /src/gone.js; check file_path, or, to create the file, send an empty old_string with the whole text as new_string", ErrFileNotFound)
	f := InvalidArguments(jsonargs.Invalid("x is bad"))
	checkFailure(t, f, "Invalid arguments", "x is bad", ErrInvalidArgs)
	if f.Error() != "Invalid arguments: x is bad" {
		t.Errorf("Error() = %q", f.Error())
	}
	if (&Failure{Message: "m"}).Error() != "m" {
		t.Errorf("Error() without details should be the message alone")
	}
	if errors.Is(NotRead("/a"), ErrModified) {
		t.Errorf("NotRead unwraps to ErrModified")
	}
}
