// Package dialect is the contract between the engine and the edit-tool
// dialects. A dialect is one package that declares one Tool value: its name,
// description, input schema, how it runs a call, and how its results and
// refusals are shaped. The engine's list of tools, the MCP server,
// `git-edit tools` and every "for each tool" test derive from the list of
// those values (ops.Registry); nothing else names a dialect.
//
// A dialect never touches git or the filesystem: it reads and changes files
// through a Workspace, which package ops implements. Every change a dialect
// makes is a Plan of spans (text.Edit) or whole contents over the files as
// they are under the session's lock, so the engine has one path from plan to
// commit to response.
package dialect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/git-edit/git-edit/ops/text"
)

// Tool registers one tool.
type Tool struct {
	// Name is what agents call the tool by (CLI and MCP).
	Name string
	// Title is a short name for people, which hosts show in their tool
	// lists and confirmations (MCP's title).
	Title string
	// Description is what a model reads about the tool: the seed's,
	// shortened, with git-edit's behaviour where it matters.
	Description string
	// Instructions are the sentences the MCP server tells agents about
	// this tool at initialization (MCP's instructions), each ending in a
	// full stop, or none. A sentence that several tools share is said
	// once, where the first offered tool in the registry's order says it.
	Instructions []string
	// Schema is a JSON Schema (2020-12) of the arguments. It describes;
	// the dialect's own parser stays the judge of what is valid.
	Schema string
	// Run serves one call with its JSON arguments. Every failure is a
	// refused Result in the dialect's shape; Run never panics on input.
	Run func(ctx context.Context, ws Workspace, args []byte) Result
	// Refuse shapes err, a failure from before Run could run (no
	// repository, bad configuration, oversized arguments), as the
	// dialect's refusal.
	Refuse func(err error) Result
	// Succeeded reads a result object (Result.Value marshalled as JSON) as
	// a client of this dialect would, and says whether it reports success.
	// Tests hold every Result's OK to it.
	Succeeded func(obj map[string]any) bool
	// WriteCall returns the arguments of a call that writes text into the
	// existing file at path, which contains old (a tool that replaces text
	// replaces old with text; others insert or overwrite), or is nil for a
	// tool that never writes. Tests that try every writing tool (hostile
	// paths, MCP, fuzzing) take their call from here, so a new dialect is
	// covered without editing them.
	WriteCall func(path, old, text string) map[string]any
	// Destructive says that a call may overwrite or remove what is there,
	// not only add to it (MCP's destructiveHint): every change is still
	// recorded and can be undone. Idempotent says that repeating a call
	// with the same arguments changes nothing more (MCP's idempotentHint).
	// Both describe writing tools; a read-only tool (see ReadOnly) is
	// neither destructive nor anything but idempotent.
	Destructive, Idempotent bool
	// Writes says that the tool changes files or the session's history
	// although it has no WriteCall: the history tools (edit_undo,
	// edit_redo, edit_rollback, edit_checkpoint), which take back or
	// mark what other calls wrote rather than write text of their own.
	Writes bool
}

// ReadOnly says that the tool never changes a file or the session: it has
// no WriteCall and does not declare Writes. Hosts may run such a tool
// without asking (MCP's readOnlyHint).
func (t Tool) ReadOnly() bool { return t.WriteCall == nil && !t.Writes }

// Result is a tool call's answer.
type Result struct {
	// OK is false when the call was refused; nothing was changed then.
	OK bool
	// Value is the dialect's result object, marshalled as JSON for the CLI
	// and as structured content for MCP.
	Value any
	// Text is what an agent reads: the message plus any content or snippet.
	Text string
}

// Refused is a refusal whose text is its JSON value's message.
func Refused(value any, text string) Result { return Result{OK: false, Value: value, Text: text} }

// JSONOK is a success whose text for an agent is the result object itself
// (the seeds whose results are plain objects).
func JSONOK(v any) Result {
	text, _ := json.Marshal(v)
	return Result{OK: true, Value: v, Text: string(text)}
}

// Workspace is what a dialect may do with the files of the session. Path
// arguments are given as the agent gave them; the workspace confines them
// to the root and finds the repository that owns each. Every error it
// returns is already worded for the agent (it names the path as given and
// says what to do next) and wraps the sentinels below where callers branch.
type Workspace interface {
	// Check confines arg without reading it; the error says why the path
	// is refused.
	Check(arg string) error
	// Read returns the file at arg as it is on disk now; Exists is false
	// when there is none. Errors: a refused path, a directory
	// (ErrIsDirectory), not a regular file, unreadable (ErrPermission),
	// over the size limit.
	Read(arg string) (File, error)
	// MarkSeen records that the agent has now seen content as the file at
	// arg (a view or read), for read-before-edit checks. Advisory: it never
	// fails the call.
	MarkSeen(arg string, content []byte)
	// Change runs one recorded operation: under the session's lock the
	// plan sees the files as they are, and its changes are written all or
	// nothing and recorded as one commit. A plan that changes no byte
	// records nothing (Outcome.Commit is ""). Errors are the plan's own,
	// unchanged, or the workspace's (refused paths, a Delete through a
	// symlink, ErrManyRepositories, files changed by another program,
	// write failures); a file that cannot be read or written is named by
	// its argument.
	Change(ctx context.Context, req ChangeRequest) (Outcome, error)
	// Undo reverts the session's last edit of the file at arg (within the
	// configured undo depth) and records the revert as one commit with
	// Edit-Tool tool. It refuses, leaving everything as it was, when
	// nothing can be undone or the file changed outside git-edit since.
	Undo(ctx context.Context, arg, tool string) (Undone, error)
}

