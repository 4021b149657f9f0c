package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/git-edit/git-edit/diffview"
	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/ops/texteditor"
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/session"
	"github.com/git-edit/git-edit/undo"
)

// textEditorResult is text_editor's result object (seed 004): the status
// and, in named fields, the seed's text.
type textEditorResult struct {
	Status  string `json:"status"` // "success" or "error"
	Message string `json:"message"`
	// Content is view's file text, or write's new content, as a fenced
	// Markdown block.
	Content string `json:"content,omitempty"`
	// Snippet is the change as unified diff hunks with context.
	Snippet string `json:"snippet,omitempty"`
	// Commit is the session commit that recorded the change.
	Commit string `json:"commit,omitempty"`
}

// snippetContext is how many unchanged lines surround a change in snippets.
const snippetContext = 3

// statusError is the refusal shape text_editor and edit share:
// {"status": "error", "message": …}.
func statusError(err error) Result {
	msg := err.Error()
	return Result{OK: false, Value: textEditorResult{Status: "error", Message: msg}, Text: msg}
}

func textEditorOK(r textEditorResult) Result {
	r.Status = "success"
	text := r.Message
	for _, extra := range []string{r.Content, r.Snippet} {
		if extra != "" {
			text += "\n" + extra
		}
	}
	return Result{OK: true, Value: r, Text: text}
}

func runTextEditor(ctx context.Context, e *Engine, raw []byte) Result {
	args, err := texteditor.Parse(raw)
	if err != nil {
		return statusError(err)
	}
	locate := e.locate
	if args.Command == texteditor.CmdUndoEdit {
		// undo_edit names a recorded file: never follow a symlink to another.
		locate = e.locateRecorded
	}
	e, p, err := locate(args.Path)
	if err != nil {
		return statusError(err)
	}
	var res textEditorResult
	switch args.Command {
	case texteditor.CmdView:
		res, err = e.view(p, args)
	case texteditor.CmdWrite, texteditor.CmdCreate:
		res, err = e.write(ctx, p, args)
	case texteditor.CmdStrReplace, texteditor.CmdInsert:
		res, err = e.editFile(ctx, p, args)
	case texteditor.CmdUndoEdit:
		res, err = e.undoEdit(ctx, p, args)
	}
	if err != nil {
		return statusError(explain("text_editor", args.Path, err))
	}
	return textEditorOK(res)
}

func (e *Engine) view(p repo.Path, args texteditor.Args) (textEditorResult, error) {
	f, err := repo.ReadWorkFile(p, e.Session.MaxFileSize)
	if err != nil {
		return textEditorResult{}, err
	}
	if !f.Exists {
		return textEditorResult{}, fmt.Errorf("%w: %s; check the path, or create the file with the \"create\" command", errFileNotFound, args.Path)
	}
	if err := checkText(args.Path, f.Content); err != nil {
		return textEditorResult{}, err
	}
	block, err := texteditor.RenderView(args.Path, f.Content, args.ViewRange)
	if err != nil {
		return textEditorResult{}, err
	}
	// A view counts as a read for Edit's read-before-edit check (advisory:
	// if the record cannot be written, Edit asks for another read).
	_ = e.Session.RecordSeen(p.Rel, repo.BlobHash(f.Content))
	n := ops.LineCount(f.Content)
	msg := fmt.Sprintf("Here is %s (%s):", args.Path, lines(n))
	if args.ViewRange != nil {
		end := args.ViewRange[1]
		if end == -1 {
			end = n
		}
		msg = fmt.Sprintf("Here are lines %d to %d of %s (%s):", args.ViewRange[0], end, args.Path, lines(n))
	}
	return textEditorResult{Message: msg, Content: block}, nil
}

func (e *Engine) write(ctx context.Context, p repo.Path, args texteditor.Args) (textEditorResult, error) {
	var created bool
	out, err := e.apply(ctx, []repo.Path{p}, session.RecordOutside, func(tx *session.Tx) (session.Plan, error) {
		cur := tx.Files[p.Rel]
		if args.Command == texteditor.CmdCreate && cur.Exists {
			return session.Plan{}, fmt.Errorf("%w: %s; \"create\" never overwrites: use \"write\" to replace the whole file, or \"str_replace\" to change part of it", errFileExists, args.Path)
		}
		created = !cur.Exists
		what := "overwrite"
		if created {
			what = "create"
		}
		return session.Plan{
			Changes: []session.Change{{Path: p.Rel, Content: texteditor.PlanWrite(cur.Content, cur.Exists, *args.FileText)}},
			Meta:    session.Meta{Op: session.OpEdit, Tool: "text_editor." + args.Command},
			Subject: fmt.Sprintf("text_editor.%s: %s %s", args.Command, what, p.Rel),
		}, nil
	})
	if err != nil {
		return textEditorResult{}, err
	}
	if out.Commit.IsZero() {
		return noChange(args.Path, "the file already has exactly this content"), nil
	}
	verb := "written"
	if created {
		verb = "created"
	}
	return textEditorResult{
		Message: fmt.Sprintf("File %s successfully at: %s", verb, args.Path),
		Content: texteditor.CodeBlock(args.Path, out.After[p.Rel].Content),
		Commit:  out.Commit.String(),
	}, nil
}

