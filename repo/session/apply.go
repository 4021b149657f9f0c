package session

import (
	"context"
	"errors"
	"fmt"
	"github.com/git-edit/git-edit/diffview"
	"strings"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Change is the new state of one path: new content and mode, or removal.
type Change struct {
	Path    string // as in repo.FileState.Path
	Delete  bool
	Content []byte
	// Mode of the new content; zero keeps the file's current mode
	// (filemode.Regular for a new file).
	Mode filemode.FileMode
	// LeaveOut: the change returns the path to a state in which a sparse
	// checkout left it out of the worktree (an undo or rollback to before
	// a commit naming it in Edit-Sparse-Before). The commit records the
	// content; the disk is left without the file while the index still
	// marks it skip-worktree (see sparseDisk).
	LeaveOut bool
}

// Plan is what an operation decided, under the lock: the changes and how the
// commit describes itself. Session, Paths and Prev of Meta are filled in by
// Apply.
type Plan struct {
	Changes []Change
	Subject string
	Meta    Meta
}

// Tx is what a planner sees while Apply holds the lock.
type Tx struct {
	// Tip is the session ref's commit before this operation (zero: the
	// session has no commits yet); Base is HEAD, the parent a session's
	// first commit gets (zero on an unborn branch).
	Tip, Base plumbing.Hash
	// Files are the requested paths as they are on disk now, each with the
	// mode `git add` would record for it (see recordedView): with
	// core.fileMode false that is the recorded mode, not the disk's, and
	// with core.symlinks false a link kept as a plain file has
	// filemode.Symlink.
	Files map[string]repo.FileState
	// Outside lists the requested paths whose disk state differs from the
	// session's record of them (the tip, or HEAD before the first commit).
	// For a path git converts, the record is compared in the bytes the
	// session would write back for it (see worktreeForm): a file as `git
	// checkout` wrote it is unchanged.
	Outside []string

	// conv decides and performs conversions for this attempt; converted
	// marks the paths one applies to.
	conv      *repo.Conversions
	converted map[string]bool
	// rawBefore marks the paths the session has not touched yet that are
	// on disk as the recorded blob unconverted (see keptUnconverted): not
	// outside changes; the operation's commit names them in
	// Edit-Raw-Before.
	rawBefore map[string]bool
	// sparse marks the paths a sparse checkout leaves out of the worktree
	// (see withoutSkipped); the commit names those it changes in
	// Edit-Sparse-Before.
	sparse map[string]bool
	s      *Session
	// ctx is the operation's: what a planner runs (git merge-file for a
	// selective undo) ends when it does.
	ctx context.Context
}

// Context is the operation's context: work a planner starts (a git
// process) must end when it does, so that the lock is not held past the
// call's deadline.
func (tx *Tx) Context() context.Context { return tx.ctx }

// LeftOut reports whether the sparse checkout leaves path out of the
// worktree: absent on disk, skip-worktree in the index, and so taken to be
// as the session records it at Head, not deleted (Files has it absent).
func (tx *Tx) LeftOut(path string) bool { return tx.sparse[path] }

// Head is the commit the session's record starts from: the tip, or the base
// when the session has no commits yet.
func (tx *Tx) Head() plumbing.Hash {
	if tx.Tip.IsZero() {
		return tx.Base
	}
	return tx.Tip
}

// OutsidePolicy says what Apply does with paths changed outside git-edit.
type OutsidePolicy int

const (
	// RecordOutside first commits the disk bytes as a sync commit, so the
	// operation's own commit holds only its change (edits do this).
	RecordOutside OutsidePolicy = iota
	// RefuseOutside fails with *OutsideChangeError (undo, rollback without
	// --force: they would overwrite what a person wrote).
	RefuseOutside
)

// OutsideChangeError is returned under RefuseOutside: path differs on disk
// from the session's last record of it.
type OutsideChangeError struct {
	Recorded, Disk repo.FileState
}

func (e *OutsideChangeError) Error() string {
	return fmt.Sprintf("%s was changed outside git-edit since the session last recorded it", e.Disk.Path)
}

// PathError refuses one of Apply's paths before any planning: it cannot be
// read as a file, or it is read-only. Path (as in repo.FileState.Path)
// says which, so that a caller of an operation on several paths can name
// it; the text is Err's.
type PathError struct {
	Path string
	Err  error
}

func (e *PathError) Error() string { return e.Err.Error() }
func (e *PathError) Unwrap() error { return e.Err }

// Outcome is what Apply did.
type Outcome struct {
	// Commit is the operation's commit; zero when the plan changed no byte
	// (then nothing was written or recorded, not even a sync commit).
	Commit plumbing.Hash
	// Sync is the sync commit recorded before Commit, if one was needed.
	Sync plumbing.Hash
	// Before and After hold the changed paths' states around the operation.
	Before, After map[string]repo.FileState
}

// maxWriteAttempts bounds how often Apply starts over when another program
// writes a file while the operation runs (see repo.ErrFileChanged).
const maxWriteAttempts = 3

// Apply runs one operation on the session, all or nothing. Under the edit
// lock it reads the paths from disk, compares them with the session's
// record, lets plan decide the changes, then stores the objects (one pack,
// kept from `git gc` until the ref names it), writes the files atomically
// and moves the ref with git's lock protocol. Paths changed outside
// git-edit are recorded first as a sync commit (RecordOutside) or refused
// (RefuseOutside). If writing a file or moving the ref fails, files already
// written get their old bytes back; an error from plan changes nothing.
// Changes may only name the paths given.
//
// When another program writes one of the files between Apply's read and
// its write (repo.ErrFileChanged), nothing is written and the operation starts
// over from the read, so the other program's bytes are recorded (under
// RecordOutside) or refused (under RefuseOutside, *OutsideChangeError) and
// kept either way; plan may therefore run more than once. After
// maxWriteAttempts the error is returned.
func (s *Session) Apply(ctx context.Context, paths []repo.Path, policy OutsidePolicy, plan func(*Tx) (Plan, error)) (Outcome, error) {
	unlock, err := s.Repo.Lock(ctx)
	if err != nil {
		return Outcome{}, err
	}
	defer unlock()
	repo.Pause("locked", "")
	for attempt := 1; ; attempt++ {
		out, err := s.applyOnce(ctx, paths, policy, plan, false)
		// Start over only when everything was put back: after a failed
		// restore, the disk holds bytes of this attempt that a new one
		// would take for a person's.
		if !errors.Is(err, repo.ErrFileChanged) || errors.Is(err, repo.ErrRestoreFailed) || attempt == maxWriteAttempts {
			return out, err
		}
	}
}

// Preview is Apply without effects, for a dry run: under the edit lock,
// shared (repo.Repo.LockShared, which creates no lock file), it reads the paths, refuses as Apply refuses (a path it cannot read or
// write, an outside change under RefuseOutside, the plan's own errors),
// and returns the Outcome Apply would return, with Commit and Sync zero.
// It stores no object, writes no file and moves no ref; nothing a later
// Apply reads is changed.
func (s *Session) Preview(ctx context.Context, paths []repo.Path, policy OutsidePolicy, plan func(*Tx) (Plan, error)) (Outcome, error) {
	unlock, err := s.Repo.LockShared(ctx)
	if err != nil {
		return Outcome{}, err
	}
	defer unlock()
	return s.applyOnce(ctx, paths, policy, plan, true)
}

// applyOnce is one attempt of Apply (dry: of Preview), under the edit
// lock.
func (s *Session) applyOnce(ctx context.Context, paths []repo.Path, policy OutsidePolicy, plan func(*Tx) (Plan, error), dry bool) (Outcome, error) {
	// Refused first, a fetched copy or from another worktree: nothing
	// read, nothing written.
	if err := s.checkWritable(); err != nil {
		return Outcome{}, err
	}
	if err := s.checkOwner(!dry); err != nil {
		return Outcome{}, err
	}
	tx, recorded, err := s.begin(ctx, paths, true)
	if err != nil {
		return Outcome{}, err
	}
	if policy == RefuseOutside && len(tx.Outside) > 0 {
		p := tx.Outside[0]
		rec, _, err := s.worktreeForm(tx.conv, tx.Head(), p, recorded[p])
		if err != nil {
			return Outcome{}, err
		}
		return Outcome{}, &OutsideChangeError{Recorded: rec, Disk: tx.Files[p]}
	}
	pl, err := plan(tx)
	if err != nil {
		return Outcome{}, err
	}
	changes, err := s.effective(tx, pl.Changes)
	if err != nil || len(changes) == 0 {
		return Outcome{}, err
	}
	if err := ctx.Err(); err != nil {
		return Outcome{}, err
	}
	if dry {
		return preview(tx, changes), nil
	}

	batch := s.Repo.BeginBatch()
	defer batch.End()
	now := time.Now()
	out := Outcome{Before: map[string]repo.FileState{}, After: map[string]repo.FileState{}}
	parent := tx.Head()
	prev, err := s.LastTouches(tx.Tip, append(changedPaths(changes), tx.Outside...))
	if err != nil {
		return Outcome{}, err
	}
	sync := map[string]repo.Entry{}
	if len(tx.Outside) > 0 {
		var raw []string
		if sync, raw, err = s.storeDisk(tx, tx.Outside); err != nil {
			return Outcome{}, err
		}
		meta := Meta{Op: OpSync, Session: s.Name, Paths: tx.Outside, Prev: prev, Raw: raw}
		if meta.Stat, err = s.lineStats(tx.Outside, recorded, sync, tx.Files); err != nil {
			return Outcome{}, err
		}
		subject := s.syncSubject(tx.Outside, sync)
		if out.Sync, err = s.commit(parent, sync, meta, subject, "", now); err != nil {
			return Outcome{}, err
		}
		for _, p := range tx.Outside {
			prev[p] = out.Sync
		}
		parent = out.Sync
	}
	entries := map[string]repo.Entry{}
	var touched, raw []string
	for _, c := range changes {
		out.Before[c.Path] = tx.Files[c.Path]
		after := repo.FileState{Path: c.Path, Exists: !c.Delete, Content: c.Content, Mode: c.Mode}
		if after.Exists {
			after.Blob = repo.BlobHash(c.Content) // the one hash of the new bytes
			blob, isRaw, err := s.storeContent(tx, c.Path, c.Content, after.Blob)
			if err != nil {
				return Outcome{}, err
			}
			if isRaw {
				raw = append(raw, c.Path)
			}
			entries[c.Path] = repo.Entry{Hash: blob, Mode: c.Mode}
			// after.Blob stays the id of the bytes on disk (read
			// records compare with it), which differs from the recorded
			// blob where a conversion applies.
		} else {
			after.Content, after.Mode = nil, 0
			entries[c.Path] = repo.Entry{}
		}
		out.After[c.Path] = after
		touched = append(touched, c.Path)
	}
	meta := pl.Meta
	meta.Session, meta.Paths, meta.Prev, meta.Raw = s.Name, touched, prev, raw
	if IsChange(meta.Op) && meta.Turn == "" {
		meta.Turn = TurnOf(ctx)
	}
	if IsChange(meta.Op) && meta.Model == "" && meta.Agent == "" {
		o := OriginOf(ctx)
		meta.Model, meta.Agent = o.Model, o.Agent
	}
	meta.RawBefore, meta.SparseBefore = nil, nil
	for _, p := range touched {
		if tx.rawBefore[p] {
			meta.RawBefore = append(meta.RawBefore, p)
		}
		if tx.sparse[p] {
			meta.SparseBefore = append(meta.SparseBefore, p)
		}
	}
	// The parent records each path as the sync commit did, else as the
	// session's record read by begin.
	parentEntries := map[string]repo.Entry{}
	for _, p := range touched {
		e, synced := sync[p]
		if !synced {
			e = recorded[p]
		}
		parentEntries[p] = e
	}
	if meta.Stat, err = s.lineStats(touched, parentEntries, entries, tx.Files, out.After); err != nil {
		return Outcome{}, err
	}
	subject := pl.Subject
	if subject == "" {
		subject = fmt.Sprintf("%s: %s", meta.Tool, describePaths(touched))
	}
	if out.Commit, err = s.commit(parent, entries, meta, subject, "", now); err != nil {
		return Outcome{}, err
	}
	if err := batch.Flush(); err != nil {
		return Outcome{}, err
	}
	repo.CrashPoint("objects-written")
	repo.Pause("objects-written", "")
	// What the disk gets may differ from what is recorded only outside a
	// sparse checkout's cone (see sparseDisk).
	co, err := s.Repo.Checkout()
	if err != nil {
		return Outcome{}, err
	}
	recordedChanges := changes
	if changes, err = s.sparseDisk(co, tx, changes); err != nil {
		return Outcome{}, err
	}
	onDisk := map[string]bool{}
	for _, c := range changes {
		onDisk[c.Path] = !c.Delete
	}
	for _, c := range recordedChanges {
		if !c.Delete && !onDisk[c.Path] {
			out.After[c.Path] = repo.FileState{Path: c.Path} // left out of the worktree
		}
	}
	made, err := s.writeFiles(paths, changes, tx.Files, out.After)
	if err != nil {
		return Outcome{}, err
	}
	repo.CrashPoint("files-written")
	repo.Pause("files-written", "")
	if err := s.Repo.UpdateRef(s.Ref(), tx.Tip, out.Commit, subject); err != nil {
		// The reflog may name the commit already, and a failure after
		// the ref's rename leaves the ref moved: from here on the pack
		// stays (as an ordinary one).
		batch.Release()
		if cur, rerr := s.Repo.ReadRef(s.Ref()); rerr == nil && cur == out.Commit {
			s.wrote(tx.Tip)
			return out, nil // the update happened; only a later step failed
		}
		if rerr := s.restoreFiles(paths, changes, tx.Files, out.After, made); rerr != nil {
			return Outcome{}, fmt.Errorf("%w; and %w: %w", err, repo.ErrRestoreFailed, rerr)
		}
		return Outcome{}, err
	}
	// The ref names the objects now: the pack no longer needs its keep.
	batch.Release()
	s.wrote(tx.Tip)
	return out, nil
}

// preview is the Outcome of changes as Apply reports it, without a commit.
func preview(tx *Tx, changes []Change) Outcome {
	out := Outcome{Before: map[string]repo.FileState{}, After: map[string]repo.FileState{}}
	for _, c := range changes {
		out.Before[c.Path] = tx.Files[c.Path]
		after := repo.FileState{Path: c.Path, Exists: !c.Delete, Content: c.Content, Mode: c.Mode}
		if c.Delete {
			after.Content, after.Mode = nil, 0
		} else {
			after.Blob = repo.BlobHash(c.Content)
		}
		out.After[c.Path] = after
	}
	return out
}

// conversionsOff makes begin skip reading what decides conversions, as
// before they existed: the benchmark's baseline (see export_test.go).
var conversionsOff bool

// begin reads the session's state and the paths' disk state under the lock.
// recorded holds each path's entry in the session's record. write says the
// operation may write the paths: a read-only file is then refused.
func (s *Session) begin(ctx context.Context, paths []repo.Path, write bool) (*Tx, map[string]repo.Entry, error) {
	tip, err := s.Tip()
	if err != nil {
		return nil, nil, err
	}
	base, err := s.Repo.ReadRef("HEAD")
	if err != nil {
		return nil, nil, err
	}
	var conv *repo.Conversions
	if !conversionsOff {
		if conv, err = s.Repo.Conversions(); err != nil {
			return nil, nil, err
		}
		conv.WithContext(ctx)
	}
	tx := &Tx{Tip: tip, Base: base, Files: map[string]repo.FileState{}, conv: conv, converted: map[string]bool{}, rawBefore: map[string]bool{}, s: s, ctx: ctx}
	tree, err := s.Repo.TreeOf(tx.Head())
	if err != nil {
		return nil, nil, err
	}
	co, err := s.Repo.Checkout()
	if err != nil {
		return nil, nil, err
	}
	recorded := map[string]repo.Entry{}
	for _, p := range paths {
		if _, dup := tx.Files[p.Rel]; dup {
			continue
		}
		// Blob: hashed here, once, or known from this process's record of
		// the file (see repo.ReadWorkFileHashed); passed along from here.
		f, err := repo.ReadWorkFileHashed(p, s.MaxFileSize)
		if err != nil {
			return nil, nil, &PathError{Path: p.Rel, Err: err}
		}
		if f.Exists && write {
			// Refused before any planning: every path given to Apply is one
			// the operation may write.
			if err := f.CheckWritable(); err != nil {
				return nil, nil, &PathError{Path: p.Rel, Err: err}
			}
		}
		e, err := s.Repo.EntryAt(tree, p.Rel)
		if err != nil {
			return nil, nil, err
		}
		f = recordedView(co, f, e)
		tx.Files[p.Rel] = f
		recorded[p.Rel] = e
		converted := false
		if conv != nil {
			if converted, err = conv.Applies(p.Rel); err != nil {
				return nil, nil, err
			}
		}
		if !converted {
			if e != f.Entry() {
				tx.Outside = append(tx.Outside, p.Rel)
			}
			continue
		}
		tx.converted[p.Rel] = true
		rec, _, err := s.worktreeForm(conv, tx.Head(), p.Rel, e)
		if err != nil {
			return nil, nil, err
		}
		same := rec.Exists == f.Exists && (!f.Exists || rec.Mode == f.Mode)
		if same && f.Exists {
			// As git status compares: an older id in an ident expansion
			// is no change.
			if same, err = conv.SameCheckout(p.Rel, rec.Content, f.Content); err != nil {
				return nil, nil, err
			}
		}
		if same {
			continue
		}
		kept, err := s.keptUnconvertedFirstTouch(tx, p.Rel, f, e)
		if err != nil {
			return nil, nil, err
		}
		if kept {
			tx.rawBefore[p.Rel] = true
			continue
		}
		tx.Outside = append(tx.Outside, p.Rel)
	}
	if tx.Outside, tx.sparse, err = s.withoutSkipped(co, tx.Outside, tx.Files, recorded); err != nil {
		return nil, nil, err
	}
	return tx, recorded, nil
}

// effective checks the plan's changes, fills in modes, and drops those that
// would leave a file exactly as it is on disk.
func (s *Session) effective(tx *Tx, changes []Change) ([]Change, error) {
	var out []Change
	seen := map[string]bool{}
	for _, c := range changes {
		cur, ok := tx.Files[c.Path]
		if !ok || seen[c.Path] {
			return nil, fmt.Errorf("internal error: plan changes %q, which was not locked or is changed twice", c.Path)
		}
		seen[c.Path] = true
		if c.Delete {
			if !cur.Exists {
				continue
			}
		} else {
			if err := refuseLinkEdit(cur, c); err != nil {
				return nil, err
			}
			if c.Mode == 0 {
				c.Mode = cur.Mode
				if !cur.Exists {
					c.Mode = filemode.Regular
				}
			}
			if cur.Exists && cur.Mode == c.Mode && string(cur.Content) == string(c.Content) {
				continue
			}
		}
		out = append(out, c)
	}
	return out, nil
}

func changedPaths(changes []Change) []string {
	paths := make([]string, len(changes))
	for i, c := range changes {
		paths[i] = c.Path
	}
	return paths
}

// lastTouchesWalk is LastTouches without the index: it walks back along
// first parents until every path is found or the session's first commit is
// passed.
func (s *Session) lastTouchesWalk(tip plumbing.Hash, paths []string) (map[string]plumbing.Hash, error) {
	want := map[string]bool{}
	for _, p := range paths {
		want[p] = true
	}
	found := map[string]plumbing.Hash{}
	for c := tip; !c.IsZero() && len(found) < len(want); {
		commit, err := s.Repo.ReadCommit(c)
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return nil, &BrokenError{Session: s.Name, Commit: c, Tip: c == tip}
		}
		if err != nil {
			return nil, err
		}
		meta, ok := ParseMeta(commit.Message)
		if !ok || meta.Session != s.RecordedName() {
			break
		}
		for _, p := range meta.Paths {
			if _, done := found[p]; want[p] && !done {
				found[p] = c
			}
		}
		if len(commit.ParentHashes) == 0 {
			break
		}
		c = commit.ParentHashes[0]
	}
	return found, nil
}