// File is one file as a Workspace found it.
type File struct {
	// Arg is the path argument as the agent gave it.
	Arg string
	// ID is the file's path in its repository: two arguments naming the
	// same file have the same ID. Changes and outcomes are keyed by it.
	ID string
	// Abs is the file's absolute path (for results that report it).
	Abs    string
	Exists bool
	// Content is the file's text: its bytes as they are on disk, except
	// that a file in an encoding its git attributes declare
	// (working-tree-encoding, else encoding) is decoded to UTF-8, and so is
	// a well-formed UTF-16 file with a byte order mark (its mark as the
	// UTF-8 BOM, its line endings as they are); changes to either are
	// written back in that encoding, UTF-16 with the same byte order and
	// mark (text.DecodeAs, text.EncodeText). A UTF-16 file that cannot be
	// decoded is left as its bytes, which CheckText refuses; a file not in
	// its declared encoding never reaches a dialect (ErrEncoding).
	Content []byte
	// Seen is the read-before-edit state, filled in when the request asks
	// for it (ChangeRequest.CheckSeen) and the file exists.
	Seen Seen
	// SeenErr is why the session's record of reading the file could not
	// be read (Seen is then SeenNever, so a dialect that ignores it still
	// refuses). It is left to the dialect so that it can check the file
	// itself first.
	SeenErr error
}

// Seen says whether the agent has seen a file's current bytes.
type Seen int

const (
	// SeenNotRequired: not asked for, or the repository does not require
	// reads before edits (git config edit.requireRead false).
	SeenNotRequired Seen = iota
	// SeenCurrent: the session's last view of the file is its current bytes.
	SeenCurrent
	// SeenNever: the session has never seen the file.
	SeenNever
	// SeenStale: the file changed after the session last saw it.
	SeenStale
)

// ChangeRequest is one recorded operation.
type ChangeRequest struct {
	// Tool is the commit's Edit-Tool trailer, e.g. "text_editor.insert".
	Tool string
	// Paths are the path arguments the operation reads or writes, as
	// given. Plan sees them in this order.
	Paths []string
	// CheckSeen fills in File.Seen.
	CheckSeen bool
	// Plan decides the changes from the files as they are now. Its error
	// refuses the operation and is returned by Change unchanged.
	Plan func(files []File) (Plan, error)
}

// Plan is what a dialect decided, under the session's lock.
type Plan struct {
	Changes []Change
	// Subject is the commit's subject line; "" lets the session word it.
	Subject string
	// Matched says, for each place the plan's text was matched other
	// than byte for byte (the match package's ladder), the stage and what
	// it forgave: "indentation: a missing leading space on 3 lines". Each
	// becomes an Edit-Match trailer of the commit.
	Matched []string
}

// Change is the new state of one file, by its File.ID: spans over its
// current content, a whole new content, or removal.
type Change struct {
	ID string
	// Edits are spans over the file's current content, as the plan saw it
	// (File.Content; decoded for a UTF-16 file), applied by text.ApplyEdits.
	Edits []text.Edit
	// Whole, when set, replaces the content with Content (creating the
	// file, and its directories, if it does not exist).
	Whole   bool
	Content []byte
	// Like, on a Whole change to a file that does not exist yet (a move's
	// destination), is the ID of a file of the same request whose text
	// encoding and mode the new file takes, as `git mv` keeps them: a
	// moved UTF-16 file stays UTF-16, an executable stays executable, a
	// link kept as a plain file (core.symlinks false) stays a link, and
	// may then not change its text; "" writes Content as it is, as a
	// regular file.
	Like string
	// Delete removes the file. The workspace refuses it when a path
	// argument names the file through a symlink (the link's last
	// component): it never deletes the file a link points to.
	Delete bool
}

// Outcome is what Change did.
type Outcome struct {
	// Commit is the operation's commit ("" when nothing changed).
	Commit string
	// Before and After are the changed files around the operation, by ID.
	Before, After map[string]File
}

// Undone is what Undo did.
type Undone struct {
	// Commit is the revert's commit ("" when the file was already as it
	// was before the undone edit).
	Commit string
	// What names the undone edit: its tool and abbreviated commit.
	What string
	// Before and After are the file around the revert.
	Before, After File
}

// Sentinels the Workspace's errors wrap, for dialects that word a case
// their own way.
var (
	// ErrFileNotFound: no file where the call needs one (dialects word it).
	ErrFileNotFound = errors.New("file not found")
	ErrIsDirectory  = errors.New("path is a directory")
	ErrPermission   = errors.New("permission denied")
	// ErrManyRepositories: the paths of one operation lie in more than one
	// repository (a submodule and its parent); one commit cannot span them.
	ErrManyRepositories = errors.New("the files are in more than one repository")
)

// ErrEncoding refuses a file whose attributes declare an encoding
// (working-tree-encoding, encoding) that git-edit does not know, or that
// its bytes are not text in: reading or writing it as anything else would
// change bytes the edit did not mean to.
var ErrEncoding = errors.New("file not in its declared encoding")

// ErrBinary refuses to interpret a binary file as text.
var ErrBinary = errors.New("binary file")

// CheckText refuses content that is not text (see text.NotText: NUL
// bytes, or a UTF-16 file the workspace could not decode), naming the file
// as name (the argument as given, or its File.ID) and the reason.
func CheckText(name string, content []byte) error {
	if err := text.NotText(content); err != nil {
		return fmt.Errorf("%w: %s %w, so it is not text; git-edit edits text files only (UTF-8, UTF-16 with a byte order mark, or the encoding its git attributes declare; text_editor write can replace it whole)", ErrBinary, name, err)
	}
	return nil
}

// Names lists the tools' names, sorted.
func Names(tools []Tool) []string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	sort.Strings(names)
	return names
}
