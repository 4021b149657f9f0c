package ops

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/git-edit/git-edit/ops/dialect"
	"github.com/git-edit/git-edit/ops/jsonargs"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/git-edit/git-edit/undo"
)

// The history tools: undo, redo, rollback and checkpoint over MCP (and
// `git edit call`), the same operations as the commands of those names.
// Each takes dry_run itself (its schema declares it, so the engine's
// dry_run, which previews a dialect's Change, leaves it alone): the answer
// is then the diff the operation would apply, from the same reads, plan
// and refusals under the lock, and nothing is written or recorded.

// Kinds of history operation (HistoryRequest.Op).
const (
	HistUndo     = "undo"
	HistRedo     = "redo"
	HistRollback = "rollback"
)

// HistoryRequest is one undo, redo or rollback, as the commands and the
// history tools ask for it.
type HistoryRequest struct {
	Op string // HistUndo, HistRedo or HistRollback
	// Undo and redo: at most one of Edit (a commit name, as show reads
	// it), Path (its last edit, or last undo, still in effect) and Turn
	// (undo only: every edit of the turn); none: the session's newest.
	Edit, Path, Turn string
	// To is where a rollback returns to (see undo.ResolveTo); "": the
	// state before the session.
	To string
	// Force: see Undo and Rollback. DryRun: plan and answer, changing
	// nothing.
	Force, DryRun bool
}

// History runs req within the engine's Timeout. Its refusals are the
// operations' own (see Undo, Redo, UndoEdit, UndoTurn, Rollback), and one
// stopped at the deadline says so.
func (e *Engine) History(ctx context.Context, req HistoryRequest) (res Reverted, err error) {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	defer func() { err = e.timedOut(req.Op, err) }()
	redo := req.Op == HistRedo
	switch {
	case req.Op == HistRollback:
		res, err = e.rollback(ctx, req.To, req.Force, req.DryRun)
	case req.Op != HistUndo && req.Op != HistRedo:
		return res, fmt.Errorf("internal error: history operation %q", req.Op)
	case req.Turn != "" && redo:
		return res, fmt.Errorf("%w: redo re-applies an undo, not a turn; redo the undo of turn %s by naming it (its commit id, from the log)", undo.ErrNothingToRedo, req.Turn)
	case req.Turn != "":
		res, err = e.undoTurn(ctx, req.Turn, req.Force, req.DryRun)
	case req.Edit != "":
		res, err = e.revertNamed(ctx, req.Edit, req.Force, redo, req.DryRun)
	default:
		res, err = e.revert(ctx, req.Path, req.Force, redo, req.DryRun)
	}
	res.DryRun = req.DryRun
	return res, err
}

// Checkpoint marks the session's current state, named name ("": unnamed),
// as one commit (see session.Session.Checkpoint); dry records nothing.
func (e *Engine) Checkpoint(ctx context.Context, name string, dry bool) (session.Commit, error) {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	c, err := e.Session.Checkpoint(ctx, name, dry)
	return c, e.timedOut("checkpoint", err)
}

// Diff is the unified diff of what the operation did (or, in a dry run,
// would do), path by path in the order of Paths.
func (r Reverted) Diff() string {
	var b strings.Builder
	for _, p := range r.Paths {
		before, after := r.Before[p], r.After[p]
		if before.Exists == after.Exists && before.Mode == after.Mode && string(before.Content) == string(after.Content) {
			continue
		}
		b.WriteString(Unified(p, before, after))
	}
	return b.String()
}