// editFile runs str_replace and insert: spans planned against the bytes on
// disk under the lock, applied, recorded.
func (e *Engine) editFile(ctx context.Context, p repo.Path, args texteditor.Args) (textEditorResult, error) {
	var msg string
	notFound := fmt.Errorf("%w: %s; check the path, or create the file with the \"create\" command", errFileNotFound, args.Path)
	out, err := e.editSpans(ctx, p, "text_editor."+args.Command, notFound, func(cur repo.FileState) ([]ops.Edit, error) {
		if args.Command == texteditor.CmdInsert {
			msg = fmt.Sprintf("The file %s has been edited: text inserted after line %d.", args.Path, *args.InsertLine)
			if *args.InsertLine == 0 {
				msg = fmt.Sprintf("The file %s has been edited: text inserted before line 1.", args.Path)
			}
			return texteditor.PlanInsert(args.Path, cur.Content, *args.InsertLine, *args.NewStr)
		}
		edits, info, err := texteditor.PlanStrReplace(args.Path, cur.Content, *args.OldStr, *args.NewStr)
		msg = fmt.Sprintf("The file %s has been edited: old_str replaced at line %d.", args.Path, info.Line)
		if info.CRLFFix {
			msg += " The file uses CRLF line endings: old_str matched with its line endings converted, and new_str was written with CRLF."
		}
		return edits, err
	})
	if err != nil {
		return textEditorResult{}, err
	}
	if out.Commit.IsZero() {
		return noChange(args.Path, "old_str and new_str are identical"), nil
	}
	return textEditorResult{
		Message: msg,
		Snippet: snippet(out.Before[p.Rel].Content, out.After[p.Rel].Content),
		Commit:  out.Commit.String(),
	}, nil
}

func (e *Engine) undoEdit(ctx context.Context, p repo.Path, args texteditor.Args) (textEditorResult, error) {
	var target undo.Target
	out, err := e.apply(ctx, []repo.Path{p}, session.RefuseOutside, func(tx *session.Tx) (session.Plan, error) {
		pl, t, err := undo.PlanPath(tx, e.Session, p.Rel, e.UndoDepth, "text_editor.undo_edit")
		target = t
		return pl, err
	})
	if err != nil {
		return textEditorResult{}, e.replaced("undo_edit", []repo.Path{p}, err)
	}
	what := fmt.Sprintf("%s (%s)", target.Meta.Tool, target.Commit.String()[:12])
	if out.Commit.IsZero() {
		return noChange(args.Path, "the file is already as it was before "+what), nil
	}
	after := out.After[p.Rel]
	res := textEditorResult{Commit: out.Commit.String()}
	if !after.Exists {
		res.Message = fmt.Sprintf("Last edit to %s undone: %s created the file, so it was removed.", args.Path, what)
		return res, nil
	}
	res.Message = fmt.Sprintf("Last edit to %s undone: reverted %s.", args.Path, what)
	res.Snippet = snippet(out.Before[p.Rel].Content, after.Content)
	return res, nil
}

// snippet renders a change for an agent: unified hunks with context. A BOM
// both versions share is left out: it is not text an agent reads or writes.
func snippet(before, after []byte) string {
	if n := ops.BOMLen(before); n > 0 && ops.BOMLen(after) == n {
		before, after = before[n:], after[n:]
	}
	return diffview.Hunks(before, after, snippetContext)
}

func noChange(path, why string) textEditorResult {
	return textEditorResult{Message: fmt.Sprintf("No change to %s: %s; nothing was written or recorded.", path, why)}
}

func lines(n int) string {
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}

// Errors of the engine's own.
var (
	errFileNotFound = errors.New("file not found")
	errFileExists   = errors.New("file already exists")
)

// explain turns a refusal from the layers below into a message that names
// the path as the caller gave it and says what to do next.
func explain(tool, arg string, err error) error {
	var outside *session.OutsideChangeError
	switch {
	case errors.Is(err, ErrReplaced):
		return err // already names the path, what it now is, and what to do
	case errors.As(err, &outside):
		diff := diffview.Unified(outside.Recorded.Path, outside.Disk.Path, outside.Recorded.Content, outside.Disk.Content, snippetContext)
		if !outside.Recorded.Exists {
			diff = diffview.Unified("", outside.Disk.Path, nil, outside.Disk.Content, snippetContext)
		} else if !outside.Disk.Exists {
			diff = diffview.Unified(outside.Recorded.Path, "", outside.Recorded.Content, nil, snippetContext)
		}
		return fmt.Errorf("%s was changed outside git-edit since its last recorded edit, and undo would overwrite that change; nothing was undone. View the file and edit it directly instead. The change on disk:\n%s", arg, strings.TrimRight(diff, "\n"))
	case errors.Is(err, repo.ErrIsDirectory):
		return fmt.Errorf("path is a directory: %s; %s works on files: give the path of a file", arg, tool)
	case errors.Is(err, repo.ErrNotRegular):
		return fmt.Errorf("%w; only regular files can be viewed or edited", err)
	case errors.Is(err, repo.ErrReadOnly):
		return fmt.Errorf("permission denied: %s is read-only; make it writable (chmod u+w) if it should be edited", arg)
	case errors.Is(err, repo.ErrPermission):
		return fmt.Errorf("permission denied: %s; fix its permissions or pick another file (%w)", arg, err)
	}
	return err
}
