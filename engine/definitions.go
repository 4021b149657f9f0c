package engine

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ToolDef is what a framework needs to offer a tool to a model: its name,
// a description (the seed's, shortened) and a JSON Schema (2020-12) of its
// arguments that marks required fields and types. The schemas describe;
// the dialects' own parsers stay the judges of what is valid.
type ToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// Definitions returns the definitions of the named tools in that order,
// or of every tool (sorted) when names is empty. An unknown name is an
// error listing the known ones.
func Definitions(names ...string) ([]ToolDef, error) {
	if len(names) == 0 {
		names = Tools()
	}
	defs := make([]ToolDef, 0, len(names))
	for _, n := range names {
		d, ok := definitions[n]
		if !ok {
			return nil, fmt.Errorf("%w %q; the tools are: %s", ErrUnknownTool, n, strings.Join(Tools(), ", "))
		}
		defs = append(defs, ToolDef{Name: n, Description: strings.TrimSpace(d.description), InputSchema: json.RawMessage(d.schema)})
	}
	return defs, nil
}

type definition struct{ description, schema string }

var definitions = map[string]definition{
	"text_editor": {`
View, create, overwrite and edit text files, and undo edits (every change is recorded as a git commit).
Commands: "view" shows the file in a Markdown code block (optional "view_range": [start, end], 1-based, -1 = end; whole files up to 400 KB);
"write" creates or overwrites the file with "file_text" (parent directories are created); "create" is like write but refuses an existing file;
"str_replace" replaces "old_str", which must occur exactly once (copy it exactly, whitespace included), with "new_str";
"insert" inserts "new_str" as whole lines after line "insert_line" (0 = before the first line);
"undo_edit" reverts the last edit of the file. Paths are relative to the project root or absolute.`,
		`{
  "type": "object",
  "properties": {
    "command": {"type": "string", "enum": ["view", "write", "create", "str_replace", "insert", "undo_edit"], "description": "The operation to perform."},
    "path": {"type": "string", "description": "The file, relative to the project root or absolute."},
    "file_text": {"type": "string", "description": "write/create: the entire new content of the file."},
    "old_str": {"type": "string", "description": "str_replace: the exact text to replace; it must occur exactly once."},
    "new_str": {"type": "string", "description": "str_replace: the replacement (\"\" deletes); insert: the lines to insert."},
    "insert_line": {"type": "integer", "minimum": 0, "description": "insert: the line after which to insert; 0 inserts before the first line."},
    "view_range": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2, "description": "view: [start, end], 1-based and inclusive; end -1 means the last line."}
  },
  "required": ["command", "path"],
  "additionalProperties": false
}`},
	"edit": {`
Edit a file by position or by regular expression (every change is recorded as a git commit).
Commands (in "command", with their fields in "arguments"): "insert" {file_path, content, position}; "delete" {file_path, range};
"replace" {file_path, range, content}; "replaceAll" {file_path, pattern, replacement} replaces every match of a Go (RE2) regular expression,
$1 or ${name} inserting groups (write ${1}x, not $1x); "search" {file_path, pattern} returns every match with its range and groups.
A position is {"line", "column"} (1-based) or {"offset"} (0-based), counting Unicode characters; a range is {"start", "end"}, end exclusive.`,
		`{
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
}`},
	"edit_lines": {`
Edit a file with a batch of line operations, all applied or none (recorded as one git commit).
Operations: {"op": "replace", "startLine", "endLine", "content": [lines]}, {"op": "insert", "afterLine" (0 = top), "content": [lines]},
{"op": "delete", "startLine", "endLine"}. Line numbers are 1-based, inclusive, and all refer to the file before the batch;
operations must not overlap. Lines are given without line endings.`,
		`{
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
}`},
	"Edit": {`
Replace an exact string in a file (recorded as a git commit). old_string must match the file exactly, whitespace and indentation
included, and be unique unless replace_all is true; new_string must differ; "" deletes. Read the file first: an edit of a file
not read in this session, or changed since it was read, is refused. Do not include Read's line-number prefixes.`,
		`{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "description": "The file, relative to the project root or absolute."},
    "old_string": {"type": "string", "description": "The exact text to replace."},
    "new_string": {"type": "string", "description": "The text to put in its place."},
    "replace_all": {"type": "boolean", "default": false, "description": "Replace every occurrence instead of requiring a unique one."}
  },
  "required": ["file_path", "old_string", "new_string"],
  "additionalProperties": false
}`},
	"MultiEdit": {`
Apply several exact string replacements to one file, in order, each on the result of the previous; all succeed or none is
applied (one git commit). Each edit follows Edit's rules. Read the file first.`,
		`{
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
          "replace_all": {"type": "boolean", "default": false}
        },
        "required": ["old_string", "new_string"],
        "additionalProperties": false
      }
    }
  },
  "required": ["file_path", "edits"],
  "additionalProperties": false
}`},
	"Read": {`
Read a file as numbered lines (cat -n form: the line number, a tab, the line). Reading a file is required before Edit or MultiEdit.
offset is the first line to show (1-based), limit the number of lines (default 2000).`,
		`{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "description": "The file, relative to the project root or absolute."},
    "offset": {"type": "integer", "minimum": 1, "description": "The first line to show (1-based)."},
    "limit": {"type": "integer", "minimum": 1, "description": "How many lines to show (default 2000)."}
  },
  "required": ["file_path"],
  "additionalProperties": false
}`},
	"code_edit": {`
Edit code with SEARCH/REPLACE blocks, as Aider does (recorded as one git commit per call). search is the exact block of existing lines
to change (include a few surrounding lines to make it unique; lines of just "..." elide unchanged code, the same number in search and
replace); replace is the new block. Whitespace differences in indentation are tolerated. An empty search creates the file or appends to it.
For several edits, across files, use "edits": all are applied or none.`,
		`{
  "type": "object",
  "description": "Either file_path, search and replace for one edit, or edits for several.",
  "properties": {
    "file_path": {"type": "string", "description": "The file, relative to the project root or absolute."},
    "search": {"type": "string", "description": "The lines to find; \"\" appends replace to the file or creates it."},
    "replace": {"type": "string", "description": "The lines to put in their place."},
    "edits": {
      "type": "array",
      "minItems": 1,
      "items": {
        "type": "object",
        "properties": {
          "file_path": {"type": "string"},
          "search": {"type": "string"},
          "replace": {"type": "string"}
        },
        "required": ["file_path", "search", "replace"],
        "additionalProperties": false
      }
    }
  },
  "additionalProperties": false
}`},
	"edit_history": {`
Read-only: the history of this editing session, which git-edit records as git commits (the session name is in the result).
Without arguments: the newest edits (commit, tool, paths, lines added/removed). With "commit": that edit's message and diff.
With "diff": true: the session's net change as one unified diff.`,
		`{
  "type": "object",
  "properties": {
    "commit": {"type": "string", "description": "An edit's commit id (4 or more hex digits) to show with its diff."},
    "n": {"type": "integer", "minimum": 1, "description": "How many edits to list (default 20)."},
    "path": {"type": "string", "description": "Only edits of this file."},
    "diff": {"type": "boolean", "description": "The session's net change as one unified diff."}
  },
  "additionalProperties": false
}`},
}
