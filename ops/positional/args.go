package positional

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"

	"github.com/git-edit/git-edit/ops/jsonargs"
)

// Commands accepted in the "command" field.
const (
	CmdInsert     = "insert"
	CmdDelete     = "delete"
	CmdReplace    = "replace"
	CmdReplaceAll = "replaceAll"
	CmdSearch     = "search"
)

// Commands lists the accepted commands in the order error messages show them.
var Commands = []string{CmdInsert, CmdDelete, CmdReplace, CmdReplaceAll, CmdSearch}

// Sentinels wrapped (with %w) by this package's errors.
var (
	// ErrInvalidArgs: the arguments are malformed or incomplete. It is the
	// error every dialect's argument checks share.
	ErrInvalidArgs = jsonargs.ErrInvalid
	// ErrPosition: a position or range does not fit the file (past its end,
	// splitting a "\r\n", two forms that disagree, start after end).
	ErrPosition = errors.New("invalid position")
)

// Args are the decoded, validated arguments of one `edit` call. Fields a
// command does not take are zero.
type Args struct {
	Command  string
	FilePath string // never empty
	// Content is the text to insert (insert) or the new text of the range
	// (replace); it may be empty.
	Content  string
	Position Point // insert
	Range    Span  // delete, replace
	// Pattern is the regular expression as given (replaceAll, search), and
	// Regexp its compilation; Pattern is never empty.
	Pattern string
	Regexp  *regexp.Regexp
	// Replacement is replaceAll's template: $1, ${1}, ${name} and $$ are
	// expanded per (*regexp.Regexp).Expand.
	Replacement string
}

// Point is a requested position, as given: Line and Column (1-based, both
// 0 when not given), and Offset (0-based) when HasOffset. Parse guarantees at
// least one form, Line and Column >= 1 together, and Offset >= 0.
type Point struct {
	Line, Column int
	Offset       int
	HasOffset    bool
}

// hasLineColumn reports whether p gives the line+column form.
func (p Point) hasLineColumn() bool { return p.Line > 0 }

// String names p the way it was given, for messages: "line 3, column 5" or
// "offset 42" (line and column when both forms are given).
func (p Point) String() string {
	if p.hasLineColumn() {
		return fmt.Sprintf("line %d, column %d", p.Line, p.Column)
	}
	return fmt.Sprintf("offset %d", p.Offset)
}

// Span is a requested range: Start inclusive, End exclusive.
type Span struct {
	Start, End Point
}

// commandFields lists, per command, its argument fields, all required, in
// the order messages show them.
var commandFields = map[string][]string{
	CmdInsert:     {"file_path", "content", "position"},
	CmdDelete:     {"file_path", "range"},
	CmdReplace:    {"file_path", "range", "content"},
	CmdReplaceAll: {"file_path", "pattern", "replacement"},
	CmdSearch:     {"file_path", "pattern"},
}

// examples are valid "arguments" objects, shown when one is not an object.
var examples = map[string]string{
	CmdInsert:     `{"file_path": "/repo/a.txt", "content": "text", "position": {"line": 3, "column": 1}}`,
	CmdDelete:     `{"file_path": "/repo/a.txt", "range": {"start": {"line": 3, "column": 1}, "end": {"line": 4, "column": 1}}}`,
	CmdReplace:    `{"file_path": "/repo/a.txt", "range": {"start": {"offset": 10}, "end": {"offset": 15}}, "content": "text"}`,
	CmdReplaceAll: `{"file_path": "/repo/a.txt", "pattern": "foo(\\d+)", "replacement": "bar$1"}`,
	CmdSearch:     `{"file_path": "/repo/a.txt", "pattern": "foo(\\d+)"}`,
}

const (
	positionExample = `{"line": 3, "column": 1} or {"offset": 42}`
	rangeExample    = `{"start": {"line": 3, "column": 1}, "end": {"line": 4, "column": 1}}`
	replacementHelp = `the replacement text; $1 or ${name} inserts a capture group, $$ a literal $`
)