// lineStats counts, with s.LineStat, the lines each path's change adds and
// removes between the blobs before and after as stored (nil without
// LineStat). known holds bytes whose blob id is known (FileState.Blob),
// which spares reading the blob back: with no conversion, the blob stored
// is the bytes on disk.
func (s *Session) lineStats(paths []string, before, after map[string]repo.Entry, known ...map[string]repo.FileState) (map[string]LineCount, error) {
	if s.LineStat == nil {
		return nil, nil
	}
	stored := func(e repo.Entry, p string) ([]byte, error) {
		if !e.Exists() {
			return nil, nil
		}
		for _, m := range known {
			if k := m[p]; k.Exists && !k.Blob.IsZero() && k.Blob == e.Hash {
				return k.Content, nil
			}
		}
		return s.Repo.ReadBlob(e.Hash)
	}
	out := make(map[string]LineCount, len(paths))
	for _, p := range paths {
		b, err := stored(before[p], p)
		if err != nil {
			return nil, err
		}
		a, err := stored(after[p], p)
		if err != nil {
			return nil, err
		}
		var c LineCount
		c.Added, c.Removed = s.LineStat(b, a)
		out[p] = c
	}
	return out, nil
}

// storeDisk stores the disk state of paths (read by begin) as the
// session records it: the blob `git add` would make, or the bytes as they
// are where converting would not give them back (raw, for Edit-Raw). A
// missing file is the zero entry.
func (s *Session) storeDisk(tx *Tx, paths []string) (entries map[string]repo.Entry, raw []string, err error) {
	entries = make(map[string]repo.Entry, len(paths))
	for _, p := range paths {
		f := tx.Files[p]
		if !f.Exists {
			entries[p] = repo.Entry{}
			continue
		}
		blob, isRaw, err := s.storeContent(tx, p, f.Content, f.HashedBlob())
		if err != nil {
			return nil, nil, err
		}
		if isRaw {
			raw = append(raw, p)
		}
		entries[p] = repo.Entry{Hash: blob, Mode: f.Mode}
	}
	return entries, raw, nil
}

