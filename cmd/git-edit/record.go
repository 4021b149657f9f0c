package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/urfave/cli/v2"
)

// recordOptions is what `git edit record` was asked to do.
type recordOptions struct {
	Root    string
	Session string
	Paths   []string
	// Message is -m: its first line is the subject, the rest the body.
	Message string
	// HookInput reads an agent host's hook input (JSON) from Stdin and
	// takes the message from it, unless Message is set.
	HookInput bool
	// Before records the changes as a sync commit, the person's: run
	// before an agent's shell command (a PreToolUse hook), so that the
	// record after it holds only what the command changed.
	Before bool
	// Turn is recorded on the record commit as Edit-Turn ("": none).
	Turn string
	// Origin is recorded on the record commit as Edit-Model and Edit-Agent.
	Origin session.Origin
	// All takes every change as the command's, even when nothing says
	// they are (see ops.RecordScope).
	All bool

	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

func recordCommand() *cli.Command {
	return &cli.Command{
		Name:      "record",
		Usage:     "record, as one commit of the session, every change on disk it has not recorded (what a shell command or another tool changed): modified, new (untracked, not ignored) and deleted files",
		ArgsUsage: "[PATH...]",
		Flags: append([]cli.Flag{clikit.RootFlag(), sessionFlag(),
			&cli.StringFlag{Name: "message", Aliases: []string{"m"}, Usage: "the commit message, such as the shell command that ran: first line the subject, the rest the body (default: \"record: PATHS changed on disk\")"},
			&cli.BoolFlag{Name: "before", Usage: "record the changes as yours, a sync commit that undo stops at, not the agent's: run it before an agent's shell command (a PreToolUse hook), so that the record after the command holds only what the command changed"},
			turnFlag(),
			&cli.BoolFlag{Name: "all", Usage: "record every change as the command's, even when nothing says it is (without PATHs, -m, --hook-input or a `record --before` before the command, a record of two or more changed paths is refused: your own unrecorded changes may be among them)"},
			&cli.BoolFlag{Name: "hook-input", Usage: "read an agent host's hook input (JSON, as Claude Code's and Codex's PostToolUse hooks send it) on stdin, and take the message from its tool_input.command (the shell command that ran), or tool_name and tool_input.file_path"},
		}, clikit.OriginFlags()...),
		OnUsageError: clikit.UsageError,
		Action: func(c *cli.Context) error {
			name, err := writerSession(c)
			if err != nil {
				return err
			}
			origin, err := clikit.OriginOf(c)
			if err != nil {
				return err
			}
			return runRecord(c.Context, recordOptions{Origin: origin,
				Root: c.String("root"), Session: name, Paths: c.Args().Slice(),
				Message: c.String("message"), HookInput: c.Bool("hook-input"), Before: c.Bool("before"), Turn: c.String("turn"), All: c.Bool("all"),
				Stdin: c.App.Reader, Stdout: c.App.Writer, Stderr: c.App.ErrWriter,
			})
		},
	}
}

// runRecord records the changes and reports them as `git commit` does: the
// session and short id with the subject, the summary line, and a line per
// file created, deleted or whose mode changed. With nothing to record it
// says so, and succeeds.
//
// Run as a hook (--hook-input), the report goes to stderr and stdout stays
// empty: a hook's stdout is the host's protocol channel, parsed as JSON
// (Codex reads a report starting with "[" as malformed JSON and marks the
// hook failed; Gemini CLI requires JSON or nothing), and an empty stdout
// means "no decision" to every host.
func runRecord(ctx context.Context, o recordOptions) error {
	if o.HookInput {
		o.Stdout = o.Stderr
		o.Origin, o.Stdin = hookOrigin(o.Origin, o.Stdin)
	}
	msg := o.Message
	if o.HookInput && msg == "" {
		var err error
		if msg, err = hookCommand(o.Stdin); err != nil {
			// The change matters more than its message: record it anyway.
			fmt.Fprintf(o.Stderr, "warning: %v; recording without it\n", err)
		}
	}
	if o.Turn != "" {
		if err := session.ValidateTurn(o.Turn); err != nil {
			return fmt.Errorf("--turn: %w", err)
		}
		ctx = session.WithTurn(ctx, o.Turn)
	}
	if o.Origin != (session.Origin{}) {
		ctx = session.WithOrigin(ctx, o.Origin)
	}
	subject, body, _ := strings.Cut(strings.TrimSpace(strings.ReplaceAll(msg, "\r\n", "\n")), "\n")
	op := session.OpRecord
	if o.Before {
		// The subject says whose the changes are; the command that is
		// about to run goes in the body.
		op, subject, body = session.OpSync, "", strings.TrimSpace("before: "+subject+"\n"+body)
		if msg == "" {
			body = ""
		}
	}
	e, err := ops.Open(ops.Options{Root: o.Root, Session: o.Session})
	if err != nil {
		if errors.Is(err, session.ErrBadName) {
			return err
		}
		return clikit.Refused(err)
	}
	defer e.Close()
	res, err := e.Record(ctx, o.Paths, op, subject, body, ops.RecordScope{All: o.All, Named: strings.TrimSpace(msg) != ""})
	for _, s := range res.Skipped {
		fmt.Fprintf(o.Stderr, "warning: not recorded: %s: %s\n", ops.QuotePath(s.Path), clikit.Printable(s.Reason.Error()))
	}
	if err != nil {
		return clikit.Refused(fmt.Errorf("record: %w; nothing was recorded", err))
	}
	for _, sync := range res.Syncs {
		// Changes not this session's (HEAD's, another session's),
		// recorded before the command's.
		fmt.Fprintf(o.Stdout, "[%s %s] %s\n", e.Session.Name, sync.Short(), clikit.Printable(sync.Subject))
	}
	if res.Commit.Hash.IsZero() {
		if len(res.Syncs) > 0 {
			return nil
		}
		where := ""
		if len(o.Paths) > 0 {
			where = " in " + quotePaths(o.Paths)
		}
		if len(res.Skipped) > 0 {
			_, err := fmt.Fprintf(o.Stdout, "nothing recorded%s: the paths warned about were left out, and every other file is as session %s last recorded it\n", where, e.Session.Name)
			return err
		}
		_, err := fmt.Fprintf(o.Stdout, "nothing to record%s: every file is as session %s last recorded it\n", where, e.Session.Name)
		return err
	}
	return reportRecord(o.Stdout, e.Session.Name, res.Recorded)
}

// reportRecord prints what `git commit` prints after committing.
func reportRecord(w io.Writer, name string, res session.Recorded) error {
	fmt.Fprintf(w, "[%s %s] %s\n", name, res.Commit.Short(), clikit.Printable(res.Commit.Subject))
	ins, dels := 0, 0
	for _, st := range res.Commit.Meta.Stat {
		ins, dels = ins+st.Added, dels+st.Removed
	}
	fmt.Fprintln(w, statSummary(len(res.Paths), ins, dels))
	for _, p := range res.Paths {
		before, after := res.Before[p], res.After[p]
		switch {
		case !before.Exists() && after.Exists:
			fmt.Fprintf(w, " create mode %s %s\n", modeString(after.Mode), ops.QuotePath(p))
		case before.Exists() && !after.Exists:
			fmt.Fprintf(w, " delete mode %s %s\n", modeString(before.Mode), ops.QuotePath(p))
		case before.Mode != after.Mode:
			fmt.Fprintf(w, " mode change %s => %s %s\n", modeString(before.Mode), modeString(after.Mode), ops.QuotePath(p))
		}
	}
	return nil
}

// modeString is a mode as git prints it: 100644.
func modeString(m filemode.FileMode) string { return fmt.Sprintf("%06o", uint32(m)) }

// hookCommand reads an agent host's hook input and returns the shell
// command it names (tool_input.command: a string, or a list of arguments
// as some hosts send); for another tool, its name and tool_input.file_path
// ("Write src/app.py"); "" when it names none. A patch of apply_patch
// (Codex's tool: the command, an argument of it, or tool_input.input or
// .patch) is named by what it did, "apply_patch: update a.go, add b.go",
// never by its first line, "*** Begin Patch".
func hookCommand(r io.Reader) (string, error) {
	cmd, err := hookCommandText(r)
	if err != nil {
		return "", err
	}
	for _, s := range append([]string{cmd.text}, cmd.args...) {
		if subject, ok := patchSubject(s); ok {
			return subject, nil
		}
	}
	return cmd.text, nil
}

// patchSubject names what an apply_patch patch did, the patch given alone
// or as the command that applies it ("apply_patch <<'EOF'\n*** Begin
// Patch…"); ok is false for anything else.
func patchSubject(s string) (string, bool) {
	s = strings.TrimSpace(s)
	for _, name := range []string{"apply_patch", "applypatch"} {
		if rest, ok := strings.CutPrefix(s, name); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n') {
			s = strings.TrimSpace(rest)
			break
		}
	}
	if !strings.Contains(s, "*** Begin Patch") {
		return "", false
	}
	return ops.PatchSubject(s)
}