// help describes a field of a command in "missing" messages.
func help(cmd, field string) string {
	switch field {
	case "file_path":
		return "the path of the file"
	case "content":
		if cmd == CmdInsert {
			return "the text to insert"
		}
		return "the new text for the range"
	case "position":
		return "where to insert, such as " + positionExample
	case "range":
		return "the text to " + cmd + ", such as " + rangeExample
	case "pattern":
		return "a regular expression in Go's RE2 syntax"
	}
	return replacementHelp
}

var topSpec = jsonargs.Spec{
	Fields:  []string{"command", "arguments"},
	Example: `{"command": "insert", "arguments": ` + examples[CmdInsert] + `}`,
}

// Parse decodes and validates the JSON input of an `edit` call:
// {"command": ..., "arguments": {...}}.
//
// Both objects are decoded strictly (jsonargs): exact field names, no
// unknown or repeated fields, JSON null counts as absent. "command" must be
// one of Commands (case-sensitive) and "arguments" must hold exactly the
// command's fields, all required: insert {file_path, content, position},
// delete {file_path, range}, replace {file_path, range, content},
// replaceAll {file_path, pattern, replacement}, search {file_path, pattern}.
// file_path must be non-empty; content and replacement may be empty.
//
// A position object takes "line", "column" and "offset": "offset" alone,
// "line" and "column" together, or all three (whether they agree is checked
// against the file when planning). line and column must be >= 1, offset
// >= 0. A range object takes "start" and "end", both required positions.
//
// pattern must be non-empty and compile with regexp.Compile (Go's RE2
// syntax: no lookarounds or backreferences); it is compiled here, so a bad
// pattern is refused before the file is read.
//
// Every error wraps ErrInvalidArgs and says what was wrong and what to send.
func Parse(raw []byte) (Args, error) {
	top, err := topSpec.Decode(raw)
	if err != nil {
		return Args{}, err
	}
	var a Args
	cmdRaw, ok := top["command"]
	if !ok {
		return Args{}, invalid(`missing "command"; set it to one of %s`, jsonargs.OrList(Commands))
	}
	if a.Command, err = jsonargs.String("command", cmdRaw, "one of "+jsonargs.OrList(Commands)); err != nil {
		return Args{}, err
	}
	fields, ok := commandFields[a.Command]
	if !ok {
		hint := ""
		for _, c := range Commands {
			if strings.EqualFold(c, a.Command) {
				hint = fmt.Sprintf(" (did you mean %q? commands are case-sensitive)", c)
			}
		}
		return Args{}, invalid(`unknown command %q%s; use one of %s`, a.Command, hint, jsonargs.OrList(Commands))
	}
	argsRaw, ok := top["arguments"]
	if !ok {
		return Args{}, invalid(`missing "arguments"; give an object with the %s fields %s, such as %s`,
			a.Command, jsonargs.AndList(jsonargs.QuoteAll(fields)), examples[a.Command])
	}
	spec := jsonargs.Spec{In: "arguments", Fields: fields, Example: examples[a.Command]}
	args, err := spec.Decode(argsRaw)
	if err != nil {
		return Args{}, err
	}
	for _, f := range fields {
		if !args.Has(f) {
			return Args{}, invalid(`%s needs %q in "arguments" (%s)`, a.Command, f, help(a.Command, f))
		}
	}

	if a.FilePath, err = jsonargs.String("file_path", args["file_path"], "the path of the file"); err != nil {
		return Args{}, err
	}
	if a.FilePath == "" {
		return Args{}, invalid(`"file_path" is empty; give the path of the file to %s`, verb(a.Command))
	}
	if slices.Contains(fields, "content") {
		if a.Content, err = jsonargs.String("content", args["content"], help(a.Command, "content")); err != nil {
			return Args{}, err
		}
	}
	if slices.Contains(fields, "position") {
		if a.Position, err = parsePoint("position", args["position"]); err != nil {
			return Args{}, err
		}
	}
	if slices.Contains(fields, "range") {
		if a.Range, err = parseSpan(args["range"]); err != nil {
			return Args{}, err
		}
	}
	if slices.Contains(fields, "pattern") {
		if a.Pattern, a.Regexp, err = parsePattern(args["pattern"]); err != nil {
			return Args{}, err
		}
	}
	if slices.Contains(fields, "replacement") {
		if a.Replacement, err = jsonargs.String("replacement", args["replacement"], replacementHelp); err != nil {
			return Args{}, err
		}
	}
	return a, nil
}

