package ops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-edit/git-edit/ops/dialect"
	"github.com/git-edit/git-edit/ops/text"
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/git-edit/git-edit/undo"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// workspace is the engine's dialect.Workspace for one call of one tool: it
// confines paths, finds the repository that owns each, reads and changes
// files through the session, and words the refusals of the layers below
// for the agent, naming the tool.
//
// In a dry run (dry) it changes nothing: Change and Undo plan under the
// lock as they would, then answer with what they would do (Outcome.Commit
// is dryRunCommit when files would change), and MarkSeen records nothing.
// rec, when set, collects what the call's operations did (or would do).
type workspace struct {
	e    *Engine
	tool string
	dry  bool
	rec  *callRecord
}

var _ dialect.Workspace = workspace{}

// Check confines arg (see Engine.locate).
func (w workspace) Check(arg string) error {
	_, _, err := w.locate(arg)
	return err
}

// Read returns the file at arg as it is on disk, decoded (see
// dialect.File.Content). A file in an encoding its attributes declare but
// git-edit cannot read it in is refused (dialect.ErrEncoding).
func (w workspace) Read(arg string) (dialect.File, error) {
	e, p, err := w.locate(arg)
	if err != nil {
		return dialect.File{}, explain(w.tool, arg, err)
	}
	f, err := repo.ReadWorkFile(p, e.Session.MaxFileSize)
	if err != nil {
		return dialect.File{}, explain(w.tool, arg, err)
	}
	name, attr, err := e.Session.DeclaredEncoding(p.Rel)
	if err != nil {
		return dialect.File{}, explain(w.tool, arg, err)
	}
	txt, _, err := fileText(arg, f.Content, name, attr)
	if err != nil {
		return dialect.File{}, err
	}
	return dialect.File{Arg: arg, ID: p.Rel, Abs: p.Abs, Exists: f.Exists, Content: txt}, nil
}

// decoded is the text of a file that is not UTF-8 as a plan saw it.
type decoded struct {
	text []byte
	enc  text.Encoding
}

// textOf is the text a dialect sees of content when no encoding is
// declared for it, and its encoding: content itself for every file
// without a UTF-16 byte order mark (a two-byte check, no copy), else
// content decoded to UTF-8 (text.DecodeText). A UTF-16 file that cannot
// be decoded is left as its bytes: the dialect's dialect.CheckText
// refuses it, naming what is broken, and a whole rewrite (text_editor
// write) may still replace it, as a binary file.
func textOf(content []byte) ([]byte, text.Encoding) {
	txt, enc, err := text.DecodeText(content)
	if err != nil {
		return content, text.UTF8
	}
	return txt, enc
}

// fileText is the text a dialect sees of content, the file named arg,
// whose attribute attr declares the encoding name ("" when none does),
// and the encoding its changes are written back in: textOf when none is
// declared, else content decoded from the declared encoding
// (text.DecodeAs). An encoding git-edit does not know, or content that is
// not text in it, is a refusal wrapping dialect.ErrEncoding: every tool
// refuses the file, as `git add` refuses a file that is not in its
// working-tree-encoding, rather than read or write it as bytes.
func fileText(arg string, content []byte, name, attr string) ([]byte, text.Encoding, error) {
	if name == "" {
		txt, enc := textOf(content)
		return txt, enc, nil
	}
	declared, err := text.LookupEncoding(name)
	if err != nil {
		return nil, text.UTF8, fmt.Errorf("%w: %s has %s=%s in its git attributes, an encoding git-edit does not know (%w); nothing was read or changed. Name it in .gitattributes as IANA or the WHATWG Encoding Standard does (windows-1251, ISO-8859-1, Shift_JIS, UTF-16LE)", dialect.ErrEncoding, arg, attr, name, err)
	}
	txt, enc, err := text.DecodeAs(content, declared)
	if err != nil {
		return nil, enc, fmt.Errorf("%w: %s is declared %s (%s=%s in its git attributes), but %w; git-edit reads and writes it only in that encoding, and nothing was read or changed. Correct the file's bytes or its attribute", dialect.ErrEncoding, arg, name, attr, name, err)
	}
	return txt, enc, nil
}

