// Package codeedit is the pure logic of the code_edit dialect (seed 003):
// Aider-style SEARCH/REPLACE edits. Parse decodes and checks the JSON
// arguments; Plan resolves one edit against the current bytes of its file
// (stripping pasted wrappers such as ``` fences, then appending for an empty
// search or matching otherwise); Match is the line matcher itself and Append
// the empty-search case. All of them compile to text.Edit spans over the bytes
// they are given. Nothing here touches the disk or git.
//
// Matching works on whole lines and tries, in order, stages that tolerate
// more and more of what agents get wrong: exact lines, trailing whitespace,
// a uniform indentation offset (or another indentation unit, such as spaces
// for tabs), a spurious blank first or last line, and `...` elision. The
// first stage that matches wins, and within it the earliest place in the
// file; the other places are reported, never silently ignored. When nothing
// matches, *NoMatch says which lines of the file come closest and whether the
// REPLACE text is already there.
package codeedit

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/git-edit/git-edit/ops/jsonargs"
)

// ToolName is the dialect's tool name (CLI and MCP).
const ToolName = "code_edit"

// Fields lists the accepted top-level fields: one edit's three, or "edits".
var Fields = []string{"file_path", "search", "replace", "edits"}

// EditFields lists the fields of each object in "edits"; all are required.
var EditFields = []string{"file_path", "search", "replace"}

// envelopeFields are the seed example's wrapper around the arguments, which
// agents sometimes send whole.
var envelopeFields = []string{"tool_args", "tool_name", "thoughts", "headline"}

// Edit is one SEARCH/REPLACE edit as the agent sent it (nothing stripped).
type Edit struct {
	FilePath string // the file, relative to the project root; never empty
	Search   string // the lines to find; "" appends Replace (or creates the file)
	Replace  string // the lines to put in their place; "" deletes them
}

// Args are the decoded, validated arguments of one code_edit call.
type Args struct {
	// Edits holds one edit for the single form and the list, in order, for
	// the "edits" form. Never empty. Several edits may name the same file:
	// they apply one after another, each to the result of the previous.
	Edits []Edit
	// Multi reports that the "edits" form was used, so the result lists
	// per-edit "results" as the seed's response format describes.
	Multi bool
}

const editExample = `{"file_path": "src/utils.py", "search": "import os\n", "replace": "import os\nimport json\n"}`

var argsSpec = jsonargs.Spec{Fields: Fields, Example: editExample}

var fieldHelp = map[string]string{
	"file_path": "the file to edit, relative to the project root",
	"search":    `the exact lines to find; "" appends replace to the file, or creates it`,
	"replace":   `the lines to put in place of search; "" deletes them`,
}

// Parse decodes and checks the JSON arguments of a code_edit call.
//
// raw must be exactly one JSON object, either one edit {"file_path",
// "search", "replace"} or {"edits": [{"file_path", "search", "replace"},
// ...]} with at least one edit; not both forms at once. Field names are exact
// (case-sensitive); unknown and repeated fields are refused, and a field whose
// value is null counts as absent. Every field of an edit is required and must
// be a string; file_path must not be empty, search and replace may be. The
// seed example's envelope ("thoughts", "headline", "tool_name", "tool_args")
// is refused with a message saying to send the contents of tool_args.
//
// Every error wraps jsonargs.ErrInvalid (ErrInvalidArgs) and names the field.
func Parse(raw []byte) (Args, error) {
	fields, err := argsSpec.Decode(raw)
	if err != nil {
		if f := envelopeField(raw); f != "" {
			return Args{}, jsonargs.Invalid(`unknown field %q: the arguments are what goes inside "tool_args", not the whole tool call; send the contents of tool_args, such as %s, without "thoughts", "headline", "tool_name" and "tool_args"`, f, editExample)
		}
		return Args{}, err
	}
	if fields.Has("edits") {
		for _, f := range EditFields {
			if fields.Has(f) {
				return Args{}, jsonargs.Invalid(`%q and "edits" are both given; send either "file_path", "search" and "replace" for one edit, or "edits", a list of such objects, not both (move %q into an object of "edits")`, f, f)
			}
		}
		items, err := jsonargs.Array("edits", fields["edits"], "a list of edits such as "+editExample)
		if err != nil {
			return Args{}, err
		}
		if len(items) == 0 {
			return Args{}, jsonargs.Invalid(`"edits" is empty; give at least one edit such as %s`, editExample)
		}
		a := Args{Edits: make([]Edit, len(items)), Multi: true}
		for i, item := range items {
			if a.Edits[i], err = parseEdit("edits["+strconv.Itoa(i)+"]", item); err != nil {
				return Args{}, err
			}
		}
		return a, nil
	}
	if len(fields) == 0 {
		return Args{}, jsonargs.Invalid(`no edit given; send "file_path", "search" and "replace", such as %s, or "edits", a list of such objects`, editExample)
	}
	e, err := editFields("", fields)
	if err != nil {
		return Args{}, err
	}
	return Args{Edits: []Edit{e}}, nil
}

// parseEdit decodes one object of "edits".
func parseEdit(in string, raw json.RawMessage) (Edit, error) {
	fields, err := jsonargs.Spec{In: in, Fields: EditFields, Example: editExample}.Decode(raw)
	if err != nil {
		return Edit{}, err
	}
	return editFields(in, fields)
}

// editFields checks the three fields of one edit; in is "" for the single
// form or "edits[i]".
func editFields(in string, fields jsonargs.Object) (Edit, error) {
	name := func(f string) string {
		if in == "" {
			return f
		}
		return in + "." + f
	}
	where := ""
	if in != "" {
		where = " in " + strconv.Quote(in)
	}
	for _, f := range EditFields {
		if !fields.Has(f) {
			return Edit{}, jsonargs.Invalid(`missing %q%s (%s)`, f, where, fieldHelp[f])
		}
	}
	var e Edit
	var err error
	if e.FilePath, err = jsonargs.String(name("file_path"), fields["file_path"], fieldHelp["file_path"]); err != nil {
		return Edit{}, err
	}
	if strings.TrimSpace(e.FilePath) == "" {
		return Edit{}, jsonargs.Invalid(`%q is empty; give the path of the file to edit, relative to the project root`, name("file_path"))
	}
	if e.Search, err = jsonargs.String(name("search"), fields["search"], fieldHelp["search"]); err != nil {
		return Edit{}, err
	}
	if e.Replace, err = jsonargs.String(name("replace"), fields["replace"], fieldHelp["replace"]); err != nil {
		return Edit{}, err
	}
	return e, nil
}

// envelopeField returns the first envelope field of raw's top-level object,
// or "" when raw is not such an object or has none. It runs only after
// Decode refused raw, to explain that refusal better.
func envelopeField(raw []byte) string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return ""
	}
	for _, f := range envelopeFields {
		if _, ok := obj[f]; ok {
			return f
		}
	}
	return ""
}