// commit stores parent's tree with entries replaced, and a commit of it
// whose message is subject, body (if any) and meta's trailers, with its
// position and counts (Edit-Seq) taken from parent's.
func (s *Session) commit(parent plumbing.Hash, entries map[string]repo.Entry, meta Meta, subject, body string, now time.Time) (plumbing.Hash, error) {
	var err error
	if meta.Seq, meta.Edits, err = s.countAfter(parent, meta.Op); err != nil {
		return plumbing.ZeroHash, err
	}
	meta.Counted = true
	tree, err := s.Repo.TreeOf(parent)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if tree, err = s.Repo.EditTree(tree, entries); err != nil {
		if tc, ok := errors.AsType[*repo.TreeConflictError](err); ok {
			// The path that cannot be recorded as it is: the caller
			// refuses it by name, or (record) leaves it out.
			return plumbing.ZeroHash, &PathError{Path: tc.Path, Err: err}
		}
		return plumbing.ZeroHash, err
	}
	return s.Repo.StoreCommit(tree, parent, meta.MessageWithBody(subject, body), now)
}

// countAfter is the Edit-Seq of a commit of op whose parent is parent:
// read from the parent's trailer (one commit), never from the history
// index, which may be wrong. A parent written before the trailer existed
// is counted by walking back to the session's first commit, or to a
// commit that has it: once per session, since its next commit has it.
func (s *Session) countAfter(parent plumbing.Hash, op string) (seq, edits int, err error) {
	change := 0
	if IsChange(op) {
		change = 1
	}
	for h := parent; !h.IsZero(); {
		c, ok, err := s.ReadCommit(h)
		if err != nil {
			return 0, 0, err
		}
		if !ok {
			break // the session's base
		}
		if c.Meta.Counted {
			return seq + c.Meta.Seq + 1, edits + c.Meta.Edits + change, nil
		}
		seq++
		if IsChange(c.Meta.Op) {
			edits++
		}
		h = c.Parent
	}
	return seq, edits + change, nil
}