// MarkSeen records a view or read of arg. The record is advisory: if it
// cannot be written, the worst case is that an edit asks the agent to read
// again. content is the text the agent saw: for a UTF-16 file the decoded
// text, whose blob id seen accepts as well as the file's own.
func (w workspace) MarkSeen(arg string, content []byte) {
	if w.dry {
		return
	}
	if e, p, err := w.locate(arg); err == nil {
		_ = e.Session.RecordSeen(p.Rel, repo.BlobHash(content))
	}
}

// Change locates every path of req (all in one repository, or
// ErrManyRepositories), then applies req.Plan's changes in one session
// operation recorded with Edit-Tool req.Tool; a path changed on disk since
// the session recorded it is first recorded as a sync commit.
func (w workspace) Change(ctx context.Context, req dialect.ChangeRequest) (dialect.Outcome, error) {
	e, paths, err := w.locateAll(req.Paths)
	if err != nil {
		return dialect.Outcome{}, err
	}
	var texts map[string]decoded // the last attempt's, for the outcome
	out, err := w.apply(ctx, e, paths, session.RecordOutside, func(tx *session.Tx) (session.Plan, error) {
		files := make([]dialect.File, len(paths))
		// Files not in UTF-8 by ID: the plan sees their text, and its
		// changes are encoded back. nil (no allocation) when there is none.
		texts = nil
		for i, p := range paths {
			cur := tx.Files[p.Rel]
			name, attr, err := tx.DeclaredEncoding(p.Rel)
			if err != nil {
				return session.Plan{}, &session.PathError{Path: p.Rel, Err: err}
			}
			txt, enc, err := fileText(req.Paths[i], cur.Content, name, attr)
			if err != nil {
				return session.Plan{}, err
			}
			var dec []byte
			if enc != text.UTF8 {
				if texts == nil {
					texts = map[string]decoded{}
				}
				texts[p.Rel], dec = decoded{text: txt, enc: enc}, txt
			}
			files[i] = dialect.File{Arg: req.Paths[i], ID: p.Rel, Abs: p.Abs, Exists: cur.Exists, Content: txt}
			if req.CheckSeen && cur.Exists {
				files[i].Seen, files[i].SeenErr = e.seen(cur, dec)
			}
		}
		planned, err := req.Plan(files)
		if err != nil {
			return session.Plan{}, err
		}
		plan := session.Plan{Subject: planned.Subject, Meta: session.Meta{Op: session.OpEdit, Tool: req.Tool, Matched: planned.Matched}}
		for _, c := range planned.Changes {
			if c.Delete {
				if err := w.refuseLinkDelete(req.Paths, paths, c.ID); err != nil {
					return session.Plan{}, err
				}
			}
			rc, err := sessionChange(tx, c, texts)
			if err != nil {
				return session.Plan{}, err
			}
			plan.Changes = append(plan.Changes, rc)
		}
		return plan, nil
	})
	if err != nil {
		return dialect.Outcome{}, w.e.timedOut(w.tool, explain(w.tool, naming(req.Paths, paths, err), err))
	}
	return outcome(out, req.Paths, paths, texts), nil
}

// apply runs one operation in e, the engine of the repository that owns
// its paths (see Engine.apply), or, in a dry run, previews it
// (session.Session.Preview); either way the call's record gets what it
// did. A dry run's outcome names dryRunCommit when files would change.
func (w workspace) apply(ctx context.Context, e *Engine, paths []repo.Path, policy session.OutsidePolicy, plan func(*session.Tx) (session.Plan, error)) (session.Outcome, error) {
	if !w.dry {
		out, err := e.apply(ctx, paths, policy, plan)
		if err == nil && !out.Commit.IsZero() {
			w.rec.add(e, out)
		}
		return out, err
	}
	out, err := e.Session.Preview(ctx, paths, policy, plan)
	if err == nil {
		w.rec.add(e, out)
	}
	return out, err
}

