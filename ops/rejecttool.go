package ops

import (
	"context"
	"strings"

	"github.com/git-edit/git-edit/ops/dialect"
	"github.com/git-edit/git-edit/ops/jsonargs"
)

// edit_reject: Reject over MCP (and `git edit call`), as `git edit reject`.

var editRejectTool = dialect.Tool{
	Name:        "edit_reject",
	Title:       "Reject hunks of the session's change",
	Destructive: true,
	Writes:      true,
	Description: `
Take hunks of this session's net change back out of a file, keeping the rest: "hunks" are the numbers edit_history "diff": true prints after each hunk header ("@@ ... @@ hunk 2"). The chosen hunks are reverse-applied to the file as it is now, so changes elsewhere in it stay; a hunk whose lines were changed since is refused, naming it.` + historyToolNote,
	Schema: `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "The file whose hunks to reject."},
    "hunks": {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1, "description": "The hunks' numbers, as the session's diff numbers them."},
    ` + historyDryRunProperty + `
  },
  "required": ["path", "hunks"],
  "additionalProperties": false
}`,
	Run: func(ctx context.Context, ws dialect.Workspace, raw []byte) dialect.Result {
		return runRejectTool(ctx, ws.(workspace).e, raw)
	},
	Refuse:    statusError,
	Succeeded: func(obj map[string]any) bool { return obj["status"] != "error" },
}

var rejectSpec = jsonargs.Spec{Fields: []string{"path", "hunks", "dry_run"}, Example: `{"path": "src/app.py", "hunks": [2]}`}

// rejectResult is edit_reject's answer: historyResult's fields, and the
// hunks rejected.
type rejectResult struct {
	historyResult
	Rejected []rejectedHunk `json:"rejected"`
}

type rejectedHunk struct {
	Path   string `json:"path"`
	Hunk   string `json:"hunk"`   // "hunk 2"
	Header string `json:"header"` // "@@ -3,2 +3,4 @@"
}

func runRejectTool(ctx context.Context, e *Engine, raw []byte) Result {
	if len(strings.TrimSpace(string(raw))) == 0 {
		raw = []byte("{}")
	}
	args, err := rejectSpec.Decode(raw)
	if err != nil {
		return statusError(err)
	}
	if !args.Has("path") || !args.Has("hunks") {
		return statusError(jsonargs.Invalid(`give "path" and "hunks" (the hunks' numbers, as edit_history "diff": true prints them), e.g. %s`, rejectSpec.Example))
	}
	path, err := jsonargs.String("path", args["path"], "a file path")
	if err != nil {
		return statusError(err)
	}
	list, err := jsonargs.Array("hunks", args["hunks"], "an array of hunk numbers, e.g. [2]")
	if err != nil {
		return statusError(err)
	}
	if len(list) == 0 {
		return statusError(jsonargs.Invalid(`"hunks" is empty; give the numbers of the hunks to reject, as edit_history "diff": true prints them`))
	}
	var hunks []int
	for _, v := range list {
		n, err := jsonargs.Int("hunks", v, "a hunk number")
		if err != nil {
			return statusError(err)
		}
		hunks = append(hunks, n)
	}
	dry := false
	if args.Has("dry_run") {
		if dry, err = jsonargs.Bool("dry_run", args["dry_run"]); err != nil {
			return statusError(err)
		}
	}
	res, err := e.Reject(ctx, []HunkPick{{Path: path, Hunks: hunks}}, dry)
	if err != nil {
		return statusError(explainHistory("reject", err))
	}
	out := rejectResult{historyResult: historyResult{Status: "success", Message: res.Report(12), Session: e.Session.Name, DryRun: res.DryRun, Diff: res.Diff(), Paths: []pathChange{}}, Rejected: []rejectedHunk{}}
	if !res.Commit.IsZero() {
		out.Commit = res.Commit.String()
	}
	if !res.Sync.IsZero() {
		out.Sync = res.Sync.String()
	}
	for _, pc := range res.Changes() {
		out.Paths = append(out.Paths, pathChange{Path: pc.Path, How: pc.How, Added: pc.Added, Removed: pc.Removed})
	}
	for _, c := range res.Rejected {
		out.Rejected = append(out.Rejected, rejectedHunk{Path: c.Path, Hunk: c.Label, Header: c.Hunk.Header()})
	}
	return Result{OK: true, Value: out, Text: out.Message + out.Diff}
}
