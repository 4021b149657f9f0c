// Package editlines is the pure logic of the edit_lines dialect (seed 001): a
// batch of line operations (replace, insert, delete) on one file, validated as
// a whole and applied all or nothing. Parse decodes and checks the JSON
// arguments; Plan resolves the operations against the file's current bytes
// and compiles them to text.Edit spans over those bytes. Nothing here touches
// the disk or git.
//
// Refusals that the seed words are returned as *Error, whose Error() is the
// seed's text exactly ("operations overlap at line 10"), so that the caller
// can return it unchanged as {"error": "..."}.
package editlines

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/git-edit/git-edit/ops/jsonargs"
)

// ToolName is the dialect's tool name (CLI and MCP).
const ToolName = "edit_lines"

// Operation kinds accepted in an operation's "op" field.
const (
	OpReplace = "replace"
	OpInsert  = "insert"
	OpDelete  = "delete"
)

// Kinds lists the operation kinds in the order messages show them.
var Kinds = []string{OpReplace, OpInsert, OpDelete}

// Fields lists the accepted top-level argument fields.
var Fields = []string{"path", "operations"}

// OperationFields lists every field an operation may have, in the order
// messages show them; which of them an operation uses depends on its "op".
var OperationFields = []string{"op", "startLine", "endLine", "afterLine", "content"}

// opFields are the fields each kind takes, all required: every kind's fields
// are needed to say what to do, so none is optional.
var opFields = map[string][]string{
	OpReplace: {"op", "startLine", "endLine", "content"},
	OpInsert:  {"op", "afterLine", "content"},
	OpDelete:  {"op", "startLine", "endLine"},
}

var fieldHelp = map[string]string{
	"startLine": "the first line to %s, 1-based",
	"endLine":   "the last line to %s, inclusive",
	"afterLine": "the line after which to insert; 0 inserts at the beginning of the file",
	"content":   "an array of strings, one per line, without line endings",
}

// Sentinels. ErrInvalidArgs is wrapped by every refusal of the arguments
// themselves; the others name the seed's error conditions and are wrapped by
// the *Error that carries the seed's text.
var (
	// ErrInvalidArgs: the arguments are malformed, whatever the file holds.
	// Every Parse error wraps it, and so does every *Error except those
	// wrapping ErrLineOutOfRange (which depend on the file's length).
	ErrInvalidArgs = jsonargs.ErrInvalid
	// ErrNoOperations: "operations" is an empty array.
	ErrNoOperations = errors.New("no operations provided")
	// ErrUnknownOperation: an operation's "op" is not replace, insert or delete.
	ErrUnknownOperation = errors.New("unknown operation")
	// ErrInvalidLineNumber: startLine < 1, or afterLine < 0.
	ErrInvalidLineNumber = errors.New("invalid line number")
	// ErrInvalidRange: startLine > endLine.
	ErrInvalidRange = errors.New("invalid range")
	// ErrLineOutOfRange: a line number is past the end of the file.
	ErrLineOutOfRange = errors.New("line out of range")
	// ErrOverlap: two operations touch the same line.
	ErrOverlap = errors.New("operations overlap")
)

// Error is a refusal worded exactly as the seed words it: Error() starts with
// Text, with no prefix, because the caller returns it verbatim as the
// result's "error"; Help, when set, follows after "; " and says what to do
// (the valid operations, the two operations that overlap). It unwraps to
// Kind (one of the sentinels above) and, for refusals of the arguments
// themselves, to ErrInvalidArgs too.
type Error struct {
	Kind error
	Text string // the seed's text, word for word
	Help string // what to do next; "" when the seed's text says it all
}

func (e *Error) Error() string {
	if e.Help == "" {
		return e.Text
	}
	return e.Text + "; " + e.Help
}

// Unwrap lets errors.Is match Kind, and ErrInvalidArgs unless the refusal
// depends on the file (ErrLineOutOfRange).
func (e *Error) Unwrap() []error {
	if e.Kind == ErrLineOutOfRange {
		return []error{e.Kind}
	}
	return []error{e.Kind, ErrInvalidArgs}
}

func seedErr(kind error, format string, args ...any) error {
	return &Error{Kind: kind, Text: fmt.Sprintf(format, args...)}
}

// The seed's error texts.
func errNoOperations() error { return seedErr(ErrNoOperations, "no operations provided") }
func errUnknownOperation(op string) error {
	return &Error{Kind: ErrUnknownOperation, Text: "unknown operation: " + op,
		Help: `"op" is one of "replace" (startLine, endLine, content), "insert" (afterLine, content) and "delete" (startLine, endLine)`}
}

