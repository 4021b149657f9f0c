package applypatch

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/git-edit/git-edit/ops/dialect"
)

// Tool registers apply_patch: the patch format OpenAI's Codex models emit,
// applied all or nothing across every file of the patch as one commit.
var Tool = dialect.Tool{
	Name:        ToolName,
	Title:       "Apply patch (add, delete, update, move files)",
	Destructive: true,
	Description: `
Apply a patch in the apply_patch format (add, delete, update and move files; all or nothing, recorded as one git commit).
"input" holds the whole patch: "*** Begin Patch", then file operations, then "*** End Patch". "*** Add File: P" is followed by the
new file's lines, each prefixed with "+"; "*** Delete File: P"; "*** Update File: P", optionally followed by "*** Move to: Q", then hunks:
"@@" with an optional line of the file to search after (such as "@@ def f():"), then lines prefixed with " " (context, about 3 lines
around each change), "-" (removed) or "+" (added); "*** End of File" after a hunk anchors it to the end of the file.
Paths are relative to the project root or absolute.`,
	Schema: `{
  "type": "object",
  "properties": {
    "input": {"type": "string", "description": "The entire patch, from \"*** Begin Patch\" to \"*** End Patch\"."}
  },
  "required": ["input"],
  "additionalProperties": false
}`,
	Run:       runCall,
	Refuse:    Refusal,
	Succeeded: func(obj map[string]any) bool { ok, _ := obj["success"].(bool); return ok },
	WriteCall: func(path, old, text string) map[string]any {
		// Every line of old and text gets its prefix: either may span lines.
		return map[string]any{"input": fmt.Sprintf("*** Begin Patch\n*** Update File: %s\n@@\n-%s\n+%s\n*** End Patch",
			path, strings.ReplaceAll(old, "\n", "\n-"), strings.ReplaceAll(text, "\n", "\n+"))}
	},
}

// Refusal is apply_patch's refusal: its own failures as they are, and any
// other error (a refused path, no repository) as {"success": false,
// "error": …}.
func Refusal(err error) dialect.Result {
	var f *Failure
	if !errors.As(err, &f) {
		f = &Failure{Message: err.Error(), Err: err}
	}
	return dialect.Refused(f, f.Message)
}

func runCall(ctx context.Context, ws dialect.Workspace, raw []byte) dialect.Result {
	args, err := ParseArgs(raw)
	if err != nil {
		return Refusal(err)
	}
	patch, err := Parse(args.Input)
	if err != nil {
		return Refusal(err)
	}
	paths := patch.Paths()
	var summary Summary
	out, err := ws.Change(ctx, dialect.ChangeRequest{
		Tool:  ToolName,
		Paths: paths,
		Plan: func(files []dialect.File) (dialect.Plan, error) {
			idOf := make(map[string]string, len(files))
			current := make(map[string]File, len(files))
			for i, f := range files {
				idOf[paths[i]] = f.ID
				current[paths[i]] = File{Content: f.Content, Exists: f.Exists}
			}
			// Two spellings of one file ("a.txt", "./a.txt") are one file.
			if err := patch.Distinct(func(path string) string { return idOf[path] }); err != nil {
				return dialect.Plan{}, err
			}
			changes, s, err := Plan(patch, current)
			if err != nil {
				return dialect.Plan{}, err
			}
			summary = s
			plan := dialect.Plan{Matched: s.Matched()}
			for _, c := range changes {
				dc := dialect.Change{ID: idOf[c.Path], Whole: !c.Delete, Content: c.Content, Delete: c.Delete}
				if c.From != "" {
					dc.Like = idOf[c.From]
				}
				plan.Changes = append(plan.Changes, dc)
			}
			return plan, nil
		},
	})
	if err != nil {
		return Refusal(err)
	}
	res := summary.Response()
	res.Commit = out.Commit
	text := res.Output
	if out.Commit == "" {
		text += "No byte changed, so nothing was written or recorded.\n"
		res.Output = text
	}
	return dialect.Result{OK: true, Value: res, Text: text}
}
