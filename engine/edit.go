package engine

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/ops/positional"
	"github.com/git-edit/git-edit/repo"
)

// runEdit serves the `edit` tool (seed 000): positional insert, delete and
// replace, regexp replaceAll, and search. Its results are the seed's
// objects exactly; refusals are {"status": "error", "message": …}.
func runEdit(ctx context.Context, e *Engine, raw []byte) Result {
	args, err := positional.Parse(raw)
	if err != nil {
		return statusError(err)
	}
	e, p, err := e.locate(args.FilePath)
	if err != nil {
		return statusError(err)
	}
	notFound := fmt.Errorf("%w: %s; edit changes existing files: check the path", errFileNotFound, args.FilePath)
	if args.Command == positional.CmdSearch {
		f, err := repo.ReadWorkFile(p, e.Session.MaxFileSize)
		if err == nil && !f.Exists {
			err = notFound
		}
		if err == nil {
			err = checkText(args.FilePath, f.Content)
		}
		if err != nil {
			return statusError(explain("edit", args.FilePath, err))
		}
		return jsonOK(positional.Search(f.Content, args.Regexp))
	}
	var result any
	_, err = e.editSpans(ctx, p, "edit."+args.Command, notFound, func(cur repo.FileState) ([]ops.Edit, error) {
		edits, res, err := positional.Plan(args.FilePath, cur.Content, args)
		result = res
		return edits, err
	})
	if err != nil {
		return statusError(explain("edit", args.FilePath, err))
	}
	return jsonOK(result)
}

// jsonOK is a success whose text for an agent is the result object itself.
func jsonOK(v any) Result {
	text, _ := json.Marshal(v)
	return Result{OK: true, Value: v, Text: string(text)}
}
