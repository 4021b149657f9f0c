package ops

import (
	"context"
	"fmt"
	"strings"

	"github.com/git-edit/git-edit/ops/dialect"
	"github.com/git-edit/git-edit/ops/jsonargs"
	"github.com/git-edit/git-edit/ops/texteditor"
)

// editHistoryResult is the edit_history tool's answer: the session's name
// and one of its recent edits, one edit with its diff, or its net change.
type editHistoryResult struct {
	Session string     `json:"session"`
	Ref     string     `json:"ref"`
	Entries []LogEntry `json:"entries,omitempty"`
	Entry   *LogEntry  `json:"entry,omitempty"`
	Diff    *string    `json:"diff,omitempty"`
}

// editHistoryTool registers edit_history, git-edit's own read-only tool:
// the session's log, one commit's diff, or the net change; it never writes.
var editHistoryTool = dialect.Tool{
	Name:       "edit_history",
	Title:      "Edit history of this session",
	Idempotent: true,
	Description: `
Read-only: the history of this editing session, which git-edit records as git commits (the session name is in the result).
Without arguments: the newest edits (commit, tool, paths, lines added/removed). With "commit": that edit's message and diff.
With "diff": true: the session's net change as one unified diff.`,
	Instructions: []string{`edit_history lists the session's edits (newest first), shows one edit's diff ("commit") or the session's net change ("diff": true).`},
	Schema: `{
  "type": "object",
  "properties": {
    "commit": {"type": "string", "description": "An edit's commit id (4 or more hex digits) to show with its diff."},
    "n": {"type": "integer", "minimum": 1, "description": "How many edits to list (default 20)."},
    "path": {"type": "string", "description": "Only edits of this file."},
    "diff": {"type": "boolean", "description": "The session's net change as one unified diff."}
  },
  "additionalProperties": false
}`,
	Run: func(ctx context.Context, ws dialect.Workspace, raw []byte) dialect.Result {
		return runEditHistory(ctx, ws.(workspace).e, raw)
	},
	Refuse:    statusError,
	Succeeded: func(obj map[string]any) bool { return obj["status"] != "error" },
}

// statusError is edit_history's refusal: {"status": "error", "message": …},
// the shape of text_editor's.
func statusError(err error) Result {
	return texteditor.Refusal(err)
}

var editHistorySpec = jsonargs.Spec{Fields: []string{"commit", "n", "path", "diff"}, Example: `{"n": 20}`}

// runEditHistory serves the read-only edit_history tool: the session's
// log, one commit's diff, or the net change; it never writes.
func runEditHistory(_ context.Context, e *Engine, raw []byte) Result {
	if len(strings.TrimSpace(string(raw))) == 0 {
		raw = []byte("{}")
	}
	args, err := editHistorySpec.Decode(raw)
	if err != nil {
		return statusError(err)
	}
	res := editHistoryResult{Session: e.Session.Name, Ref: e.Session.Ref()}
	n := 20
	if args.Has("n") {
		if n, err = jsonargs.Int("n", args["n"], "a number of edits"); err != nil {
			return statusError(err)
		}
		if n < 1 {
			return statusError(jsonargs.Invalid(`"n" is %d; give how many edits to list, at least 1`, n))
		}
	}
	var paths []string
	if args.Has("path") {
		p, err := jsonargs.String("path", args["path"], "a file path")
		if err != nil {
			return statusError(err)
		}
		paths = []string{p}
	}
	switch {
	case args.Has("commit"):
		name, err := jsonargs.String("commit", args["commit"], "a commit id from the list of edits")
		if err != nil {
			return statusError(err)
		}
		entry, err := e.Show(name, true)
		if err != nil {
			return statusError(err)
		}
		res.Entry = &entry
		return Result{OK: true, Value: res, Text: fmt.Sprintf("Edit %s of session %s:\n%s\n%s", entry.Commit[:12], res.Session, entry.Message, entry.Diff)}
	case args.Has("diff"):
		want, err := jsonargs.Bool("diff", args["diff"])
		if err != nil {
			return statusError(err)
		}
		if want {
			diff, err := e.NetDiff(paths)
			if err != nil {
				return statusError(err)
			}
			res.Diff = &diff
			text := diff
			if text == "" {
				text = "(no change)"
			}
			return Result{OK: true, Value: res, Text: fmt.Sprintf("Net change of session %s:\n%s", res.Session, text)}
		}
	}
	entries, err := e.Log(n, paths, false)
	if err != nil {
		return statusError(err)
	}
	res.Entries = entries
	var b strings.Builder
	fmt.Fprintf(&b, "Session %s (%s), newest first:\n", res.Session, res.Ref)
	if len(entries) == 0 {
		b.WriteString("(no edits yet)\n")
	}
	for _, en := range entries {
		what := en.Op
		if en.Tool != "" {
			what = en.Tool
		}
		fmt.Fprintf(&b, "%s  %s  %s  +%d -%d\n", en.Commit[:12], what, strings.Join(en.Paths, ", "), en.Added, en.Removed)
	}
	return Result{OK: true, Value: res, Text: b.String()}
}
