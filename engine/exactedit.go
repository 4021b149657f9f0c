package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/ops/exactedit"
	"github.com/git-edit/git-edit/repo"
	"github.com/go-git/go-git/v5/plumbing"
)

// editResult is what Edit and MultiEdit return on success: the seed gives
// no success shape, so it is exactedit's result plus the change as a
// snippet and the commit that recorded it.
type editResult struct {
	exactedit.EditResult
	Snippet string `json:"snippet,omitempty"`
	Commit  string `json:"commit,omitempty"`
}

// runExactEdit serves `Edit` (seed 002): one exact string replacement.
func runExactEdit(ctx context.Context, e *Engine, raw []byte) Result {
	args, err := exactedit.ParseEdit(raw)
	if err != nil {
		return failure(refusal(exactedit.ToolEdit, "", err))
	}
	return e.exactEdit(ctx, exactedit.ToolEdit, args.FilePath, func(content []byte) (exactedit.Planned, error) {
		return exactedit.PlanEdit(content, args.OldString, args.NewString, args.ReplaceAll)
	})
}

// runMultiEdit serves `MultiEdit`: edits applied in order, each on the
// result of the previous, all or nothing, one commit.
func runMultiEdit(ctx context.Context, e *Engine, raw []byte) Result {
	args, err := exactedit.ParseMultiEdit(raw)
	if err != nil {
		return failure(refusal(exactedit.ToolMultiEdit, "", err))
	}
	return e.exactEdit(ctx, exactedit.ToolMultiEdit, args.FilePath, func(content []byte) (exactedit.Planned, error) {
		return exactedit.PlanMultiEdit(content, args.Edits)
	})
}

// exactEdit is Edit and MultiEdit's shared path: under the lock, the
// read-before-edit check against the bytes about to be edited, then the
// plan, applied and recorded as one commit.
func (e *Engine) exactEdit(ctx context.Context, tool, arg string, plan func([]byte) (exactedit.Planned, error)) Result {
	e, p, err := e.locate(arg)
	if err != nil {
		return failure(refusal(tool, arg, err))
	}
	var planned exactedit.Planned
	out, err := e.editSpans(ctx, p, tool, exactedit.FileNotFound(arg), func(cur repo.FileState) ([]ops.Edit, error) {
		if err := e.checkSeen(p, arg, cur.Blob); err != nil {
			return nil, err
		}
		planned, err = plan(cur.Content)
		return planned.Edits, err
	})
	if err != nil {
		return failure(refusal(tool, arg, err))
	}
	res := editResult{EditResult: exactedit.EditResult{Replacements: planned.Replacements, Notes: planned.Notes}}
	if out.Commit.IsZero() {
		res.Message = fmt.Sprintf("No change to %s: the text is already as new_string would make it; nothing was written or recorded.", arg)
	} else {
		res.Message = describeReplacements(tool, arg, planned)
		res.Snippet = snippet(out.Before[p.Rel].Content, out.After[p.Rel].Content)
		res.Commit = out.Commit.String()
	}
	text := res.Message
	for _, n := range res.Notes {
		text += "\nNote: " + n
	}
	if res.Snippet != "" {
		text += "\n" + res.Snippet
	}
	return Result{OK: true, Value: res, Text: text}
}

func describeReplacements(tool, arg string, planned exactedit.Planned) string {
	if tool == exactedit.ToolMultiEdit {
		return fmt.Sprintf("Applied the edits to %s (%d replacements, starting at line %d).", arg, planned.Replacements, planned.Line)
	}
	if planned.Replacements == 1 {
		return fmt.Sprintf("Replaced 1 occurrence in %s at line %d.", arg, planned.Line)
	}
	return fmt.Sprintf("Replaced %d occurrences in %s, the first at line %d.", planned.Replacements, arg, planned.Line)
}

// checkSeen enforces read-before-edit: the session must have seen the file
// with exactly the bytes whose blob id is blob (by Read, text_editor view,
// or its own edit). Off with git config edit.requireRead false.
func (e *Engine) checkSeen(p repo.Path, arg string, blob plumbing.Hash) error {
	if !e.RequireRead {
		return nil
	}
	seen, ok, err := e.Session.LastSeen(p.Rel)
	switch {
	case err != nil:
		return err
	case !ok:
		return exactedit.NotRead(arg)
	case seen != blob:
		return exactedit.ModifiedSinceRead(arg)
	}
	return nil
}

// runRead serves `Read`: lines in cat -n form. A read, whole or part, is
// what Edit's read-before-edit check asks for.
func runRead(ctx context.Context, e *Engine, raw []byte) Result {
	args, err := exactedit.ParseRead(raw)
	if err != nil {
		return failure(refusal(exactedit.ToolRead, "", err))
	}
	e, p, err := e.locate(args.FilePath)
	if err != nil {
		return failure(refusal(exactedit.ToolRead, args.FilePath, err))
	}
	f, err := repo.ReadWorkFile(p, e.Session.MaxFileSize)
	if err == nil && !f.Exists {
		err = exactedit.FileNotFound(args.FilePath)
	}
	if err == nil {
		err = checkText(args.FilePath, f.Content)
	}
	if err != nil {
		return failure(refusal(exactedit.ToolRead, args.FilePath, err))
	}
	content, err := exactedit.RenderRead(f.Content, args.Offset, args.Limit)
	if err != nil {
		return failure(refusal(exactedit.ToolRead, args.FilePath, err))
	}
	// Advisory: if the record cannot be written, Edit asks for another read.
	_ = e.Session.RecordSeen(p.Rel, repo.BlobHash(f.Content))
	return Result{OK: true, Value: exactedit.ReadResult{Content: content, TotalLines: ops.LineCount(f.Content)}, Text: content}
}

// failure is a refused Edit, MultiEdit or Read: {"error": …, "details": …}.
func failure(f *exactedit.Failure) Result {
	return Result{OK: false, Value: f, Text: f.Error()}
}

// refusal keeps the dialect's own failures and words any other refusal
// (a path outside the root, a directory, a file changed on disk under
// undo) in the seed's {"error", "details"} shape.
func refusal(tool, arg string, err error) *exactedit.Failure {
	var f *exactedit.Failure
	if errors.As(err, &f) {
		return f
	}
	return &exactedit.Failure{Message: tool + " refused", Details: explain(tool, arg, err).Error(), Err: err}
}

// exactEditError shapes an error from before the dialect ran (no
// repository, bad config).
func exactEditError(err error) Result {
	return failure(&exactedit.Failure{Message: "Call refused", Details: err.Error(), Err: err})
}
