package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/ops/editlines"
	"github.com/git-edit/git-edit/repo"
)

// runEditLines serves the `edit_lines` tool (seed 001): a batch of line
// operations, validated as a whole, applied as one set of spans, recorded
// as one commit. Errors are {"error": …} with the seed's texts.
func runEditLines(ctx context.Context, e *Engine, raw []byte) Result {
	args, err := editlines.Parse(raw)
	if err != nil {
		return editLinesError(err)
	}
	e, p, err := e.locate(args.Path)
	if err != nil {
		return editLinesError(err)
	}
	var planned editlines.Planned
	notFound := fmt.Errorf("%w: %s", errFileNotFound, args.Path)
	_, err = e.editSpans(ctx, p, "edit_lines", notFound, func(cur repo.FileState) ([]ops.Edit, error) {
		planned, err = editlines.Plan(args.Path, cur.Content, args.Operations)
		return planned.Edits, err
	})
	if err != nil {
		return editLinesError(seedFileError(args.Path, err))
	}
	return jsonOK(editlines.Result{Path: p.Abs, LinesChanged: planned.LinesChanged, NewLineCount: planned.NewLineCount})
}

func editLinesError(err error) Result {
	msg := err.Error()
	return Result{OK: false, Value: editlines.ErrorResult{Error: msg}, Text: msg}
}

// seedFileError words file problems exactly as seed 001's error table does;
// other refusals keep their own message.
func seedFileError(arg string, err error) error {
	switch {
	case errors.Is(err, repo.ErrIsDirectory):
		return fmt.Errorf("path is a directory: %s", arg)
	case errors.Is(err, repo.ErrPermission):
		return fmt.Errorf("permission denied: %s", arg)
	}
	return explain("edit_lines", arg, err)
}