// writeFiles puts every change on disk; before holds what was read, which
// each file must still hold when it is replaced (see repo.ReplaceFile), and
// after the new states, whose Blob is the new bytes' id. It returns the
// directories it created for new files. If a write fails, the files
// already written, and the failing one if it was replaced before its
// failure, get their old bytes back, and the directories made for them
// are removed.
func (s *Session) writeFiles(paths []repo.Path, changes []Change, before, after map[string]repo.FileState) (made []string, err error) {
	byRel := pathsByRel(paths)
	co, err := s.Repo.Checkout()
	if err != nil {
		return nil, err
	}
	written := map[string]repo.FileState{}
	for i, c := range changes {
		var replaced bool
		var err error
		if c.Delete {
			replaced, err = repo.RemoveFile(byRel[c.Path], before[c.Path])
			written[c.Path] = repo.FileState{}
		} else {
			// The disk gets what git checkout writes for the recorded mode.
			mode := co.DiskMode(c.Mode, before[c.Path])
			var dirs []string
			replaced, dirs, err = repo.ReplaceFileMaking(byRel[c.Path], c.Content, mode, after[c.Path].Blob, before[c.Path])
			made = append(made, dirs...)
			written[c.Path] = repo.FileState{Exists: true, Content: c.Content, Mode: mode}
		}
		if err != nil {
			done := changes[:i]
			if replaced {
				done = changes[:i+1]
			}
			if rerr := s.restoreFiles(paths, done, before, written, made); rerr != nil {
				return nil, fmt.Errorf("%w; and %w: %w", err, repo.ErrRestoreFailed, rerr)
			}
			return nil, err
		}
	}
	return made, nil
}

