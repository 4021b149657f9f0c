package codeedit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/git-edit/git-edit/ops/dialect"
	"github.com/git-edit/git-edit/ops/text"
)

// Tool registers code_edit (seed 003): SEARCH/REPLACE blocks, possibly
// across files. All edits of one call are applied, or none is (stricter
// than the seed, which promises that only per file): one commit for the
// call. Edits to one file apply in order, each on the result of the
// previous.
var Tool = dialect.Tool{
	Name:        ToolName,
	Title:       "Code edit (SEARCH/REPLACE blocks)",
	Destructive: true,
	Description: `
Edit code with SEARCH/REPLACE blocks, as Aider does (recorded as one git commit per call). search is the exact block of existing lines
to change (include a few surrounding lines to make it unique; lines of just "..." elide unchanged code, the same number in search and
replace); replace is the new block. Whitespace differences in indentation are tolerated. An empty search creates the file or appends to it.
For several edits, across files, use "edits": all are applied or none.`,
	Schema: `{
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
}`,
	Run:       runCall,
	Refuse:    Refusal,
	Succeeded: func(obj map[string]any) bool { ok, _ := obj["success"].(bool); return ok },
	WriteCall: func(path, old, text string) map[string]any {
		return map[string]any{"file_path": path, "search": "", "replace": text + "\n"}
	},
}

// Response is code_edit's result object (seed 003).
type Response struct {
	Success bool      `json:"success"`
	Message string    `json:"message"`
	Results []Outcome `json:"results,omitempty"`
	Commit  string    `json:"commit,omitempty"`
}

// Outcome is what happened to one edit of the call.
type Outcome struct {
	FilePath string `json:"file_path"`
	Success  bool   `json:"success"`
	Message  string `json:"message"`
	// untried: the edit was not tried (another edit's path was refused),
	// so it is neither applied nor counted as failed.
	untried bool
}

// editsFailed carries the per-edit outcomes of a refused call out of the
// planner.
type editsFailed struct{ results []Outcome }

func (e *editsFailed) Error() string { return "some edits could not be applied" }

func runCall(ctx context.Context, ws dialect.Workspace, raw []byte) dialect.Result {
	args, err := Parse(raw)
	if err != nil {
		return Refusal(err)
	}
	results := make([]Outcome, len(args.Edits))
	paths := make([]string, len(args.Edits))
	refused := false
	for i, ed := range args.Edits {
		results[i].FilePath, paths[i] = ed.FilePath, ed.FilePath
		if err := ws.Check(ed.FilePath); err != nil {
			results[i].Message = err.Error()
			refused = true
		}
	}
	if refused {
		for i := range results {
			if results[i].Message == "" {
				results[i].Message, results[i].untried = "not tried, because the path of another edit of this call was refused", true
			}
		}
		return refusedResults(results)
	}
	out, err := ws.Change(ctx, dialect.ChangeRequest{
		Tool:  ToolName,
		Paths: paths,
		Plan: func(files []dialect.File) (dialect.Plan, error) {
			current := map[string][]byte{}
			exists := map[string]bool{}
			for _, f := range files {
				current[f.ID], exists[f.ID] = f.Content, f.Exists
			}
			failed := false
			var matched []string // the Edit-Match trailers
			for i, ed := range args.Edits {
				id := files[i].ID
				if err := dialect.CheckText(ed.FilePath, current[id]); err != nil {
					results[i].Message, failed = err.Error(), true
					continue
				}
				planned, err := Plan(ed, current[id], exists[id])
				if err == nil {
					var next []byte
					if next, err = text.ApplyEdits(current[id], planned.Edits); err == nil {
						current[id], exists[id] = next, true
						results[i] = Outcome{FilePath: ed.FilePath, Success: true, Message: planned.Message}
						if planned.Matched != "" {
							matched = append(matched, planned.Matched+editOf(i, len(args.Edits), ed.FilePath))
						}
						continue
					}
				}
				results[i].Message, failed = err.Error(), true
			}
			if failed {
				return dialect.Plan{}, &editsFailed{results}
			}
			plan := dialect.Plan{Matched: matched}
			for _, f := range files {
				id := f.ID
				if exists[id] && (!f.Exists || !bytes.Equal(current[id], f.Content)) {
					plan.Changes = append(plan.Changes, dialect.Change{ID: id, Whole: true, Content: current[id]})
					exists[id] = false // once per file
				}
			}
			return plan, nil
		},
	})
	var failed *editsFailed
	switch {
	case errors.As(err, &failed):
		return refusedResults(failed.results)
	case errors.Is(err, dialect.ErrManyRepositories):
		// One commit cannot span two repositories, and all or nothing is
		// what this call promises.
		for i := range results {
			results[i].Message = "the edits of this call touch files of more than one repository (a submodule and its parent); send the edits of each repository as a separate call"
		}
		return refusedResults(results)
	case err != nil:
		for i := range results {
			results[i] = Outcome{FilePath: args.Edits[i].FilePath, Message: err.Error()}
		}
		return refusedResults(results)
	}
	res := Response{Success: true, Results: results}
	switch {
	case out.Commit == "":
		res.Message = "No change: every REPLACE text equals what it matched; nothing was written or recorded."
	default:
		res.Message = fmt.Sprintf("Applied %s to %s.", count(len(args.Edits), "edit"), count(len(out.After), "file"))
		res.Commit = out.Commit
	}
	return dialect.Result{OK: true, Value: res, Text: responseText(res)}
}

// refusedResults is a call in which at least one edit failed: nothing was
// written. Edits that would have applied say so, so the agent resends them
// unchanged with the failing ones fixed; edits not tried say so too.
func refusedResults(results []Outcome) dialect.Result {
	var failing []string
	for i := range results {
		if results[i].untried {
			continue
		}
		if results[i].Success {
			results[i].Success = false
			results[i].Message = "not applied, because another edit of this call failed (it would apply as it is: " + results[i].Message + ")"
			continue
		}
		failing = append(failing, fmt.Sprintf("%d", i+1))
	}
	res := Response{Results: results}
	switch {
	case len(results) == 1:
		res.Message = "No file was changed: the edit failed; fix it and send it again."
	case len(failing) == 1:
		res.Message = fmt.Sprintf("No file was changed: edit %s of %d failed; fix it and send all %d edits again.", failing[0], len(results), len(results))
	default:
		res.Message = fmt.Sprintf("No file was changed: edits %s of %d failed; fix them and send all %d edits again.", strings.Join(failing, ", "), len(results), len(results))
	}
	return dialect.Result{OK: false, Value: res, Text: responseText(res)}
}

// Refusal shapes an error from before the dialect ran.
func Refusal(err error) dialect.Result {
	res := Response{Message: err.Error()}
	return dialect.Result{OK: false, Value: res, Text: res.Message}
}

func responseText(res Response) string {
	var b strings.Builder
	b.WriteString(res.Message)
	for i, r := range res.Results {
		fmt.Fprintf(&b, "\n%d. %s: %s", i+1, r.FilePath, r.Message)
	}
	return b.String()
}

func count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// editOf names edit i of n of a call for an Edit-Match trailer: "" for
// a call of one edit.
func editOf(i, n int, path string) string {
	if n == 1 {
		return ""
	}
	return fmt.Sprintf(" (edit %d of %d, %s)", i+1, n, path)
}