// Report says what an undo, redo or rollback (what) did, path by path, as
// `git edit undo` prints it, with commit ids of idLen hex digits; in a dry
// run, what it would do.
func (r Reverted) Report(what string, idLen int) string {
	id := func(h fmt.Stringer) string { return h.String()[:idLen] }
	if r.Commit.IsZero() && !r.DryRun {
		return fmt.Sprintf("Nothing to %s: every path is already as it would become.\n", what)
	}
	var head string
	switch {
	case what == HistRollback && r.Target.Commit.IsZero():
		head = "the start of the session"
	case what == HistRollback && r.To == undo.ToCheckpoint:
		head = fmt.Sprintf("checkpoint %s (%s)", r.Target.Meta.Checkpoint, id(r.Target.Commit))
		if r.Target.Meta.Checkpoint == "" {
			head = "checkpoint " + id(r.Target.Commit)
		}
	case what == HistRollback && r.To == undo.ToTurn:
		head = fmt.Sprintf("the end of turn %s (%s)", r.Target.Meta.Turn, id(r.Target.Commit))
	case what == HistRollback:
		head = id(r.Target.Commit)
	case what == HistRedo:
		head = fmt.Sprintf("what %s undid (%s)", id(r.Target.Commit), id(r.Target.Meta.Undoes))
	case r.Turn != "":
		ids := make([]string, len(r.Reversals))
		for i, rv := range r.Reversals {
			ids[i] = id(rv.Target.Commit)
		}
		head = fmt.Sprintf("turn %s (%s)", r.Turn, countEdits(len(ids), strings.Join(ids, ", ")))
	default:
		t := r.Target.Meta.Tool
		if t == "" {
			t = r.Target.Meta.Op
		}
		head = fmt.Sprintf("%s (%s)", t, id(r.Target.Commit))
	}
	var b strings.Builder
	if r.DryRun {
		verb := map[string]string{HistUndo: "undo", HistRedo: "redo", HistRollback: "roll back to"}[what]
		fmt.Fprintf(&b, "Dry run: nothing was written or recorded. Would %s %s:\n", verb, head)
	} else {
		verb := map[string]string{HistUndo: "Undid", HistRedo: "Redid", HistRollback: "Rolled back to"}[what]
		head = verb + " " + head
		if !r.Sync.IsZero() {
			head += fmt.Sprintf("; the changes on disk were recorded first as %s", id(r.Sync))
		}
		fmt.Fprintf(&b, "%s, recorded as %s:\n", head, id(r.Commit))
	}
	for _, pc := range r.Changes() {
		switch pc.How {
		case "changed":
			fmt.Fprintf(&b, "  changed    %s (+%d -%d)\n", QuotePath(pc.Path), pc.Added, pc.Removed)
		default:
			fmt.Fprintf(&b, "  %-9s  %s\n", pc.How, QuotePath(pc.Path))
		}
	}
	if len(r.Discarded) > 0 {
		if r.DryRun {
			b.WriteString("Would discard from the worktree (force), still in history:\n")
		} else {
			b.WriteString("Discarded from the worktree (--force), still in history:\n")
		}
		for _, d := range r.Discarded {
			fmt.Fprintf(&b, "  %s\n", d.Fact())
		}
	}
	return b.String()
}

func countEdits(n int, ids string) string {
	if n == 1 {
		return "1 edit: " + ids
	}
	return fmt.Sprintf("%d edits: %s", n, ids)
}

// historyResult is the answer of edit_undo, edit_redo and edit_rollback.
type historyResult struct {
	Status  string `json:"status"` // "success"
	Message string `json:"message"`
	Session string `json:"session"`
	DryRun  bool   `json:"dry_run,omitempty"`
	// Commit is the operation's commit; absent in a dry run or when
	// nothing changed. Sync is the sync commit recorded before it.
	Commit string `json:"commit,omitempty"`
	Sync   string `json:"sync,omitempty"`
	// Target is the commit undone, redone, or returned to.
	Target string       `json:"target,omitempty"`
	Paths  []pathChange `json:"paths"`
	// Diff is the unified diff applied (or, dry, that would be).
	Diff string `json:"diff"`
}

type pathChange struct {
	Path    string `json:"path"`
	How     string `json:"how"`
	Added   int    `json:"added,omitempty"`
	Removed int    `json:"removed,omitempty"`
}

