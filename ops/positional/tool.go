package positional

import (
	"context"
	"fmt"

	"github.com/git-edit/git-edit/ops/dialect"
)

// ToolName is the tool's name (CLI and MCP).
const ToolName = "edit"

// Tool registers edit (seed 000): positional insert, delete and replace,
// regexp replaceAll, and search. Its results are the seed's objects
// exactly; refusals are {"status": "error", "message": …}.
var Tool = dialect.Tool{
	Name:        ToolName,
	Title:       "Edit by position or regular expression",
	Destructive: true,
	Description: `
Edit a file by position or by regular expression (every change is recorded as a git commit).
Commands (in "command", with their fields in "arguments"): "insert" {file_path, content, position}; "delete" {file_path, range};
"replace" {file_path, range, content}; "replaceAll" {file_path, pattern, replacement} replaces every match of a Go (RE2) regular expression,
$1 or ${name} inserting groups (write ${1}x, not $1x); "search" {file_path, pattern} returns every match with its range and groups.
A position is {"line", "column"} (1-based) or {"offset"} (0-based), counting Unicode characters; a range is {"start", "end"}, end exclusive.`,
	Schema: `{
  "type": "object",
  "properties": {
    "command": {"type": "string", "enum": ["insert", "delete", "replace", "replaceAll", "search"]},
    "arguments": {
      "type": "object",
      "description": "The command's fields: insert {file_path, content, position}; delete {file_path, range}; replace {file_path, range, content}; replaceAll {file_path, pattern, replacement}; search {file_path, pattern}.",
      "properties": {
        "file_path": {"type": "string", "description": "The file, relative to the project root or absolute."},
        "content": {"type": "string", "description": "insert, replace: the text to write."},
        "position": {"$ref": "#/$defs/position"},
        "range": {
          "type": "object",
          "properties": {"start": {"$ref": "#/$defs/position"}, "end": {"$ref": "#/$defs/position"}},
          "required": ["start", "end"],
          "additionalProperties": false
        },
        "pattern": {"type": "string", "description": "replaceAll, search: a Go (RE2) regular expression."},
        "replacement": {"type": "string", "description": "replaceAll: the replacement; $1, ${1} and ${name} insert groups, $$ a literal $."}
      },
      "required": ["file_path"],
      "additionalProperties": false
    }
  },
  "required": ["command", "arguments"],
  "additionalProperties": false,
  "$defs": {
    "position": {
      "type": "object",
      "description": "Either line and column (1-based) or offset (0-based), in Unicode characters.",
      "properties": {
        "line": {"type": "integer", "minimum": 1},
        "column": {"type": "integer", "minimum": 1},
        "offset": {"type": "integer", "minimum": 0}
      },
      "additionalProperties": false
    }
  }
}`,
	Run:       runCall,
	Refuse:    Refusal,
	Succeeded: func(obj map[string]any) bool { return obj["status"] != "error" },
	WriteCall: func(path, old, text string) map[string]any {
		return map[string]any{"command": CmdInsert, "arguments": map[string]any{"file_path": path, "content": text, "position": map[string]any{"offset": 0}}}
	},
}

// ErrorResult is the seed's refusal object.
type ErrorResult struct {
	Status  string `json:"status"` // "error"
	Message string `json:"message"`
}

// Refusal is edit's refusal: {"status": "error", "message": …}.
func Refusal(err error) dialect.Result {
	msg := err.Error()
	return dialect.Refused(ErrorResult{Status: "error", Message: msg}, msg)
}

func runCall(ctx context.Context, ws dialect.Workspace, raw []byte) dialect.Result {
	args, err := Parse(raw)
	if err != nil {
		return Refusal(err)
	}
	notFound := fmt.Errorf("%w: %s; edit changes existing files: check the path", dialect.ErrFileNotFound, args.FilePath)
	if args.Command == CmdSearch {
		f, err := ws.Read(args.FilePath)
		if err == nil && !f.Exists {
			err = notFound
		}
		if err == nil {
			err = dialect.CheckText(args.FilePath, f.Content)
		}
		if err != nil {
			return Refusal(err)
		}
		return dialect.JSONOK(Search(f.Content, args.Regexp))
	}
	var result any
	_, err = ws.Change(ctx, dialect.ChangeRequest{
		Tool:  ToolName + "." + args.Command,
		Paths: []string{args.FilePath},
		Plan: func(files []dialect.File) (dialect.Plan, error) {
			cur := files[0]
			if !cur.Exists {
				return dialect.Plan{}, notFound
			}
			// An edit names a binary file by its path in the repository,
			// as its refusal always has (a view or read names it as given).
			if err := dialect.CheckText(cur.ID, cur.Content); err != nil {
				return dialect.Plan{}, err
			}
			planned, err := Plan(args.FilePath, cur.Content, args)
			result = planned.Response
			return dialect.Plan{Changes: []dialect.Change{{ID: cur.ID, Edits: planned.Edits}}}, err
		},
	})
	if err != nil {
		return Refusal(err)
	}
	return dialect.JSONOK(result)
}
