package exactedit

import (
	"context"
	"errors"
	"fmt"

	"github.com/git-edit/git-edit/ops/dialect"
	"github.com/git-edit/git-edit/ops/text"
)

// EditTool registers Edit (seed 002): one exact string replacement.
var EditTool = dialect.Tool{
	Name:        ToolEdit,
	Title:       "Edit (replace an exact string)",
	Destructive: true,
	Description: `
Replace an exact string in a file (recorded as a git commit). old_string must match the file exactly, whitespace and indentation
included, and be unique unless replace_all is true; new_string must differ; "" deletes. Read the file first: an edit of a file
not read in this session, or changed since it was read, is refused. Do not include Read's line-number prefixes. When old_string
is not found exactly, a near match (trailing or inner whitespace, indentation, Unicode punctuation, over-escaped text, a very
similar block) is taken and the result says what was forgiven. An empty old_string creates a missing file or fills an empty one.`,
	Schema: `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "description": "The file, relative to the project root or absolute."},
    "old_string": {"type": "string", "description": "The exact text to replace."},
    "new_string": {"type": "string", "description": "The text to put in its place."},
    "replace_all": {"type": "boolean", "default": false, "description": "Replace every occurrence instead of requiring a unique one."},
    "expected_replacements": {"type": "integer", "minimum": 1, "description": "The number of occurrences old_string must match; all of them are replaced."},
    "line": {"type": "integer", "minimum": 1, "description": "The line where the text to replace starts: picks one of several occurrences."},
    "start_line": {"type": "integer", "minimum": 1, "description": "Another name for line."}
  },
  "required": ["file_path", "old_string", "new_string"],
  "additionalProperties": false
}`,
	Run: func(ctx context.Context, ws dialect.Workspace, raw []byte) dialect.Result {
		args, err := ParseEdit(raw)
		if err != nil {
			return refused(refusal(ToolEdit, err))
		}
		return exactEdit(ctx, ws, ToolEdit, args.FilePath, args.OldString == "", func(content []byte) (Planned, error) {
			return Plan(content, args)
		})
	},
	Refuse:    Refusal,
	Succeeded: succeeded,
	WriteCall: func(path, old, text string) map[string]any {
		return map[string]any{"file_path": path, "old_string": old, "new_string": text}
	},
}

// MultiEditTool registers MultiEdit: edits applied in order, each on the
// result of the previous, all or nothing, one commit.
var MultiEditTool = dialect.Tool{
	Name:        ToolMultiEdit,
	Title:       "MultiEdit (several exact replacements in one file)",
	Destructive: true,
	Description: `
Apply several exact string replacements to one file, in order, each on the result of the previous; all succeed or none is
applied (one git commit). Each edit follows Edit's rules. Read the file first. Edits must not overlap: an edit whose
old_string matches text an earlier edit wrote is refused, unless "sequential" is true and it lies wholly inside that text.`,
	Schema: `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "description": "The file, relative to the project root or absolute."},
    "edits": {
      "type": "array",
      "minItems": 1,
      "items": {
        "type": "object",
        "properties": {
          "old_string": {"type": "string"},
          "new_string": {"type": "string"},
          "replace_all": {"type": "boolean", "default": false},
          "expected_replacements": {"type": "integer", "minimum": 1},
          "line": {"type": "integer", "minimum": 1},
          "start_line": {"type": "integer", "minimum": 1}
        },
        "required": ["old_string", "new_string"],
        "additionalProperties": false
      }
    },
    "sequential": {"type": "boolean", "default": false, "description": "Let an edit change text an earlier edit wrote (its old_string wholly inside that text)."}
  },
  "required": ["file_path", "edits"],
  "additionalProperties": false
}`,
	Run: func(ctx context.Context, ws dialect.Workspace, raw []byte) dialect.Result {
		args, err := ParseMultiEdit(raw)
		if err != nil {
			return refused(refusal(ToolMultiEdit, err))
		}
		return exactEdit(ctx, ws, ToolMultiEdit, args.FilePath, args.Edits[0].OldString == "", func(content []byte) (Planned, error) {
			return PlanMultiEdit(content, args)
		})
	},
	Refuse:    Refusal,
	Succeeded: succeeded,
	WriteCall: func(path, old, text string) map[string]any {
		return map[string]any{"file_path": path, "edits": []any{map[string]any{"old_string": old, "new_string": text}}}
	},
}

// ReadTool registers Read: lines in cat -n form. A read, whole or part, is
// what Edit's read-before-edit check asks for.
var ReadTool = dialect.Tool{
	Name:       ToolRead,
	Title:      "Read a file (numbered lines)",
	Idempotent: true,
	Description: `
Read a file as numbered lines (cat -n form: the line number, a tab, the line). Reading a file is required before Edit or MultiEdit.
offset is the first line to show (1-based), limit the number of lines (default 2000).`,
	Schema: `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "description": "The file, relative to the project root or absolute."},
    "offset": {"type": "integer", "minimum": 1, "description": "The first line to show (1-based)."},
    "limit": {"type": "integer", "minimum": 1, "description": "How many lines to show (default 2000)."}
  },
  "required": ["file_path"],
  "additionalProperties": false
}`,
	Run:       runRead,
	Refuse:    Refusal,
	Succeeded: succeeded,
}

// succeeded: a refusal is the seed's {"error": …} object.
func succeeded(obj map[string]any) bool { return obj["error"] == nil }

// EditResult is what Edit and MultiEdit return on success: the seed gives
// no success shape, so it is the replacements made, any notes, the change
// as a snippet and the commit that recorded it.
type EditResult struct {
	Message      string   `json:"message"`
	Replacements int      `json:"replacements"`
	Notes        []string `json:"notes,omitempty"`
	Snippet      string   `json:"snippet,omitempty"`
	Commit       string   `json:"commit,omitempty"`
}