// naming is how a refusal err of an operation on args (located as paths)
// names its file: the argument of the path that was refused
// (session.PathError), else the argument, or the distinct arguments joined
// when there are several.
func naming(args []string, paths []repo.Path, err error) string {
	if pe, ok := errors.AsType[*session.PathError](err); ok {
		for i, p := range paths {
			if p.Rel == pe.Path {
				return args[i]
			}
		}
	}
	var distinct []string
	for _, a := range args {
		if !slices.Contains(distinct, a) {
			distinct = append(distinct, a)
		}
	}
	return strings.Join(distinct, ", ")
}

// refuseLinkDelete refuses to delete the file id when an argument names it
// through a symlink in its last component (a Delete, or the source of a
// move): the agent named the link, and deleting the file it points to
// would remove a file the call never named and leave the link dangling.
// A symlinked directory on the way is fine: the file there is the one
// named.
func (w workspace) refuseLinkDelete(args []string, paths []repo.Path, id string) error {
	for i, p := range paths {
		if p.Rel != id {
			continue
		}
		if w.isLink(args[i]) || w.isLinkTo(args[i], id) {
			return fmt.Errorf("%w: %s is a symlink (to %s); %s deletes and moves files, not links, and would remove %s instead: name %s itself if it should go, or remove the link with git rm; nothing was changed", repo.ErrPathRefused, args[i], id, w.tool, id, id)
		}
	}
	return nil
}