// errLineNumber words both startLine < 1 and afterLine < 0 with the seed's
// template; least is the smallest valid value (1, or 0 for afterLine) so
// that the message never tells an agent that afterLine 0 is invalid.
func errLineNumber(n, least int) error {
	return seedErr(ErrInvalidLineNumber, "invalid line number: %d (must be >= %d)", n, least)
}
func errRange(s, e int) error {
	return seedErr(ErrInvalidRange, "invalid range: startLine %d > endLine %d", s, e)
}
func errOutOfRange(n, total int) error {
	return seedErr(ErrLineOutOfRange, "line %d out of range (file has %d lines)", n, total)
}

// errOverlap names the two operations (0-based indexes i < j of the batch)
// that conflict at line n.
func errOverlap(n int, operations []Operation, i, j int) error {
	return &Error{Kind: ErrOverlap, Text: fmt.Sprintf("operations overlap at line %d", n),
		Help: fmt.Sprintf("operation %d (%s) and operation %d (%s) both touch line %d. All line numbers refer to the file before the call: merge the two into one operation, or change their lines so that no line is touched twice",
			i+1, describeOp(operations[i]), j+1, describeOp(operations[j]), n)}
}

// describeOp words an operation as the help texts name it: "delete lines
// 3-5", "replace line 4", "insert after line 2".
func describeOp(o Operation) string {
	if o.Op == OpInsert {
		return fmt.Sprintf("insert after line %d", o.AfterLine)
	}
	if o.StartLine == o.EndLine {
		return fmt.Sprintf("%s line %d", o.Op, o.StartLine)
	}
	return fmt.Sprintf("%s lines %d-%d", o.Op, o.StartLine, o.EndLine)
}

// Args are the decoded, validated arguments of one edit_lines call.
type Args struct {
	Path       string
	Operations []Operation // never empty
}

// Operation is one line operation. Which fields matter depends on Op:
// replace uses StartLine, EndLine and Content; insert uses AfterLine and
// Content; delete uses StartLine and EndLine. Plan ignores the others.
type Operation struct {
	Op        string
	StartLine int // replace, delete: the first line, 1-based
	EndLine   int // replace, delete: the last line, inclusive
	AfterLine int // insert: insert after this line; 0 = the beginning of the file
	// Content holds the new lines without their line endings. A string
	// holding "\n" counts as several lines ("a\nb" is two, "a\n" is "a" and
	// an empty line). An empty Content inserts nothing, and makes a replace
	// a delete.
	Content []string
}

var argsSpec = jsonargs.Spec{
	Fields:  Fields,
	Example: `{"path": "src/main.go", "operations": [{"op": "replace", "startLine": 5, "endLine": 7, "content": ["new line 5", "new line 6"]}]}`,
}

const opExample = `{"op": "replace", "startLine": 5, "endLine": 7, "content": ["new line 5", "new line 6"]}`

// Parse decodes and checks the JSON arguments of an edit_lines call.
//
// raw must be exactly one JSON object with "path" (a non-empty string) and
// "operations" (a non-empty array of objects); field names are exact
// (case-sensitive), unknown or repeated fields are refused, and a field whose
// value is null counts as absent. Each operation must have a known "op" and
// exactly the fields that kind takes (replace: startLine, endLine, content;
// insert: afterLine, content; delete: startLine, endLine), with whole numbers
// for line numbers and an array of strings for content. Each operation is
// then checked on its own: startLine >= 1, afterLine >= 0, startLine <=
// endLine. Checks run in input order and the first failure is returned.
// Bounds and overlaps need the file, so Plan checks them.
//
// Every error wraps ErrInvalidArgs. The seed's conditions (an empty
// operations array, an unknown op, a bad line number or range) are *Error
// values worded exactly as the seed words them; the others say in
// jsonargs' style what was wrong and what to send.
func Parse(raw []byte) (Args, error) {
	fields, err := argsSpec.Decode(raw)
	if err != nil {
		return Args{}, err
	}
	var a Args
	pathRaw, ok := fields["path"]
	if !ok {
		return Args{}, jsonargs.Invalid(`missing "path"; give the path of the file to edit`)
	}
	if a.Path, err = jsonargs.String("path", pathRaw, "the file's path"); err != nil {
		return Args{}, err
	}
	if a.Path == "" {
		return Args{}, jsonargs.Invalid(`"path" is empty; give the path of the file to edit`)
	}
	opsRaw, ok := fields["operations"]
	if !ok {
		return Args{}, jsonargs.Invalid(`missing "operations"; give an array of operations such as %s`, opExample)
	}
	items, err := jsonargs.Array("operations", opsRaw, "an array of operations such as "+opExample)
	if err != nil {
		return Args{}, err
	}
	if len(items) == 0 {
		return Args{}, errNoOperations()
	}
	a.Operations = make([]Operation, len(items))
	for i, item := range items {
		if a.Operations[i], err = parseOperation(i, item); err != nil {
			return Args{}, err
		}
	}
	return a, nil
}