// exactEdit is Edit and MultiEdit's shared path: under the session's lock,
// the read-before-edit check against the bytes about to be edited, then
// the plan, applied and recorded as one commit. With creates (an empty
// old_string, the first one for MultiEdit), a missing file is planned as
// empty and created: it has no bytes to have read, so no Read is required.
func exactEdit(ctx context.Context, ws dialect.Workspace, tool, arg string, creates bool, plan func([]byte) (Planned, error)) dialect.Result {
	var planned Planned
	out, err := ws.Change(ctx, dialect.ChangeRequest{
		Tool:      tool,
		Paths:     []string{arg},
		CheckSeen: true,
		Plan: func(files []dialect.File) (dialect.Plan, error) {
			cur := files[0]
			if !cur.Exists && creates {
				var err error
				if planned, err = plan(nil); err != nil {
					return dialect.Plan{}, err
				}
				created, err := text.ApplyEdits(nil, planned.Edits)
				return dialect.Plan{Changes: []dialect.Change{{ID: cur.ID, Whole: true, Content: created}}, Matched: planned.Matched}, err
			}
			if !cur.Exists {
				return dialect.Plan{}, FileNotFound(arg)
			}
			// An edit names a binary file by its path in the repository,
			// as its refusal always has (a view or read names it as given).
			if err := dialect.CheckText(cur.ID, cur.Content); err != nil {
				return dialect.Plan{}, err
			}
			if cur.SeenErr != nil {
				return dialect.Plan{}, cur.SeenErr
			}
			switch cur.Seen {
			case dialect.SeenNever:
				return dialect.Plan{}, NotRead(arg)
			case dialect.SeenStale:
				return dialect.Plan{}, ModifiedSinceRead(arg)
			}
			var err error
			planned, err = plan(cur.Content)
			return dialect.Plan{Changes: []dialect.Change{{ID: cur.ID, Edits: planned.Edits}}, Matched: planned.Matched}, err
		},
	})
	if err != nil {
		return refused(refusal(tool, err))
	}
	res := EditResult{Replacements: planned.Replacements, Notes: planned.Notes}
	if out.Commit == "" {
		res.Message = fmt.Sprintf("No change to %s: the text is already as new_string would make it; nothing was written or recorded.", arg)
	} else {
		for id := range out.After {
			res.Snippet = dialect.Snippet(out.Before[id].Content, out.After[id].Content)
		}
		res.Message = describeReplacements(tool, arg, planned, !out.Before[firstID(out.Before)].Exists)
		if planned.Forgiven != "" {
			res.Message += " " + planned.Forgiven
		}
		res.Commit = out.Commit
	}
	text := res.Message
	for _, n := range res.Notes {
		text += "\nNote: " + n
	}
	if res.Snippet != "" {
		text += "\n" + res.Snippet
	}
	return dialect.Result{OK: true, Value: res, Text: text}
}

// firstID is a key of m (the one file an Edit or MultiEdit changes).
func firstID(m map[string]dialect.File) string {
	for id := range m {
		return id
	}
	return ""
}

func describeReplacements(tool, arg string, planned Planned, created bool) string {
	switch {
	case created && tool == ToolEdit:
		return fmt.Sprintf("Created %s with new_string (%s).", arg, lines(text.LineCount([]byte(planned.Edits[0].New))))
	case planned.Filled && tool == ToolEdit:
		return fmt.Sprintf("Wrote new_string into the empty file %s (%s).", arg, lines(text.LineCount([]byte(planned.Edits[0].New))))
	case created:
		return fmt.Sprintf("Created %s and applied the edits (%d replacements).", arg, planned.Replacements)
	case tool == ToolMultiEdit:
		return fmt.Sprintf("Applied the edits to %s (%d replacements, starting at line %d).", arg, planned.Replacements, planned.Line)
	}
	if planned.Replacements == 1 {
		return fmt.Sprintf("Replaced 1 occurrence in %s at line %d.", arg, planned.Line)
	}
	return fmt.Sprintf("Replaced %d occurrences in %s, the first at line %d.", planned.Replacements, arg, planned.Line)
}

func runRead(ctx context.Context, ws dialect.Workspace, raw []byte) dialect.Result {
	args, err := ParseRead(raw)
	if err != nil {
		return refused(refusal(ToolRead, err))
	}
	f, err := ws.Read(args.FilePath)
	if err == nil && !f.Exists {
		err = FileNotFound(args.FilePath)
	}
	if err == nil {
		err = dialect.CheckText(args.FilePath, f.Content)
	}
	if err != nil {
		return refused(refusal(ToolRead, err))
	}
	content, err := RenderRead(f.Content, args.Offset, args.Limit)
	if err != nil {
		return refused(refusal(ToolRead, err))
	}
	ws.MarkSeen(args.FilePath, f.Content)
	return dialect.Result{OK: true, Value: ReadResult{Content: content, TotalLines: text.LineCount(f.Content)}, Text: content}
}

func refused(f *Failure) dialect.Result { return dialect.Refused(f, f.Error()) }

// refusal keeps the dialect's own failures and words any other refusal
// (a path outside the root, a directory, a file changed on disk) in the
// seed's {"error", "details"} shape.
func refusal(tool string, err error) *Failure {
	var f *Failure
	if errors.As(err, &f) {
		return f
	}
	return &Failure{Message: tool + " refused", Details: err.Error(), Err: err}
}

// Refusal shapes an error from before the dialect ran (no repository, bad
// config) as {"error": "Call refused", "details": …}.
func Refusal(err error) dialect.Result {
	return refused(&Failure{Message: "Call refused", Details: err.Error(), Err: err})
}