const historyToolNote = `
The session's history only grows: the operation is itself a commit, which edit_undo or edit_redo can take back. "dry_run": true answers with the exact diff it would apply and changes nothing.`

const forceProperty = `"force": {"type": "boolean", "default": false, "description": "Where the same lines changed since, put the file back whole as it was before the edit; what changed since is recorded first and stays in history."}`

const historyDryRunProperty = `"dry_run": {"type": "boolean", "default": false, "description": "Answer with the diff the operation would apply, writing and recording nothing."}`

// turnInstruction asks agents for the turn, which edit_undo and
// edit_rollback act on whole; the MCP server says it once.
const turnInstruction = `Give each editing call the current turn (the person's prompt) as "turn", unless the host sends it in _meta as "git-edit/turn", so that a turn can be reviewed and undone whole.`

var editUndoTool = dialect.Tool{
	Name:        "edit_undo",
	Title:       "Undo an edit or a turn",
	Destructive: true,
	Writes:      true,
	Description: `
Take back an edit of this session, keeping every later change (yours, the person's, other sessions'): the edit's own change is reverse-applied to the file as it is now, as git revert does.
With "edit": that edit (a commit id from edit_history). With "path": that file's last edit still in effect. With "turn": every edit of that turn still in effect, in one commit. With none: the session's newest edit.
Where the same lines changed since, it refuses naming them; "force": true then puts the file back whole.` + historyToolNote,
	Instructions: []string{
		`edit_undo takes back one edit, a file's last edit or a whole turn, keeping later changes; edit_redo re-applies an undo; edit_rollback returns to an edit, a checkpoint (edit_checkpoint) or the end of a turn; "dry_run": true shows the diff first.`,
		turnInstruction,
	},
	Schema: `{
  "type": "object",
  "properties": {
    "edit": {"type": "string", "description": "The commit id (4 or more hex digits) of the edit to undo."},
    "path": {"type": "string", "description": "Undo this file's last edit still in effect."},
    "turn": {"type": "string", "description": "Undo every edit of this turn still in effect."},
    ` + forceProperty + `,
    ` + historyDryRunProperty + `
  },
  "additionalProperties": false
}`,
	Run: func(ctx context.Context, ws dialect.Workspace, raw []byte) dialect.Result {
		return runHistoryTool(ctx, ws.(workspace).e, HistUndo, raw)
	},
	Refuse:    statusError,
	Succeeded: func(obj map[string]any) bool { return obj["status"] != "error" },
}

var editRedoTool = dialect.Tool{
	Name:        "edit_redo",
	Title:       "Redo an undo",
	Destructive: true,
	Writes:      true,
	Description: `
Re-apply what an undo of this session took back, keeping every later change.
With "edit": that undo (a commit id from edit_history). With "path": that file's last undo, if nothing changed the file since. With none: the session's newest undo.` + historyToolNote,
	Schema: `{
  "type": "object",
  "properties": {
    "edit": {"type": "string", "description": "The commit id (4 or more hex digits) of the undo to redo."},
    "path": {"type": "string", "description": "Redo this file's last undo."},
    ` + forceProperty + `,
    ` + historyDryRunProperty + `
  },
  "additionalProperties": false
}`,
	Run: func(ctx context.Context, ws dialect.Workspace, raw []byte) dialect.Result {
		return runHistoryTool(ctx, ws.(workspace).e, HistRedo, raw)
	},
	Refuse:    statusError,
	Succeeded: func(obj map[string]any) bool { return obj["status"] != "error" },
}

