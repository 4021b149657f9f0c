package texteditor

import (
	"context"
	"errors"
	"fmt"

	"github.com/git-edit/git-edit/ops/dialect"
	"github.com/git-edit/git-edit/ops/match"
	"github.com/git-edit/git-edit/ops/text"
)

// ToolName is the tool's name (CLI and MCP).
const ToolName = "text_editor"

// Tool registers text_editor (seed 004).
var Tool = dialect.Tool{
	Name:        ToolName,
	Title:       "Text editor (view, write, str_replace, insert, undo)",
	Destructive: true,
	Description: `
View, create, overwrite and edit text files, and undo edits (every change is recorded as a git commit).
Commands: "view" shows the file in a Markdown code block (optional "view_range": [start, end], 1-based, -1 = end; whole files up to 400 KB);
"write" creates or overwrites the file with "file_text" (parent directories are created); "create" is like write but refuses an existing file;
"str_replace" replaces "old_str", which must occur exactly once (copy it exactly, whitespace included), with "new_str" (optional "line": where old_str starts, to pick one of several occurrences);
"insert" inserts "new_str" as whole lines after line "insert_line" (0 = before the first line, -1 = after the last line);
"undo_edit" reverts the last edit of the file. Paths are relative to the project root or absolute.`,
	Schema: `{
  "type": "object",
  "properties": {
    "command": {"type": "string", "enum": ["view", "write", "create", "str_replace", "insert", "undo_edit"], "description": "The operation to perform."},
    "path": {"type": "string", "description": "The file, relative to the project root or absolute."},
    "file_text": {"type": "string", "description": "write/create: the entire new content of the file."},
    "old_str": {"type": "string", "description": "str_replace: the exact text to replace; it must occur exactly once."},
    "new_str": {"type": "string", "description": "str_replace: the replacement (\"\" deletes); insert: the lines to insert."},
    "insert_line": {"type": "integer", "description": "insert: the line after which to insert; 0 inserts before the first line, -1 after the last line (negative lines count from the end)."},
    "view_range": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2, "description": "view: [start, end], 1-based and inclusive; end -1 means the last line."},
    "line": {"type": "integer", "minimum": 1, "description": "str_replace: the line where old_str starts (1-based), to pick one of several occurrences."}
  },
  "required": ["command", "path"],
  "additionalProperties": false
}`,
	Instructions: []string{`text_editor's undo_edit command reverts the last edit of a file.`},
	Run:          runCall,
	Refuse:       Refusal,
	Succeeded:    func(obj map[string]any) bool { return obj["status"] == "success" },
	WriteCall: func(path, old, text string) map[string]any {
		return map[string]any{"command": CmdWrite, "path": path, "file_text": text}
	},
}

