// Package texteditor is the pure logic of the text_editor dialect (view,
// write, create, str_replace, insert, undo_edit): argument parsing and
// validation, planning edits as text.Edit spans, and rendering views. It never
// touches the disk or git.
package texteditor

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/git-edit/git-edit/ops/jsonargs"
)

// Commands accepted in the "command" field.
const (
	CmdView       = "view"
	CmdWrite      = "write"
	CmdCreate     = "create"
	CmdStrReplace = "str_replace"
	CmdInsert     = "insert"
	CmdUndoEdit   = "undo_edit"
)

// Commands lists the accepted commands in the order error messages show them.
var Commands = []string{CmdView, CmdWrite, CmdCreate, CmdStrReplace, CmdInsert, CmdUndoEdit}

// Fields lists the accepted argument fields in the order error messages show them.
var Fields = []string{"command", "path", "file_text", "old_str", "new_str", "insert_line", "view_range", "line"}

// Sentinels wrapped (with %w) by this package's errors.
var (
	// ErrInvalidArgs: the arguments are malformed or incomplete for the
	// command. It is the error every dialect's argument checks share.
	ErrInvalidArgs = jsonargs.ErrInvalid
	// ErrNotFound: str_replace's old_str does not occur in the file.
	ErrNotFound = errors.New("old_str not found")
	// ErrAmbiguous: str_replace's old_str occurs more than once.
	ErrAmbiguous = errors.New("old_str is not unique")
	// ErrOutOfRange: insert_line or view_range is beyond the file's lines.
	ErrOutOfRange = errors.New("line out of range")
	// ErrTooLarge: a view or a file_text exceeds the dialect's limits.
	ErrTooLarge = errors.New("too large")
)

// Args are the decoded, validated arguments of one text_editor call. Optional
// fields are nil when absent (or JSON null), so "missing" and "empty" differ:
// an empty NewStr is a valid deletion.
type Args struct {
	Command    string
	Path       string
	FileText   *string // write, create
	OldStr     *string // str_replace; never empty
	NewStr     *string // str_replace (may be empty), insert (never empty)
	InsertLine *int    // insert; a negative line counts from the end (-1: after the last line)
	Line       int     // str_replace's line hint (1-based); 0 when absent
	ViewRange  []int   // view; nil or [start, end] with start >= 1 and end == -1 or end >= start
}

// fieldUse says, per command, which fields are required and which are allowed.
type fieldUse struct {
	required []string
	optional []string
}

var commandFields = map[string]fieldUse{
	CmdView:       {required: []string{"path"}, optional: []string{"view_range"}},
	CmdWrite:      {required: []string{"path", "file_text"}},
	CmdCreate:     {required: []string{"path", "file_text"}},
	CmdStrReplace: {required: []string{"path", "old_str", "new_str"}, optional: []string{"line"}},
	CmdInsert:     {required: []string{"path", "insert_line", "new_str"}},
	CmdUndoEdit:   {required: []string{"path"}},
}

// help describes a field of a command in "missing" messages.
func help(cmd, field string) string {
	if cmd == CmdInsert && field == "new_str" {
		return "the lines to insert"
	}
	return fieldHelp[field]
}

var fieldHelp = map[string]string{
	"path":        "the file to operate on",
	"file_text":   "the entire new content of the file",
	"old_str":     "the exact text to replace",
	"new_str":     "the replacement text; use \"\" to delete old_str",
	"insert_line": "the line after which to insert; 0 inserts before the first line",
	"view_range":  "[start, end]",
	"line":        "the line where old_str starts, to pick one of several occurrences",
}

var argsSpec = jsonargs.Spec{Fields: Fields, Example: `{"command": "view", "path": "README.md"}`}