// hookCommandIn is the command of a hook's input: its text as a message,
// and, when the host sent a list of arguments, each of them.
type hookCommandIn struct {
	text string
	args []string
}

func hookCommandText(r io.Reader) (hookCommandIn, error) {
	var in struct {
		ToolName  string `json:"tool_name"`
		ToolInput struct {
			Command  json.RawMessage `json:"command"`
			FilePath string          `json:"file_path"`
			Input    string          `json:"input"` // apply_patch's freeform patch
			Patch    string          `json:"patch"`
		} `json:"tool_input"`
		// Cursor's shell hooks give the command at the top.
		Command json.RawMessage `json:"command"`
	}
	data, err := io.ReadAll(io.LimitReader(r, ops.MaxArgsBytes))
	if err != nil {
		return hookCommandIn{}, fmt.Errorf("--hook-input: read stdin: %w", err)
	}
	if err := json.Unmarshal(data, &in); err != nil {
		return hookCommandIn{}, fmt.Errorf("--hook-input: stdin is not a hook's JSON input (%v); pipe the host's hook input, or give -m MESSAGE", err)
	}
	cmd := in.ToolInput.Command
	if len(cmd) == 0 || string(cmd) == "null" {
		cmd = in.Command
	}
	if len(cmd) == 0 || string(cmd) == "null" {
		for _, patch := range []string{in.ToolInput.Input, in.ToolInput.Patch} {
			if _, ok := patchSubject(patch); ok {
				return hookCommandIn{text: patch}, nil
			}
		}
		// A host's own file tool (Claude Code's Write, Edit): name it.
		return hookCommandIn{text: strings.TrimSpace(in.ToolName + " " + in.ToolInput.FilePath)}, nil
	}
	var s string
	if json.Unmarshal(cmd, &s) == nil {
		return hookCommandIn{text: s}, nil
	}
	var argv []string
	if err := json.Unmarshal(cmd, &argv); err != nil {
		return hookCommandIn{}, fmt.Errorf("--hook-input: tool_input.command is neither a string nor a list of strings")
	}
	// ["bash", "-lc", "sed -i … app.py"]: the script is the command.
	if len(argv) == 3 && (argv[1] == "-c" || argv[1] == "-lc") {
		return hookCommandIn{text: argv[2], args: argv}, nil
	}
	return hookCommandIn{text: strings.Join(argv, " "), args: argv}, nil
}

// hookOrigin completes origin with the model a hook's input names (its
// top-level "model", which Codex's hooks send; Claude Code's do not), when
// --model or GIT_EDIT_MODEL did not give one. It returns a reader of the
// same input for the message. A model that cannot be one trailer is left
// out: the change matters more than who made it.
func hookOrigin(origin session.Origin, stdin io.Reader) (session.Origin, io.Reader) {
	data, err := io.ReadAll(io.LimitReader(stdin, ops.MaxArgsBytes))
	if err != nil {
		return origin, io.MultiReader(bytes.NewReader(data), stdin)
	}
	var in struct {
		Model string `json:"model"`
	}
	if origin.Model == "" && json.Unmarshal(data, &in) == nil && in.Model != "" {
		if session.ValidateOrigin(session.Origin{Model: in.Model}) == nil {
			origin.Model = in.Model
		}
	}
	return origin, bytes.NewReader(data)
}
