package exactedit

import (
	"strconv"

	"github.com/git-edit/git-edit/ops/jsonargs"
)

// DefaultReadLimit is the number of lines Read shows when "limit" is absent.
const DefaultReadLimit = 2000

// Accepted argument fields, in the order messages list them.
var (
	EditFields      = []string{"file_path", "old_string", "new_string", "replace_all", "expected_replacements", "line", "start_line"}
	MultiEditFields = []string{"file_path", "edits", "sequential"}
	EditItemFields  = []string{"old_string", "new_string", "replace_all", "expected_replacements", "line", "start_line"}
	ReadFields      = []string{"file_path", "offset", "limit"}
)

// EditArgs are the arguments of an Edit call, and of each item of a
// MultiEdit's "edits" (whose FilePath is the MultiEdit's file_path).
type EditArgs struct {
	FilePath   string // never empty; the caller resolves it
	OldString  string // may be empty here: PlanEdit refuses it, in the seed's style
	NewString  string // "" deletes OldString
	ReplaceAll bool   // default false
	// ExpectedReplacements is how many places old_string must match (Gemini
	// CLI's and Qwen Code's expected_replacements); 0 when not given.
	ExpectedReplacements int
	// Line is a 1-based line hint ("line", or "start_line" as Roo Code
	// names it) that picks among several places; 0 when not given.
	Line int
}

// MultiEditArgs are the arguments of a MultiEdit call.
type MultiEditArgs struct {
	FilePath string
	Edits    []EditArgs // at least one, applied in order
	// Sequential lets an edit change text an earlier edit of the call
	// wrote, when its place lies wholly inside that text; without it such
	// an edit is refused as overlapping (PlanMultiEdit).
	Sequential bool
}

// ReadArgs are the arguments of a Read call.
type ReadArgs struct {
	FilePath string
	Offset   int // first line to show, 1-based; default 1
	Limit    int // most lines to show; default DefaultReadLimit
}

// ReadResult is the success result of Read: Content is RenderRead's text,
// TotalLines the file's line count (text.LineCount), so an agent knows how far
// it may page.
type ReadResult struct {
	Content    string `json:"content"`
	TotalLines int    `json:"total_lines"`
}

var help = map[string]string{
	"file_path":  "the path of the file",
	"old_string": "the exact text to replace, copied from the file",
	"new_string": `the text to put in its place; "" deletes old_string`,
	"edits":      `an array of {"old_string", "new_string", "replace_all"} objects, applied in order`,
}

var (
	editSpec = jsonargs.Spec{Fields: EditFields,
		Example: `{"file_path": "/src/app.js", "old_string": "import { a } from './a';", "new_string": "import { b } from './b';"}`}
	multiEditSpec = jsonargs.Spec{Fields: MultiEditFields,
		Example: `{"file_path": "/src/app.js", "edits": [{"old_string": "a()", "new_string": "b()"}]}`}
	editItemExample = `{"old_string": "a()", "new_string": "b()"}`
	readSpec        = jsonargs.Spec{Fields: ReadFields, Example: `{"file_path": "/src/app.js"}`}
)

// ParseEdit decodes and checks the JSON arguments of an Edit call:
// "file_path" (a non-empty string), "old_string" and "new_string" (strings)
// are required, "replace_all" (a boolean) is optional. Decoding is
// jsonargs's: exactly one object, exact field names, no unknown or repeated
// fields, JSON null counts as absent. Emptiness of old_string and equality of
// the two strings are PlanEdit's to refuse, with the seed's texts. Every
// error is a *Failure with Message MsgInvalidArgs, wrapping ErrInvalidArgs.
func ParseEdit(raw []byte) (EditArgs, error) {
	fields, err := editSpec.Decode(raw)
	if err != nil {
		return EditArgs{}, InvalidArguments(err)
	}
	path, err := filePath(ToolEdit, fields)
	if err != nil {
		return EditArgs{}, err
	}
	a, err := editItem(ToolEdit, "", fields)
	a.FilePath = path
	return a, err
}

// ParseMultiEdit decodes and checks the JSON arguments of a MultiEdit call:
// "file_path" (a non-empty string) and "edits" (a non-empty array) are
// required; each item is an object with Edit's "old_string", "new_string"
// and optional "replace_all", and nothing else. Each item's FilePath is set
// to file_path. Errors as ParseEdit's; messages name an item by its JSON
// path, "edits[0]" for the first.
func ParseMultiEdit(raw []byte) (MultiEditArgs, error) {
	fields, err := multiEditSpec.Decode(raw)
	if err != nil {
		return MultiEditArgs{}, InvalidArguments(err)
	}
	path, err := filePath(ToolMultiEdit, fields)
	if err != nil {
		return MultiEditArgs{}, err
	}
	if !fields.Has("edits") {
		return MultiEditArgs{}, invalid(`MultiEdit needs "edits" (%s)`, help["edits"])
	}
	items, err := jsonargs.Array("edits", fields["edits"], "one object per edit")
	if err != nil {
		return MultiEditArgs{}, InvalidArguments(err)
	}
	if len(items) == 0 {
		return MultiEditArgs{}, invalid(`"edits" is empty; give at least one {"old_string", "new_string"} object`)
	}
	a := MultiEditArgs{FilePath: path, Edits: make([]EditArgs, len(items))}
	for i, item := range items {
		in := "edits[" + strconv.Itoa(i) + "]"
		f, err := jsonargs.Spec{In: in, Fields: EditItemFields, Example: editItemExample}.Decode(item)
		if err != nil {
			return MultiEditArgs{}, InvalidArguments(err)
		}
		if a.Edits[i], err = editItem(in, in, f); err != nil {
			return MultiEditArgs{}, err
		}
		a.Edits[i].FilePath = path
	}
	if fields.Has("sequential") {
		if a.Sequential, err = jsonargs.Bool("sequential", fields["sequential"]); err != nil {
			return MultiEditArgs{}, InvalidArguments(err)
		}
	}
	return a, nil
}