var editRollbackTool = dialect.Tool{
	Name:        "edit_rollback",
	Title:       "Roll the session back",
	Destructive: true,
	Writes:      true,
	Description: `
Return every file this session touched to an earlier state of the session, as one new commit.
With "to": the state right after that edit (a commit id), at that checkpoint (its name, see edit_checkpoint), or right after that turn's last edit (its id); "turn:ID" and "checkpoint:NAME" say which. Without: the state before the session.
It refuses to discard the person's work (changes made outside this session); "force": true discards it too (it stays in history).` + historyToolNote,
	Instructions: []string{turnInstruction},
	Schema: `{
  "type": "object",
  "properties": {
    "to": {"type": "string", "description": "An edit's commit id, a checkpoint's name, or a turn's id."},
    "force": {"type": "boolean", "default": false, "description": "Discard the person's work too; it stays in history."},
    ` + historyDryRunProperty + `
  },
  "additionalProperties": false
}`,
	Run: func(ctx context.Context, ws dialect.Workspace, raw []byte) dialect.Result {
		return runHistoryTool(ctx, ws.(workspace).e, HistRollback, raw)
	},
	Refuse:    statusError,
	Succeeded: func(obj map[string]any) bool { return obj["status"] != "error" },
}

var editCheckpointTool = dialect.Tool{
	Name:   "edit_checkpoint",
	Title:  "Checkpoint the session",
	Writes: true,
	Description: `
Mark the session's current state under a name, as a commit that changes no file, so that edit_rollback can return to it ("to": the name) and edit_history shows it.
Names are letters, digits, '-', '_' and '.'; a session's names are unique. "dry_run": true checks the name and records nothing.`,
	Schema: `{
  "type": "object",
  "properties": {
    "name": {"type": "string", "description": "The checkpoint's name, such as before-refactor; without it the checkpoint is named by its commit id."},
    ` + historyDryRunProperty + `
  },
  "additionalProperties": false
}`,
	Run: func(ctx context.Context, ws dialect.Workspace, raw []byte) dialect.Result {
		return runCheckpointTool(ctx, ws.(workspace).e, raw)
	},
	Refuse:    statusError,
	Succeeded: func(obj map[string]any) bool { return obj["status"] != "error" },
}

var historySpecs = map[string]jsonargs.Spec{
	HistUndo:     {Fields: []string{"edit", "path", "turn", "force", "dry_run"}, Example: `{"path": "src/app.py"}`},
	HistRedo:     {Fields: []string{"edit", "path", "force", "dry_run"}, Example: `{"path": "src/app.py"}`},
	HistRollback: {Fields: []string{"to", "force", "dry_run"}, Example: `{"to": "before-refactor"}`},
}

// runHistoryTool serves edit_undo, edit_redo and edit_rollback.
func runHistoryTool(ctx context.Context, e *Engine, op string, raw []byte) Result {
	if len(strings.TrimSpace(string(raw))) == 0 {
		raw = []byte("{}")
	}
	args, err := historySpecs[op].Decode(raw)
	if err != nil {
		return statusError(err)
	}
	req := HistoryRequest{Op: op}
	strs := map[string]*string{"edit": &req.Edit, "path": &req.Path, "turn": &req.Turn, "to": &req.To}
	var named []string
	for _, f := range []string{"edit", "path", "turn", "to"} {
		if !args.Has(f) {
			continue
		}
		if *strs[f], err = jsonargs.String(f, args[f], "a string"); err != nil {
			return statusError(err)
		}
		if *strs[f] == "" {
			return statusError(jsonargs.Invalid("%q is empty; leave it out, or give one", f))
		}
		if f != "to" {
			named = append(named, f)
		}
	}
	if len(named) > 1 {
		return statusError(jsonargs.Invalid("give one of %s, not %s together: each names what to %s", jsonargs.OrList(jsonargs.QuoteAll(historySpecs[op].Fields[:len(historySpecs[op].Fields)-2])), jsonargs.AndList(jsonargs.QuoteAll(named)), op))
	}
	for f, dst := range map[string]*bool{"force": &req.Force, "dry_run": &req.DryRun} {
		if args.Has(f) {
			if *dst, err = jsonargs.Bool(f, args[f]); err != nil {
				return statusError(err)
			}
		}
	}
	res, err := e.History(ctx, req)
	if err != nil {
		return statusError(explainHistory(op, err))
	}
	out := historyResult{Status: "success", Message: res.Report(op, 12), Session: e.Session.Name, DryRun: res.DryRun, Diff: res.Diff(), Paths: []pathChange{}}
	if !res.Commit.IsZero() {
		out.Commit = res.Commit.String()
	}
	if !res.Sync.IsZero() {
		out.Sync = res.Sync.String()
	}
	if !res.Target.Commit.IsZero() {
		out.Target = res.Target.Commit.String()
	}
	for _, pc := range res.Changes() {
		out.Paths = append(out.Paths, pathChange{Path: pc.Path, How: pc.How, Added: pc.Added, Removed: pc.Removed})
	}
	text := out.Message
	if out.Diff != "" {
		text += out.Diff
	}
	return Result{OK: true, Value: out, Text: text}
}

