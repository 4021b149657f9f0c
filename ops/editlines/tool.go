package editlines

import (
	"context"
	"errors"
	"fmt"

	"github.com/git-edit/git-edit/ops/dialect"
)

// Tool registers edit_lines (seed 001): a batch of line operations,
// validated as a whole, applied as one set of spans, recorded as one
// commit. Errors are {"error": …} with the seed's texts.
var Tool = dialect.Tool{
	Name:        ToolName,
	Title:       "Edit lines (a batch of line operations)",
	Destructive: true,
	Description: `
Edit a file with a batch of line operations, all applied or none (recorded as one git commit).
Operations: {"op": "replace", "startLine", "endLine", "content": [lines]}, {"op": "insert", "afterLine" (0 = top), "content": [lines]},
{"op": "delete", "startLine", "endLine"}. Line numbers are 1-based, inclusive, and all refer to the file before the batch;
operations must not overlap. Lines are given without line endings.`,
	Schema: `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "The file, relative to the project root or absolute."},
    "operations": {
      "type": "array",
      "minItems": 1,
      "items": {
        "type": "object",
        "properties": {
          "op": {"type": "string", "enum": ["replace", "insert", "delete"]},
          "startLine": {"type": "integer", "minimum": 1, "description": "replace, delete: the first line."},
          "endLine": {"type": "integer", "minimum": 1, "description": "replace, delete: the last line (inclusive)."},
          "afterLine": {"type": "integer", "minimum": 0, "description": "insert: the line after which to insert; 0 = the beginning of the file."},
          "content": {"type": "array", "items": {"type": "string"}, "description": "replace, insert: the new lines, without line endings."}
        },
        "required": ["op"],
        "additionalProperties": false
      }
    }
  },
  "required": ["path", "operations"],
  "additionalProperties": false
}`,
	Run:       runCall,
	Refuse:    Refusal,
	Succeeded: func(obj map[string]any) bool { return obj["error"] == nil },
	WriteCall: func(path, old, text string) map[string]any {
		return map[string]any{"path": path, "operations": []any{map[string]any{"op": "insert", "afterLine": 0, "content": []string{text}}}}
	},
}

// Refusal is edit_lines' refusal: {"error": …}.
func Refusal(err error) dialect.Result {
	msg := err.Error()
	return dialect.Refused(ErrorResult{Error: msg}, msg)
}

func runCall(ctx context.Context, ws dialect.Workspace, raw []byte) dialect.Result {
	args, err := Parse(raw)
	if err != nil {
		return Refusal(err)
	}
	var planned Planned
	var abs string
	_, err = ws.Change(ctx, dialect.ChangeRequest{
		Tool:  ToolName,
		Paths: []string{args.Path},
		Plan: func(files []dialect.File) (dialect.Plan, error) {
			cur := files[0]
			if !cur.Exists {
				return dialect.Plan{}, fmt.Errorf("%w: %s", dialect.ErrFileNotFound, args.Path)
			}
			// An edit names a binary file by its path in the repository,
			// as its refusal always has (a view or read names it as given).
			if err := dialect.CheckText(cur.ID, cur.Content); err != nil {
				return dialect.Plan{}, err
			}
			abs = cur.Abs
			var err error
			planned, err = Plan(args.Path, cur.Content, args.Operations)
			return dialect.Plan{Changes: []dialect.Change{{ID: cur.ID, Edits: planned.Edits}}}, err
		},
	})
	if err != nil {
		return Refusal(seedFileError(args.Path, err))
	}
	return dialect.JSONOK(Response{Path: abs, LinesChanged: planned.LinesChanged, NewLineCount: planned.NewLineCount})
}

// seedFileError words file problems exactly as seed 001's error table
// does; other refusals keep their own message.
func seedFileError(arg string, err error) error {
	switch {
	case errors.Is(err, dialect.ErrIsDirectory):
		return fmt.Errorf("path is a directory: %s", arg)
	case errors.Is(err, dialect.ErrPermission):
		return fmt.Errorf("permission denied: %s", arg)
	}
	return err
}