// parseSpan decodes a range object.
func parseSpan(raw json.RawMessage) (Span, error) {
	spec := jsonargs.Spec{In: "range", Fields: []string{"start", "end"}, Example: rangeExample}
	obj, err := spec.Decode(raw)
	if err != nil {
		return Span{}, err
	}
	var s Span
	for _, f := range []struct {
		name, help string
		dst        *Point
	}{
		{"start", "the first position of the range, inclusive", &s.Start},
		{"end", "the position just after the range, exclusive", &s.End},
	} {
		if !obj.Has(f.name) {
			return Span{}, invalid(`"range" needs %q (%s), such as %s`, f.name, f.help, rangeExample)
		}
		if *f.dst, err = parsePoint("range."+f.name, obj[f.name]); err != nil {
			return Span{}, err
		}
	}
	return s, nil
}

// parsePoint decodes a position object; name is its path in messages
// ("position", "range.start").
func parsePoint(name string, raw json.RawMessage) (Point, error) {
	spec := jsonargs.Spec{In: name, Fields: []string{"line", "column", "offset"}, Example: positionExample}
	obj, err := spec.Decode(raw)
	if err != nil {
		return Point{}, err
	}
	hasLine, hasCol := obj.Has("line"), obj.Has("column")
	switch {
	case !hasLine && !hasCol && !obj.Has("offset"):
		return Point{}, invalid(`%q needs "offset" (0-based), or "line" and "column" (1-based), such as %s`, name, positionExample)
	case hasLine && !hasCol:
		return Point{}, invalid(`%q has "line" but no "column"; give "line" and "column" together (1-based), or only "offset" (0-based)`, name)
	case hasCol && !hasLine:
		return Point{}, invalid(`%q has "column" but no "line"; give "line" and "column" together (1-based), or only "offset" (0-based)`, name)
	}
	var p Point
	if hasLine {
		if p.Line, err = jsonargs.Int(name+".line", obj["line"], "a line number"); err != nil {
			return Point{}, err
		}
		if p.Line < 1 {
			return Point{}, invalid(`"%s.line" is %d, but lines are numbered from 1; use 1 for the first line`, name, p.Line)
		}
		if p.Column, err = jsonargs.Int(name+".column", obj["column"], "a column number"); err != nil {
			return Point{}, err
		}
		if p.Column < 1 {
			return Point{}, invalid(`"%s.column" is %d, but columns are numbered from 1; use 1 for the start of the line`, name, p.Column)
		}
	}
	if obj.Has("offset") {
		if p.Offset, err = jsonargs.Int(name+".offset", obj["offset"], "an offset"); err != nil {
			return Point{}, err
		}
		if p.Offset < 0 {
			return Point{}, invalid(`"%s.offset" is %d, but offsets are numbered from 0; use 0 for the start of the file`, name, p.Offset)
		}
		p.HasOffset = true
	}
	return p, nil
}

// parsePattern decodes and compiles a pattern.
func parsePattern(raw json.RawMessage) (string, *regexp.Regexp, error) {
	s, err := jsonargs.String("pattern", raw, "a regular expression in Go's RE2 syntax")
	if err != nil {
		return "", nil, err
	}
	if s == "" {
		return "", nil, invalid(`"pattern" is empty, and an empty pattern matches between every two characters; give a regular expression that matches the text`)
	}
	re, err := regexp.Compile(s)
	if err != nil {
		// Go's message is "error parsing regexp: <code>: `<expr>`"; the code
		// and the offending part are what the agent needs.
		why := err.Error()
		var se *syntax.Error
		if errors.As(err, &se) {
			why = fmt.Sprintf("%s: `%s`", se.Code, se.Expr)
		}
		return "", nil, invalid(`"pattern" is not a valid regular expression: %s; Go's RE2 syntax is used (no lookarounds or backreferences)`, why)
	}
	return s, re, nil
}

func invalid(format string, args ...any) error { return jsonargs.Invalid(format, args...) }

func verb(cmd string) string {
	if cmd == CmdSearch {
		return "search"
	}
	return "edit"
}