// ParseRead decodes and checks the JSON arguments of a Read call:
// "file_path" (a non-empty string) is required; "offset" (the first line to
// show, 1-based, default 1) and "limit" (how many lines, default
// DefaultReadLimit) are optional whole numbers of at least 1. Errors as
// ParseEdit's.
func ParseRead(raw []byte) (ReadArgs, error) {
	fields, err := readSpec.Decode(raw)
	if err != nil {
		return ReadArgs{}, InvalidArguments(err)
	}
	a := ReadArgs{Offset: 1, Limit: DefaultReadLimit}
	if a.FilePath, err = filePath(ToolRead, fields); err != nil {
		return ReadArgs{}, err
	}
	if fields.Has("offset") {
		if a.Offset, err = jsonargs.Int("offset", fields["offset"], "a line number"); err != nil {
			return ReadArgs{}, InvalidArguments(err)
		}
		if a.Offset < 1 {
			return ReadArgs{}, errOffset(a.Offset)
		}
	}
	if fields.Has("limit") {
		if a.Limit, err = jsonargs.Int("limit", fields["limit"], "a number of lines"); err != nil {
			return ReadArgs{}, InvalidArguments(err)
		}
		if a.Limit < 1 {
			return ReadArgs{}, errLimit(a.Limit)
		}
	}
	return a, nil
}

// filePath reads the required, non-empty "file_path".
func filePath(tool string, fields jsonargs.Object) (string, error) {
	if !fields.Has("file_path") {
		return "", invalid(`%s needs "file_path" (%s)`, tool, help["file_path"])
	}
	p, err := jsonargs.String("file_path", fields["file_path"], help["file_path"])
	if err != nil {
		return "", InvalidArguments(err)
	}
	if p == "" {
		return "", invalid(`"file_path" is empty; give the path of the file`)
	}
	return p, nil
}

// editItem reads old_string, new_string and replace_all of an Edit call
// (who is "Edit", in "") or of a MultiEdit item (who and in are "edits[i]").
func editItem(who, in string, fields jsonargs.Object) (EditArgs, error) {
	var a EditArgs
	for _, f := range []struct {
		name string
		dst  *string
	}{{"old_string", &a.OldString}, {"new_string", &a.NewString}} {
		if !fields.Has(f.name) {
			return EditArgs{}, invalid(`%s needs %q (%s)`, who, f.name, help[f.name])
		}
		s, err := jsonargs.String(f.name, fields[f.name], help[f.name])
		if err != nil {
			return EditArgs{}, withIn(err, in)
		}
		*f.dst = s
	}
	if fields.Has("replace_all") {
		b, err := jsonargs.Bool("replace_all", fields["replace_all"])
		if err != nil {
			return EditArgs{}, withIn(err, in)
		}
		a.ReplaceAll = b
	}
	if fields.Has("expected_replacements") {
		n, err := jsonargs.Int("expected_replacements", fields["expected_replacements"], "a number of occurrences")
		if err != nil {
			return EditArgs{}, withIn(err, in)
		}
		if n < 1 {
			return EditArgs{}, invalidIn(in, `"expected_replacements" is %d; it is the number of occurrences of old_string to replace, at least 1 (leave it out to require a unique old_string)`, n)
		}
		a.ExpectedReplacements = n
	}
	name := "line"
	if fields.Has("start_line") {
		if fields.Has("line") {
			return EditArgs{}, invalidIn(in, `give the line hint as "line" or as "start_line", not both`)
		}
		name = "start_line"
	}
	if fields.Has(name) {
		n, err := jsonargs.Int(name, fields[name], "a line number")
		if err != nil {
			return EditArgs{}, withIn(err, in)
		}
		if n < 1 {
			return EditArgs{}, invalidIn(in, `%q is %d, but lines are numbered from 1; give the line where the text to replace starts`, name, n)
		}
		a.Line = n
	}
	return a, nil
}

// invalidIn is invalid, prefixed with the item it is in ("edits[2]: ").
func invalidIn(in, format string, args ...any) *Failure {
	f := invalid(format, args...)
	if in != "" {
		f.Details = in + ": " + f.Details
	}
	return f
}

// withIn prefixes a jsonargs type error, which names the field alone, with
// the item it is in ("edits[2]: ").
func withIn(err error, in string) error {
	f := InvalidArguments(err)
	if in != "" {
		f.Details = in + ": " + f.Details
	}
	return f
}