// parseOperation decodes operations[i]: its shape and types first, then its
// values, so that a type error is reported before a range error.
func parseOperation(i int, raw json.RawMessage) (Operation, error) {
	in := "operations[" + strconv.Itoa(i) + "]"
	fields, err := jsonargs.Spec{In: in, Fields: OperationFields, Example: opExample}.Decode(raw)
	if err != nil {
		return Operation{}, err
	}
	name := func(f string) string { return in + "." + f }

	var o Operation
	opRaw, ok := fields["op"]
	if !ok {
		return Operation{}, jsonargs.Invalid(`missing "op" in %q; set it to %s`, in, jsonargs.OrList(jsonargs.QuoteAll(Kinds)))
	}
	if o.Op, err = jsonargs.String(name("op"), opRaw, jsonargs.OrList(jsonargs.QuoteAll(Kinds))); err != nil {
		return Operation{}, err
	}
	takes, ok := opFields[o.Op]
	if !ok {
		return Operation{}, errUnknownOperation(o.Op)
	}
	// Fields of another kind are refused rather than ignored: an insert
	// with a startLine means the agent confused the kinds.
	for _, f := range OperationFields {
		if fields.Has(f) && !slices.Contains(takes, f) {
			return Operation{}, jsonargs.Invalid(`%q is not used by %s in %q; remove it (%s takes %s)`,
				f, o.Op, in, o.Op, jsonargs.AndList(jsonargs.QuoteAll(takes)))
		}
	}
	for _, f := range takes {
		if !fields.Has(f) {
			help := fieldHelp[f]
			if f == "startLine" || f == "endLine" {
				help = fmt.Sprintf(help, o.Op)
			}
			return Operation{}, jsonargs.Invalid(`%s in %q needs %q (%s)`, o.Op, in, f, help)
		}
	}

	line := func(f string) (int, error) { return jsonargs.Int(name(f), fields[f], "a line number") }
	switch o.Op {
	case OpReplace, OpDelete:
		if o.StartLine, err = line("startLine"); err != nil {
			return Operation{}, err
		}
		if o.EndLine, err = line("endLine"); err != nil {
			return Operation{}, err
		}
	case OpInsert:
		if o.AfterLine, err = line("afterLine"); err != nil {
			return Operation{}, err
		}
	}
	if fields.Has("content") {
		if o.Content, err = parseContent(name("content"), fields["content"]); err != nil {
			return Operation{}, err
		}
	}
	return o, check(o)
}

// parseContent decodes an array of strings.
func parseContent(name string, raw json.RawMessage) ([]string, error) {
	items, err := jsonargs.Array(name, raw, fieldHelp["content"])
	if err != nil {
		return nil, err
	}
	lines := make([]string, len(items))
	for j, item := range items {
		if lines[j], err = jsonargs.String(name+"["+strconv.Itoa(j)+"]", item, "one line of text, without its line ending"); err != nil {
			return nil, err
		}
	}
	return lines, nil
}

// check validates one operation on its own, without the file: a known kind,
// startLine >= 1 then startLine <= endLine (replace, delete), afterLine >= 0
// (insert). Parse and Plan share it so they refuse alike.
func check(o Operation) error {
	switch o.Op {
	case OpReplace, OpDelete:
		if o.StartLine < 1 {
			return errLineNumber(o.StartLine, 1)
		}
		if o.StartLine > o.EndLine {
			return errRange(o.StartLine, o.EndLine)
		}
	case OpInsert:
		if o.AfterLine < 0 {
			return errLineNumber(o.AfterLine, 0)
		}
	default:
		return errUnknownOperation(o.Op)
	}
	return nil
}

// Response is the success result: {"path": ..., "linesChanged": ...,
// "newLineCount": ...}. Path is the file's absolute path, which the caller
// supplies; the other two come from Planned.
type Response struct {
	Path         string `json:"path"`
	LinesChanged int    `json:"linesChanged"`
	NewLineCount int    `json:"newLineCount"`
}

// ErrorResult is the refusal result: {"error": "..."}.
type ErrorResult struct {
	Error string `json:"error"`
}
