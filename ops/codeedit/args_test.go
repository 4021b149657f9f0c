package codeedit

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/jsonargs"
)

func TestParseValid(t *testing.T) {
	tests := []struct {
		raw  string
		want Args
	}{
		{`{"file_path": "a.py", "search": "x", "replace": "y"}`,
			Args{Edits: []Edit{{"a.py", "x", "y"}}}},
		{`{"file_path": "a.py", "search": "", "replace": ""}`,
			Args{Edits: []Edit{{"a.py", "", ""}}}},
		{`{"edits": [{"file_path": "a", "search": "1", "replace": "2"}, {"file_path": "b", "search": "", "replace": "3"}]}`,
			Args{Edits: []Edit{{"a", "1", "2"}, {"b", "", "3"}}, Multi: true}},
		// null counts as absent, so a null single-edit field beside "edits" is fine.
		{`{"file_path": null, "edits": [{"file_path": "a", "search": "1", "replace": "2"}]}`,
			Args{Edits: []Edit{{"a", "1", "2"}}, Multi: true}},
	}
	for _, tc := range tests {
		got, err := Parse([]byte(tc.raw))
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Parse(%s) = %+v, %v; want %+v", tc.raw, got, err, tc.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ raw, want string }{
		{``, `the arguments are empty`},
		{`[]`, `the arguments must be a JSON object`},
		{`{}`, `no edit given; send "file_path", "search" and "replace"`},
		{`{"search": "x", "replace": "y"}`, `missing "file_path" (the file to edit, relative to the project root)`},
		{`{"file_path": "a", "replace": "y"}`, `missing "search" (the exact lines to find; "" appends replace to the file, or creates it)`},
		{`{"file_path": "a", "search": "x"}`, `missing "replace" (the lines to put in place of search; "" deletes them)`},
		{`{"file_path": "", "search": "x", "replace": "y"}`, `"file_path" is empty`},
		{`{"file_path": 3, "search": "x", "replace": "y"}`, `"file_path" must be a string`},
		{`{"file_path": "a", "search": ["x"], "replace": "y"}`, `"search" must be a string`},
		{`{"file_path": "a", "search": "x", "replace": "y", "path": "b"}`, `unknown field "path"; the accepted fields are "file_path", "search", "replace" and "edits"`},
		{`{"File_path": "a", "search": "x", "replace": "y"}`, `did you mean "file_path"?`},
		{`{"file_path": "a", "search": "x", "replace": "y", "edits": []}`, `"file_path" and "edits" are both given`},
		{`{"edits": []}`, `"edits" is empty`},
		{`{"edits": {}}`, `"edits" must be an array`},
		{`{"edits": ["a"]}`, `"edits[0]" must be a JSON object`},
		{`{"edits": [{"file_path": "a", "search": "x", "replace": "y"}, {"file_path": "b", "search": "x"}]}`, `missing "replace" in "edits[1]"`},
		{`{"edits": [{"file_path": "a", "search": "x", "replace": 1}]}`, `"edits[0].replace" must be a string`},
		{`{"edits": [{"file_path": "a", "search": "x", "replace": "y", "edits": []}]}`, `unknown field "edits" in "edits[0]"`},
		{`{"tool_name": "code_edit", "tool_args": {}}`, `unknown field "tool_args": the arguments are what goes inside "tool_args", not the whole tool call; send the contents of tool_args`},
		{`{"thoughts": [], "file_path": "a", "search": "x", "replace": "y"}`, `unknown field "thoughts": the arguments are what goes inside "tool_args"`},
		{`{"file_path": "a", "search": "x", "replace": "y"} {}`, `unexpected data after the JSON object`},
	}
	for _, tc := range tests {
		_, err := Parse([]byte(tc.raw))
		if !errors.Is(err, ErrInvalidArgs) || !errors.Is(err, jsonargs.ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%s) = %v; want an ErrInvalidArgs containing %q", tc.raw, err, tc.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"file_path": "a", "search": "x", "replace": "y"}`))
	f.Add([]byte(`{"edits": [{"file_path": "a", "search": "x", "replace": "y"}]}`))
	f.Add([]byte(`{"tool_args": {}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		a, err := Parse(raw)
		if err != nil {
			if !errors.Is(err, ErrInvalidArgs) {
				t.Fatalf("unwrapped error: %v", err)
			}
			return
		}
		if len(a.Edits) == 0 {
			t.Fatal("no edits without an error")
		}
		for _, e := range a.Edits {
			if strings.TrimSpace(e.FilePath) == "" {
				t.Fatal("empty file_path accepted")
			}
		}
	})
}