// isLink reports whether the path named (relative to the engine's
// directory, or absolute) is a symlink in its last component.
func (w workspace) isLink(named string) bool {
	if !filepath.IsAbs(named) {
		named = filepath.Join(w.e.Dir, named)
	}
	fi, err := os.Lstat(named)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// isLinkTo reports whether arg's shell-unescaped reading (which locate
// may have used, see workspace.locate) is a symlink to the file id: that
// link is what the agent named.
func (w workspace) isLinkTo(arg, id string) bool {
	alt, ok := shellUnescape(arg)
	if !ok || !w.isLink(alt) {
		return false
	}
	_, p, err := w.e.locate(alt)
	return err == nil && p.Rel == id
}

// locateAll locates every path argument and checks that one repository
// owns them all: one commit cannot span two.
func (w workspace) locateAll(args []string) (*Engine, []repo.Path, error) {
	var owner *Engine
	paths := make([]repo.Path, len(args))
	for i, arg := range args {
		e, p, err := w.locate(arg)
		if err != nil {
			return nil, nil, explain(w.tool, arg, err)
		}
		if owner != nil && owner != e {
			return nil, nil, fmt.Errorf("%w: %s and %s are in different repositories (a submodule and its parent); send the changes of each repository as a separate call", dialect.ErrManyRepositories, args[0], arg)
		}
		owner, paths[i] = e, p
	}
	if owner == nil {
		owner = w.e
	}
	return owner, paths, nil
}

// seen is the read-before-edit state of cur (git config edit.requireRead);
// SeenNever with the error when the session's record cannot be read. text
// is cur's decoded text when it is a UTF-16 file (nil otherwise): a view
// records the text the agent saw (MarkSeen), an edit the bytes it wrote
// (Engine.apply), and either is the current file.
func (e *Engine) seen(cur repo.FileState, text []byte) (dialect.Seen, error) {
	if !e.RequireRead {
		return dialect.SeenNotRequired, nil
	}
	blob := cur.Blob
	if blob.IsZero() {
		blob = repo.BlobHash(cur.Content)
	}
	last, ok, err := e.Session.LastSeen(cur.Path)
	switch {
	case err != nil:
		return dialect.SeenNever, err
	case !ok:
		return dialect.SeenNever, nil
	case last == blob, text != nil && last == repo.BlobHash(text):
		return dialect.SeenCurrent, nil
	}
	return dialect.SeenStale, nil
}

// sessionChange turns a dialect's change into the session's: spans are
// applied to the file's current content here, so every dialect's spans
// take the same path. texts are the UTF-16 files of the operation as the
// plan saw them (see textOf): spans apply to that text, and the result,
// or a whole content, is written back in the file's encoding; a new file
// takes the encoding and the mode of the file it is Like.
func sessionChange(tx *session.Tx, c dialect.Change, texts map[string]decoded) (session.Change, error) {
	cur, ok := tx.Files[c.ID]
	if !ok {
		return session.Change{}, fmt.Errorf("%w: a change names %q, which the operation did not ask for", text.ErrBadEdit, c.ID)
	}
	txt, enc := cur.Content, text.UTF8
	if d, ok := texts[c.ID]; ok {
		txt, enc = d.text, d.enc
	}
	var content []byte
	var like repo.FileState // the file a new one is Like (a move's source)
	switch {
	case c.Delete:
		return session.Change{Path: c.ID, Delete: true}, nil
	case c.Whole:
		content = c.Content
		if !cur.Exists && c.Like != "" {
			like = tx.Files[c.Like]
			// The encoding its own path declares, else its source's.
			if d, ok := texts[c.Like]; ok && enc == text.UTF8 {
				enc = d.enc
			}
		}
	default:
		var err error
		if content, err = text.ApplyEdits(txt, c.Edits); err != nil {
			return session.Change{}, err
		}
	}
	if enc != text.UTF8 {
		encoded, err := text.EncodeText(content, enc)
		if err != nil {
			return session.Change{}, fmt.Errorf("%w: the new content of %s cannot be written back as %s: %w; nothing was changed", text.ErrBadEdit, c.ID, enc, err)
		}
		content = encoded
	}
	if !like.Exists {
		return session.Change{Path: c.ID, Content: content}, nil
	}
	// A moved file keeps its mode, as `git mv` keeps the index entry's
	// (and `git add` then keeps it where git ignores the disk's: a link
	// kept as a plain file, core.fileMode false). A link's text is where
	// it points: a move may not change it, as an edit may not.
	if like.Mode == filemode.Symlink && !bytes.Equal(content, like.Content) {
		return session.Change{}, &session.LinkFileError{Path: like.Path, Target: like.Content}
	}
	return session.Change{Path: c.ID, Content: content, Mode: like.Mode}, nil
}

// outcome is the dialect's view of what Apply did: each file decoded as
// the plan saw it (texts, see Change; textOf for the files not there).
func outcome(out session.Outcome, args []string, paths []repo.Path, texts map[string]decoded) dialect.Outcome {
	argOf, absOf := map[string]string{}, map[string]string{}
	for i := len(paths) - 1; i >= 0; i-- {
		argOf[paths[i].Rel], absOf[paths[i].Rel] = args[i], paths[i].Abs
	}
	res := dialect.Outcome{Before: map[string]dialect.File{}, After: map[string]dialect.File{}}
	if !out.Commit.IsZero() {
		res.Commit = out.Commit.String()
	} else if len(out.After) > 0 {
		res.Commit = dryRunCommit // a preview: Apply commits whenever a file changes
	}
	shown := func(rel string, content []byte) []byte {
		if d, ok := texts[rel]; ok {
			if txt, _, err := text.DecodeAs(content, d.enc); err == nil {
				return txt
			}
		}
		txt, _ := textOf(content)
		return txt
	}
	for rel, f := range out.Before {
		res.Before[rel] = dialect.File{Arg: argOf[rel], ID: rel, Abs: absOf[rel], Exists: f.Exists, Content: shown(rel, f.Content)}
	}
	for rel, f := range out.After {
		res.After[rel] = dialect.File{Arg: argOf[rel], ID: rel, Abs: absOf[rel], Exists: f.Exists, Content: shown(rel, f.Content)}
	}
	return res
}

// Undo reverts the last edit of the recorded file at arg (a symlink there
// is not followed; see locateRecorded).
func (w workspace) Undo(ctx context.Context, arg, tool string) (dialect.Undone, error) {
	e, p, err := w.locateRecorded(arg)
	if err != nil {
		return dialect.Undone{}, err
	}
	var target undo.Target
	// The person's bytes are recorded first and kept: the undo is
	// selective (undo.PlanSelective).
	out, err := w.apply(ctx, e, []repo.Path{p}, session.RecordOutside, func(tx *session.Tx) (session.Plan, error) {
		pl, t, err := undo.PlanUndo(tx, e.Session, p.Rel, e.UndoDepth, tool)
		target = t
		return pl, err
	})
	if err != nil {
		if errors.Is(err, undo.ErrNothingToUndo) {
			err = e.othersHold(err, arg, p.Rel)
		}
		return dialect.Undone{}, w.e.timedOut(w.tool, explain(w.tool, arg, e.replaced("undo_edit", []repo.Path{p}, err)))
	}
	res := outcome(out, []string{arg}, []repo.Path{p}, e.declaredTexts(p.Rel))
	return dialect.Undone{
		Commit: res.Commit,
		What:   fmt.Sprintf("%s (%s)", target.Meta.Tool, target.Commit.String()[:12]),
		Before: res.Before[p.Rel],
		After:  res.After[p.Rel],
	}, nil
}

// declaredTexts is the encoding rel's attributes declare, as outcome
// takes it, for a result outside Change (nil when none is, or it cannot
// be read: the result then shows bytes as textOf does).
func (e *Engine) declaredTexts(rel string) map[string]decoded {
	name, _, err := e.Session.DeclaredEncoding(rel)
	if err != nil || name == "" {
		return nil
	}
	enc, err := text.LookupEncoding(name)
	if err != nil || enc == text.UTF8 {
		return nil
	}
	return map[string]decoded{rel: {enc: enc}}
}

// explain turns a refusal from the layers below into a message that names
// the path as the caller gave it and says what to do next. Refusals that
// already do (refused paths, ErrReplaced) and the dialects' own pass
// unchanged. The worded error still wraps err, and the dialect sentinel of
// its kind.
func explain(tool, arg string, err error) error {
	var outside *session.OutsideChangeError
	var conflict *undo.ConflictError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &conflict):
		c := conflict.Conflicts[0]
		if len(c.Lines) == 0 {
			return worded(err, nil, "the last edit of %s (%s) cannot be undone: the file is %s; nothing was undone. View the file and edit it directly instead",
				arg, c.Target.String()[:12], c.Reason)
		}
		return worded(err, nil, "the last edit of %s (%s) cannot be undone: the lines it changed were changed again since (%s of the file as it is now), and undo keeps later changes; nothing was undone. View the file and change those lines directly instead",
			arg, c.Target.String()[:12], strings.TrimPrefix(c.String(), c.Path+" "))
	case errors.Is(err, repo.ErrIsDirectory):
		// Before refused paths: the worktree's top directory is both.
		return worded(err, dialect.ErrIsDirectory, "path is a directory: %s; %s works on files: give the path of a file", arg, tool)
	case errors.Is(err, ErrReplaced), errors.Is(err, repo.ErrPathRefused):
		return err
	case errors.As(err, &outside):
		diff := Unified(outside.Disk.Path, outside.Recorded, outside.Disk)
		return worded(err, nil, "%s was changed outside git-edit since its last recorded edit, and undo would overwrite that change; nothing was undone. View the file and edit it directly instead. The change on disk:\n%s", arg, strings.TrimRight(diff, "\n"))
	case errors.Is(err, repo.ErrNotRegular):
		return worded(err, nil, "%v; only regular files can be viewed or edited", err)
	case errors.Is(err, repo.ErrReadOnly):
		return worded(err, dialect.ErrPermission, "permission denied: %s is read-only; make it writable (chmod u+w) if it should be edited", arg)
	case errors.Is(err, repo.ErrPermission):
		return worded(err, dialect.ErrPermission, "permission denied: %s; fix its permissions or pick another file (%v)", arg, err)
	}
	return err
}

// wordedError is a refusal reworded for the agent; it still wraps the
// original error and, when set, the dialect sentinel of its kind.
type wordedError struct {
	msg  string
	errs []error
}

func (w *wordedError) Error() string   { return w.msg }
func (w *wordedError) Unwrap() []error { return w.errs }

func worded(err, kind error, format string, args ...any) error {
	w := &wordedError{msg: fmt.Sprintf(format, args...), errs: []error{err}}
	if kind != nil {
		w.errs = append(w.errs, kind)
	}
	return w
}

// Workspace is the workspace a call of tool runs against: what the
// registered tools see, for embedders that run a dialect of their own and
// for the contract tests.
func (e *Engine) Workspace(tool string) dialect.Workspace { return workspace{e: e, tool: tool} }