// forceWords rewords the commands' "--force" for a tool's argument.
var forceWords = strings.NewReplacer(
	"run it again with --force", `call again with "force": true`,
	"Run it again with --force", `Call again with "force": true`,
	"without --force", `without "force": true`,
	"(--force)", `("force": true)`,
)

// explainHistory words a refusal of a history tool: what the commands say,
// with their flags as the tool's arguments, and a file changed on disk
// with its difference.
func explainHistory(op string, err error) error {
	if outside, ok := errors.AsType[*session.OutsideChangeError](err); ok {
		diff := Unified(outside.Disk.Path, outside.Recorded, outside.Disk)
		return fmt.Errorf("%s was changed outside git-edit since the session last recorded it, and %s would overwrite that; nothing was changed. Call again with \"force\": true to record the change first (a sync commit keeps it in history) and %s anyway. The change on disk:\n%s",
			outside.Disk.Path, op, op, strings.TrimRight(diff, "\n"))
	}
	return errors.New(forceWords.Replace(err.Error()))
}

// checkpointResult is edit_checkpoint's answer.
type checkpointResult struct {
	Status  string `json:"status"`
	Message string `json:"message"`
	Session string `json:"session"`
	DryRun  bool   `json:"dry_run,omitempty"`
	Name    string `json:"name,omitempty"`
	Commit  string `json:"commit,omitempty"`
}

var checkpointSpec = jsonargs.Spec{Fields: []string{"name", "dry_run"}, Example: `{"name": "before-refactor"}`}

func runCheckpointTool(ctx context.Context, e *Engine, raw []byte) Result {
	if len(strings.TrimSpace(string(raw))) == 0 {
		raw = []byte("{}")
	}
	args, err := checkpointSpec.Decode(raw)
	if err != nil {
		return statusError(err)
	}
	var name string
	var dry bool
	if args.Has("name") {
		if name, err = jsonargs.String("name", args["name"], "a checkpoint name"); err != nil {
			return statusError(err)
		}
	}
	if args.Has("dry_run") {
		if dry, err = jsonargs.Bool("dry_run", args["dry_run"]); err != nil {
			return statusError(err)
		}
	}
	c, err := e.Checkpoint(ctx, name, dry)
	if err != nil {
		return statusError(err)
	}
	out := checkpointResult{Status: "success", Session: e.Session.Name, DryRun: dry, Name: name}
	label := "checkpoint"
	if name != "" {
		label += " " + name
	}
	if dry {
		out.Message = fmt.Sprintf("Dry run: nothing was recorded. Would record %s in session %s.", label, e.Session.Name)
	} else {
		out.Commit = c.Hash.String()
		to := name
		if to == "" {
			to = c.Hash.String()[:12]
		}
		out.Message = fmt.Sprintf("Recorded %s (%s) in session %s; return to it with edit_rollback {\"to\": %q}.", label, c.Hash.String()[:12], e.Session.Name, to)
	}
	return Result{OK: true, Value: out, Text: out.Message}
}