// Parse decodes and validates the JSON arguments of a text_editor call.
//
// raw must be exactly one JSON object (whitespace around it is fine, anything
// after it is refused). Field names are matched exactly (case-sensitive);
// unknown and repeated fields are refused. A field whose value is JSON null
// counts as absent. Then, per command: the required fields must be present
// with the right JSON types, fields the command does not use are refused,
// path must be non-empty, old_str non-empty, insert's new_str non-empty,
// str_replace's line (optional) >= 1, view_range two integers [start, end] with start >= 1 and
// end == -1 or end >= start, and file_text at most MaxWriteChars characters.
//
// Every error wraps ErrInvalidArgs (an oversized file_text wraps ErrTooLarge
// instead) and says what was wrong and what to do.
func Parse(raw []byte) (Args, error) {
	fields, err := argsSpec.Decode(raw)
	if err != nil {
		return Args{}, err
	}

	var a Args
	cmdRaw, ok := fields["command"]
	if !ok {
		return Args{}, invalid(`missing "command"; set it to one of %s`, orList(Commands))
	}
	if a.Command, err = jsonargs.String("command", cmdRaw, "one of "+orList(Commands)); err != nil {
		return Args{}, err
	}
	use, ok := commandFields[a.Command]
	if !ok {
		return Args{}, invalid(`unknown command %q; use one of %s`, a.Command, orList(Commands))
	}

	for _, f := range use.required {
		if _, ok := fields[f]; !ok {
			return Args{}, invalid(`%s needs %q (%s)`, a.Command, f, help(a.Command, f))
		}
	}
	for _, f := range Fields {
		if _, given := fields[f]; given && f != "command" && !contains(use.required, f) && !contains(use.optional, f) {
			return Args{}, invalid(`%q is not used by %s; remove it (%s takes %s)`, f, a.Command, a.Command, takes(use))
		}
	}

	if a.Path, err = jsonargs.String("path", fields["path"], "the file's path"); err != nil {
		return Args{}, err
	}
	if a.Path == "" {
		return Args{}, invalid(`"path" is empty; give the path of the file to %s`, verb(a.Command))
	}

	switch a.Command {
	case CmdWrite, CmdCreate:
		s, err := jsonargs.String("file_text", fields["file_text"], "the file's entire content")
		if err != nil {
			return Args{}, err
		}
		if n := utf8.RuneCountInString(s); n > MaxWriteChars {
			return Args{}, fmt.Errorf(`%w: "file_text" has %s characters, more than the limit of %s; write a smaller file, or write the first part and add the rest with "insert"`,
				ErrTooLarge, thousands(n), thousands(MaxWriteChars))
		}
		a.FileText = &s
	case CmdStrReplace:
		o, err := jsonargs.String("old_str", fields["old_str"], "the exact text to replace")
		if err != nil {
			return Args{}, err
		}
		if o == "" {
			return Args{}, invalid(`"old_str" is empty, and empty text cannot be located; to add text use "insert" with "insert_line", or "write" to replace the whole file`)
		}
		n, err := jsonargs.String("new_str", fields["new_str"], `the replacement text; "" deletes old_str`)
		if err != nil {
			return Args{}, err
		}
		a.OldStr, a.NewStr = &o, &n
		if r, ok := fields["line"]; ok {
			if a.Line, err = jsonargs.Int("line", r, "a line number"); err != nil {
				return Args{}, err
			}
			if a.Line < 1 {
				return Args{}, invalid(`"line" is %d, but lines are numbered from 1; give the line where old_str starts, or leave "line" out`, a.Line)
			}
		}
	case CmdInsert:
		line, err := jsonargs.Int("insert_line", fields["insert_line"], "a line number")
		if err != nil {
			return Args{}, err
		}
		n, err := jsonargs.String("new_str", fields["new_str"], "the lines to insert")
		if err != nil {
			return Args{}, err
		}
		if n == "" {
			return Args{}, invalid(`"new_str" is empty, so there is nothing to insert; give the lines to insert in "new_str"`)
		}
		a.InsertLine, a.NewStr = &line, &n
	case CmdView:
		if r, ok := fields["view_range"]; ok {
			if a.ViewRange, err = viewRange(r); err != nil {
				return Args{}, err
			}
		}
	}
	return a, nil
}

// viewRange decodes and checks [start, end].
func viewRange(raw json.RawMessage) ([]int, error) {
	const fix = `use [start, end] with 1-based line numbers, or [start, -1] to view to the end of the file`
	if kind := jsonargs.Kind(raw); kind != "an array" {
		return nil, invalid(`"view_range" must be an array of two whole numbers, got %s; %s`, kind, fix)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, invalid(`"view_range" is not a valid array (%v); %s`, err, fix)
	}
	if len(items) != 2 {
		return nil, invalid(`"view_range" must have exactly 2 numbers, got %d; %s`, len(items), fix)
	}
	r := make([]int, 2)
	for i, name := range []string{"view_range start", "view_range end"} {
		n, err := jsonargs.Int(name, items[i], "a line number")
		if err != nil {
			return nil, err
		}
		r[i] = n
	}
	if r[0] < 1 {
		return nil, invalid(`"view_range" start is %d, but lines are numbered from 1; %s`, r[0], fix)
	}
	if r[1] != -1 && r[1] < r[0] {
		return nil, invalid(`"view_range" end %d is before start %d; use an end of at least %d, or -1 to view to the end of the file`, r[1], r[0], r[0])
	}
	return r, nil
}

func invalid(format string, args ...any) error { return jsonargs.Invalid(format, args...) }

func contains(list []string, s string) bool { return slices.Contains(list, s) }

var (
	andList   = jsonargs.AndList
	orList    = jsonargs.OrList
	quoteAll  = jsonargs.QuoteAll
	thousands = jsonargs.Thousands
)

// takes describes a command's fields for the "not used" message.
func takes(u fieldUse) string {
	s := andList(quoteAll(u.required))
	if len(u.optional) > 0 {
		s += " and optionally " + andList(quoteAll(u.optional))
	}
	return s
}

func verb(cmd string) string {
	switch cmd {
	case CmdStrReplace, CmdInsert:
		return "edit"
	case CmdUndoEdit:
		return "undo"
	}
	return cmd
}