// Response is text_editor's result object (seed 004): the status and, in
// named fields, the seed's text.
type Response struct {
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

// Refusal is text_editor's refusal: {"status": "error", "message": …}.
func Refusal(err error) dialect.Result {
	msg := err.Error()
	return dialect.Refused(Response{Status: "error", Message: msg}, msg)
}

func succeeded(r Response) dialect.Result {
	r.Status = "success"
	text := r.Message
	for _, extra := range []string{r.Content, r.Snippet} {
		if extra != "" {
			text += "\n" + extra
		}
	}
	return dialect.Result{OK: true, Value: r, Text: text}
}

// ErrFileExists refuses "create" of an existing file.
var ErrFileExists = errors.New("file already exists")

func runCall(ctx context.Context, ws dialect.Workspace, raw []byte) dialect.Result {
	args, err := Parse(raw)
	if err != nil {
		return Refusal(err)
	}
	var res Response
	switch args.Command {
	case CmdView:
		res, err = view(ws, args)
	case CmdWrite, CmdCreate:
		res, err = write(ctx, ws, args)
	case CmdStrReplace, CmdInsert:
		res, err = editFile(ctx, ws, args)
	case CmdUndoEdit:
		res, err = undoEdit(ctx, ws, args)
	}
	if err != nil {
		return Refusal(err)
	}
	return succeeded(res)
}

func notFound(path string) error {
	return fmt.Errorf("%w: %s; check the path, or create the file with the \"create\" command", dialect.ErrFileNotFound, path)
}

func view(ws dialect.Workspace, args Args) (Response, error) {
	f, err := ws.Read(args.Path)
	if err != nil {
		return Response{}, err
	}
	if !f.Exists {
		return Response{}, notFound(args.Path)
	}
	if err := dialect.CheckText(args.Path, f.Content); err != nil {
		return Response{}, err
	}
	block, err := RenderView(args.Path, f.Content, args.ViewRange)
	if err != nil {
		return Response{}, err
	}
	// A view counts as a read for Edit's read-before-edit check.
	ws.MarkSeen(args.Path, f.Content)
	n := text.LineCount(f.Content)
	msg := fmt.Sprintf("Here is %s (%s):", args.Path, lines(n))
	if args.ViewRange != nil {
		end := args.ViewRange[1]
		if end == -1 {
			end = n
		}
		msg = fmt.Sprintf("Here are lines %d to %d of %s (%s):", args.ViewRange[0], end, args.Path, lines(n))
	}
	return Response{Message: msg, Content: block}, nil
}

func write(ctx context.Context, ws dialect.Workspace, args Args) (Response, error) {
	var created bool
	var id string
	out, err := ws.Change(ctx, dialect.ChangeRequest{
		Tool:  ToolName + "." + args.Command,
		Paths: []string{args.Path},
		Plan: func(files []dialect.File) (dialect.Plan, error) {
			cur := files[0]
			if args.Command == CmdCreate && cur.Exists {
				return dialect.Plan{}, fmt.Errorf("%w: %s; \"create\" never overwrites: use \"write\" to replace the whole file, or \"str_replace\" to change part of it", ErrFileExists, args.Path)
			}
			if cur.Exists {
				// A file_text with "// ... existing code ..." where the
				// file's code was would delete that code.
				if err := match.CheckOmission("file_text", string(cur.Content), *args.FileText); err != nil {
					return dialect.Plan{}, fmt.Errorf("%s: %w", args.Path, err)
				}
			}
			created, id = !cur.Exists, cur.ID
			what := "overwrite"
			if created {
				what = "create"
			}
			return dialect.Plan{
				Changes: []dialect.Change{{ID: cur.ID, Whole: true, Content: PlanWrite(cur.Content, cur.Exists, *args.FileText)}},
				Subject: fmt.Sprintf("%s.%s: %s %s", ToolName, args.Command, what, cur.ID),
			}, nil
		},
	})
	if err != nil {
		return Response{}, err
	}
	if out.Commit == "" {
		return noChange(args.Path, "the file already has exactly this content"), nil
	}
	verb := "written"
	if created {
		verb = "created"
	}
	return Response{
		Message: fmt.Sprintf("File %s successfully at: %s", verb, args.Path),
		Content: CodeBlock(args.Path, out.After[id].Content),
		Commit:  out.Commit,
	}, nil
}

// editFile runs str_replace and insert: spans planned against the bytes on
// disk under the session's lock.
func editFile(ctx context.Context, ws dialect.Workspace, args Args) (Response, error) {
	var msg string
	out, err := ws.Change(ctx, dialect.ChangeRequest{
		Tool:  ToolName + "." + args.Command,
		Paths: []string{args.Path},
		Plan: func(files []dialect.File) (dialect.Plan, error) {
			cur := files[0]
			if !cur.Exists {
				return dialect.Plan{}, notFound(args.Path)
			}
			// An edit names a binary file by its path in the repository,
			// as its refusal always has (a view or read names it as given).
			if err := dialect.CheckText(cur.ID, cur.Content); err != nil {
				return dialect.Plan{}, err
			}
			var pl Planned
			var err error
			if args.Command == CmdInsert {
				pl, err = PlanInsert(args.Path, cur.Content, *args.InsertLine, *args.NewStr)
				msg = insertedMessage(args.Path, *args.InsertLine, pl.AfterLine)
			} else {
				pl, err = PlanStrReplaceAt(args.Path, cur.Content, *args.OldStr, *args.NewStr, args.Line)
				msg = replacedMessage(args.Path, pl)
			}
			return dialect.Plan{Changes: []dialect.Change{{ID: cur.ID, Edits: pl.Edits}}, Matched: pl.Matched()}, err
		},
	})
	if err != nil {
		return Response{}, err
	}
	if out.Commit == "" {
		return noChange(args.Path, "old_str and new_str are identical"), nil
	}
	id := onlyID(out)
	return Response{Message: msg, Snippet: dialect.Snippet(out.Before[id].Content, out.After[id].Content), Commit: out.Commit}, nil
}

// insertedMessage is insert's result: where the text went; a negative
// insert_line is said with the line it counted to.
func insertedMessage(path string, given, after int) string {
	from := ""
	if given < 0 {
		from = fmt.Sprintf(" (insert_line %d counts from the end)", given)
	}
	if after == 0 {
		return fmt.Sprintf("The file %s has been edited: text inserted before line 1%s.", path, from)
	}
	return fmt.Sprintf("The file %s has been edited: text inserted after line %d%s.", path, after, from)
}

// replacedMessage is str_replace's result: where old_str was, and what
// was forgiven to find it.
func replacedMessage(path string, pl Planned) string {
	msg := fmt.Sprintf("The file %s has been edited: old_str replaced at line %d.", path, pl.Line)
	if pl.Hinted {
		msg += fmt.Sprintf(" old_str occurs %d times (at %s); \"line\" picked the one at line %d.", len(pl.Occurrences), text.DescribeLines(pl.Occurrences), pl.Line)
	}
	if pl.Stage != match.Exact {
		msg += fmt.Sprintf(" old_str is not in the file exactly: it matched ignoring %s, and new_str was adapted the same way; check the snippet.", pl.forgiven())
	}
	if pl.CRLFFix {
		msg += " The file uses CRLF line endings: old_str matched with its line endings converted, and new_str was written with CRLF."
	}
	return msg
}

// onlyID is the ID of the one file a single-file operation changed.
func onlyID(out dialect.Outcome) string {
	for id := range out.After {
		return id
	}
	return ""
}

func undoEdit(ctx context.Context, ws dialect.Workspace, args Args) (Response, error) {
	u, err := ws.Undo(ctx, args.Path, ToolName+"."+CmdUndoEdit)
	if err != nil {
		return Response{}, err
	}
	if u.Commit == "" {
		return noChange(args.Path, "the file is already as it was before "+u.What), nil
	}
	res := Response{Commit: u.Commit}
	if !u.After.Exists {
		res.Message = fmt.Sprintf("Last edit to %s undone: %s created the file, so it was removed.", args.Path, u.What)
		return res, nil
	}
	res.Message = fmt.Sprintf("Last edit to %s undone: reverted %s.", args.Path, u.What)
	res.Snippet = dialect.Snippet(u.Before.Content, u.After.Content)
	return res, nil
}

func noChange(path, why string) Response {
	return Response{Message: fmt.Sprintf("No change to %s: %s; nothing was written or recorded.", path, why)}
}

func lines(n int) string {
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}