// restoreFiles puts the given paths back as they were before (bits and
// owner too); written holds what this operation put there, which each file
// must still hold. Then the directories made (made by writeFiles) are
// removed where they are empty again.
func (s *Session) restoreFiles(paths []repo.Path, changes []Change, before, written map[string]repo.FileState, made []string) error {
	byRel := pathsByRel(paths)
	var errs []error
	for _, c := range changes {
		errs = append(errs, repo.RestoreFile(byRel[c.Path], before[c.Path], written[c.Path]))
	}
	if len(made) > 0 && len(paths) > 0 {
		errs = append(errs, repo.RemoveDirs(paths[0], made))
	}
	return errors.Join(errs...)
}

func pathsByRel(paths []repo.Path) map[string]repo.Path {
	m := make(map[string]repo.Path, len(paths))
	for _, p := range paths {
		m[p.Rel] = p
	}
	return m
}

// describePaths names paths for a subject line, shortening long lists,
// each quoted as git quotes a path (diffview.QuotePath): a file name an
// agent made may hold ESC or CR, which must not reach the terminal of a
// person reading git log or git edit show.
func describePaths(paths []string) string {
	n := min(len(paths), 3)
	quoted := make([]string, n)
	for i, p := range paths[:n] {
		quoted[i] = diffview.QuotePath(p)
	}
	if len(paths) <= 3 {
		return strings.Join(quoted, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(quoted, ", "), len(paths)-3)
}
