package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/ops/codeedit"
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/session"
)

// codeEditResult is code_edit's response (seed 003).
type codeEditResult struct {
	Success bool              `json:"success"`
	Message string            `json:"message"`
	Results []codeEditOutcome `json:"results,omitempty"`
	Commit  string            `json:"commit,omitempty"`
}

type codeEditOutcome struct {
	FilePath string `json:"file_path"`
	Success  bool   `json:"success"`
	Message  string `json:"message"`
}

// editsFailed carries the per-edit outcomes of a refused call out of the
// planner.
type editsFailed struct{ results []codeEditOutcome }

func (e *editsFailed) Error() string { return "some edits could not be applied" }

// runCodeEdit serves `code_edit`: SEARCH/REPLACE blocks, possibly across
// files. All edits of one call are applied, or none is (stricter than the
// seed, which promises that only per file): one commit for the call. Edits
// to one file apply in order, each on the result of the previous.
func runCodeEdit(ctx context.Context, e *Engine, raw []byte) Result {
	args, err := codeedit.Parse(raw)
	if err != nil {
		return codeEditError(err)
	}
	results := make([]codeEditOutcome, len(args.Edits))
	paths := make([]repo.Path, len(args.Edits))
	owners := map[*Engine]bool{}
	refused := false
	for i, ed := range args.Edits {
		results[i].FilePath = ed.FilePath
		owner, p, err := e.locate(ed.FilePath)
		if err != nil {
			results[i].Message = explain("code_edit", ed.FilePath, err).Error()
			refused = true
			continue
		}
		paths[i], owners[owner] = p, true
	}
	if refused {
		return codeEditRefused(results)
	}
	if len(owners) > 1 {
		// One commit cannot span two repositories, and all or nothing is
		// what this call promises.
		for i := range results {
			results[i].Message = "the edits of this call touch files of more than one repository (a submodule and its parent); send the edits of each repository as a separate call"
		}
		return codeEditRefused(results)
	}
	for owner := range owners {
		e = owner
	}
	out, err := e.apply(ctx, paths, session.RecordOutside, func(tx *session.Tx) (session.Plan, error) {
		current := map[string][]byte{}
		exists := map[string]bool{}
		for rel, f := range tx.Files {
			current[rel], exists[rel] = f.Content, f.Exists
		}
		failed := false
		for i, ed := range args.Edits {
			rel := paths[i].Rel
			if err := checkText(ed.FilePath, current[rel]); err != nil {
				results[i].Message, failed = err.Error(), true
				continue
			}
			planned, err := codeedit.Plan(ed, current[rel], exists[rel])
			if err == nil {
				var next []byte
				if next, err = ops.ApplyEdits(current[rel], planned.Edits); err == nil {
					current[rel], exists[rel] = next, true
					results[i] = codeEditOutcome{FilePath: ed.FilePath, Success: true, Message: planned.Message}
					continue
				}
			}
			results[i].Message, failed = err.Error(), true
		}
		if failed {
			return session.Plan{}, &editsFailed{results}
		}
		var changes []session.Change
		for rel, f := range tx.Files {
			if exists[rel] && (!f.Exists || !bytes.Equal(current[rel], f.Content)) {
				changes = append(changes, session.Change{Path: rel, Content: current[rel]})
			}
		}
		return session.Plan{Changes: changes, Meta: session.Meta{Op: session.OpEdit, Tool: codeedit.ToolName}}, nil
	})
	var failed *editsFailed
	switch {
	case errors.As(err, &failed):
		return codeEditRefused(failed.results)
	case err != nil:
		for i := range results {
			results[i] = codeEditOutcome{FilePath: args.Edits[i].FilePath, Message: explain("code_edit", args.Edits[i].FilePath, err).Error()}
		}
		return codeEditRefused(results)
	}
	res := codeEditResult{Success: true, Results: results}
	files := len(out.After)
	switch {
	case out.Commit.IsZero():
		res.Message = "No change: every REPLACE text equals what it matched; nothing was written or recorded."
	default:
		res.Message = fmt.Sprintf("Applied %s to %s.", count(len(args.Edits), "edit"), count(files, "file"))
		res.Commit = out.Commit.String()
	}
	return Result{OK: true, Value: res, Text: codeEditText(res)}
}

// codeEditRefused is a call in which at least one edit failed: nothing was
// written. Edits that would have applied say so, so the agent resends them
// unchanged with the failing ones fixed.
func codeEditRefused(results []codeEditOutcome) Result {
	var failing []string
	for i := range results {
		if results[i].Success {
			results[i].Success = false
			results[i].Message = "not applied, because another edit of this call failed (it would apply as it is: " + results[i].Message + ")"
			continue
		}
		failing = append(failing, fmt.Sprintf("%d", i+1))
	}
	res := codeEditResult{Results: results}
	switch {
	case len(results) == 1:
		res.Message = "No file was changed: the edit failed; fix it and send it again."
	case len(failing) == 1:
		res.Message = fmt.Sprintf("No file was changed: edit %s of %d failed; fix it and send all %d edits again.", failing[0], len(results), len(results))
	default:
		res.Message = fmt.Sprintf("No file was changed: edits %s of %d failed; fix them and send all %d edits again.", strings.Join(failing, ", "), len(results), len(results))
	}
	return Result{OK: false, Value: res, Text: codeEditText(res)}
}

func codeEditError(err error) Result {
	res := codeEditResult{Message: err.Error()}
	return Result{OK: false, Value: res, Text: res.Message}
}

func codeEditText(res codeEditResult) string {
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
