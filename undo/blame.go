package undo

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"golang.org/x/sync/errgroup"
)

// Refusals of Blame and BlameStat, for callers to branch on.
var (
	// ErrNoSuchFile: the path names no file to blame (missing from the
	// worktree or from the revision, a directory, a symlink, outside the
	// repository).
	ErrNoSuchFile = errors.New("no file to blame")
	// ErrUnknownRev: the revision names no commit.
	ErrUnknownRev = errors.New("unknown revision")
	// ErrUnknownSession: a session asked for has no ref.
	ErrUnknownSession = errors.New("no such session")
)

// LineOrigin says who wrote one line of the blamed content.
type LineOrigin struct {
	Line int    // 1-based line number in the blamed content
	Text string // the line without its line ending
	// Agent: written by an agent edit (Edit-Op edit or record) of a
	// session.
	Agent bool
	// Session is the session, when Agent, or the session of the sync
	// commit named in Commit for a person line git-edit recorded but the
	// person has not committed.
	Session string
	// Commit is the agent's edit commit; for a person line the HEAD
	// history commit git blame names, else the sync commit that recorded
	// it, else zero (not committed anywhere yet).
	Commit plumbing.Hash
	// Op, Tool, Turn and Model are the trailers of a session commit
	// (Edit-Op, Edit-Tool, Edit-Turn, Edit-Model; "" if absent), empty for
	// a person line from the HEAD history.
	Op, Tool, Turn, Model string
	// Author is the commit's author name for a person line from the HEAD
	// history; "" otherwise.
	Author string
	// Time is the commit's time (the author time for a HEAD history
	// commit, the commit time for a session commit); zero when the line is
	// not committed anywhere.
	Time time.Time
	// origLine and origPath are, for a person line from the HEAD history,
	// its line number and the file's path in Commit (git blame's
	// porcelain says them), where a git-ai note of Commit attests it
	// (FromNotes).
	origLine int
	origPath string
}

// Blame attributes every line of path's content: the working file when
// rev is "", else the file at rev (any revision git names a commit by).
// path is relative to the worktree top, slash-separated (a repo.Path's
// Rel). sessions names the sessions to consider; none: every session.
//
// git's own blame does the line tracking: per session whose history
// touched path, one `git blame --porcelain` of a commit holding the
// content whose history is the session's changes of path (see
// sessionBlame), and one of the content against the HEAD history (or
// rev's) for the person's lines. A line an edit or record of a session
// wrote is the agent's; where several sessions claim a line, the newest
// commit wins (ties: the session whose name sorts first). Every other
// line is the person's: the HEAD history commit git names, else the
// oldest session sync commit that recorded it, else not committed. The
// objects blame makes up live in a temporary directory, never in the
// repository; git-edit's history index of a session may be written, as
// any history read writes it. A session whose history is missing
// (session.ErrBroken) is left out, unless named.
//
// Refusals wrap ErrNoSuchFile, ErrUnknownRev or ErrUnknownSession.
func Blame(ctx context.Context, r *repo.Repo, path, rev string, sessions []string) ([]LineOrigin, error) {
	q, err := newQuarantine(r)
	if err != nil {
		return nil, err
	}
	defer q.remove()
	var revHash plumbing.Hash
	if rev != "" {
		if revHash, err = resolveRev(ctx, q, rev); err != nil {
			return nil, err
		}
	}
	return blameIn(ctx, q, path, revHash, sessions)
}

// pickSessions is the sessions named (each must have a ref), or every
// session with a ref when none is named: own ones, then fetched ones.
func pickSessions(r *repo.Repo, names []string) ([]*session.Session, error) {
	all, err := session.All(r)
	if err != nil {
		return nil, err
	}
	// Then the sessions fetched from others: a reviewer's clone blames
	// their lines too. Own sessions come first, so that a line of an
	// own session that was pushed and fetched back is attributed to the
	// own session, not to its copy.
	fetched, err := session.Fetched(r)
	if err != nil {
		return nil, err
	}
	all = append(all, fetched...)
	if len(names) == 0 {
		return all, nil
	}
	byName := map[string]*session.Session{}
	for _, s := range all {
		byName[s.Name] = s
	}
	var out []*session.Session
	for _, n := range names {
		if err := session.ValidateReadName(n); err != nil {
			return nil, err
		}
		s := byName[n]
		if s == nil {
			return nil, fmt.Errorf("%w %q: there is no ref %s; `git edit sessions` lists the sessions", ErrUnknownSession, n, session.RefName(n))
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out, nil
}

// resolveSpan reads spec as BlameStat and AttributeCommits take it: A..B
// (either side empty: HEAD, as git reads it) gives from = A and to = B with
// isRange set; REV ("" is HEAD) gives to = REV and from zero. A symmetric
// difference (A...B) is refused with ErrUnknownRev.
func resolveSpan(ctx context.Context, q *quarantine, spec string) (from, to plumbing.Hash, isRange bool, err error) {
	if strings.Contains(spec, "...") {
		return from, to, false, fmt.Errorf("%w %q: a symmetric difference (A...B) is not a range of commits; give REV or A..B", ErrUnknownRev, spec)
	}
	a, b, isRange := strings.Cut(spec, "..")
	if !isRange {
		if spec == "" {
			spec = "HEAD"
		}
		to, err = resolveRev(ctx, q, spec)
		return from, to, false, err
	}
	if a == "" {
		a = "HEAD"
	}
	if b == "" {
		b = "HEAD"
	}
	if from, err = resolveRev(ctx, q, a); err != nil {
		return from, to, true, err
	}
	to, err = resolveRev(ctx, q, b)
	return from, to, true, err
}

// resolveRev is the commit rev names, as git names it; a rev that git
// could take for an option is refused before git sees it.
func resolveRev(ctx context.Context, q *quarantine, rev string) (plumbing.Hash, error) {
	if rev == "" || strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, "\x00\n") {
		return plumbing.ZeroHash, fmt.Errorf("%w %q: give a commit, such as HEAD, a branch or a commit id", ErrUnknownRev, rev)
	}
	out, err := q.git(ctx, nil, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	id := strings.TrimSpace(string(out))
	if err != nil || !plumbing.IsHash(id) {
		if ctx.Err() != nil {
			return plumbing.ZeroHash, ctx.Err()
		}
		return plumbing.ZeroHash, fmt.Errorf("%w %q: git names no commit by it; give a commit, such as HEAD, a branch or a commit id", ErrUnknownRev, rev)
	}
	return plumbing.NewHash(id), nil
}

// content is what is blamed: its blob (in the form git stores), its
// lines, and for the working file the bytes on disk.
type content struct {
	path  string
	blob  plumbing.Hash
	mode  filemode.FileMode
	lines []string
	disk  []byte // the working file's bytes; nil for a revision's file
	rev   plumbing.Hash
}

// readContent reads path at rev, or the working file (zero rev) and
// stores its clean form (what `git add` would store) in the quarantine.
func readContent(ctx context.Context, q *quarantine, path string, rev plumbing.Hash) (content, error) {
	r := q.r
	c := content{path: path, rev: rev}
	if !rev.IsZero() {
		tree, err := r.TreeOf(rev)
		if err != nil {
			return c, err
		}
		e, err := r.EntryAt(tree, path)
		if err != nil {
			return c, err
		}
		if !e.Exists() || (e.Mode != filemode.Regular && e.Mode != filemode.Executable) {
			return c, fmt.Errorf("%w: %s is not a file in %s; `git ls-tree -r --name-only %s` lists its files", ErrNoSuchFile, path, rev.String()[:7], rev.String()[:7])
		}
		b, err := r.ReadBlob(e.Hash)
		if err != nil {
			return c, err
		}
		c.blob, c.mode, c.lines = e.Hash, e.Mode, splitText(b)
		return c, nil
	}
	p, err := r.ResolveRecorded(r.Top, path)
	if err != nil {
		return c, fmt.Errorf("%w: %w", ErrNoSuchFile, err)
	}
	f, err := repo.ReadWorkFile(p, 1<<62)
	if errors.Is(err, repo.ErrNotRegular) {
		return c, fmt.Errorf("%w: %w; blame a regular file (a link's target by its own path)", ErrNoSuchFile, err)
	}
	if err != nil {
		return c, fmt.Errorf("%w: %w", ErrNoSuchFile, err)
	}
	if !f.Exists {
		return c, fmt.Errorf("%w: %s does not exist in the working tree; give a file's path, or a revision to blame it at", ErrNoSuchFile, path)
	}
	c.disk, c.mode = f.Content, f.Mode
	clean := f.Content
	conv, err := r.Conversions()
	if err != nil {
		return c, err
	}
	applies, err := conv.Applies(path)
	if err != nil {
		return c, err
	}
	if applies {
		// git converts it as `git add` would, writing the blob into the
		// quarantine (a git-lfs clean filter still stores its object in
		// .git/lfs, as git blame of the working file does too).
		out, err := q.git(ctx, f.Content, "hash-object", "-w", "--path="+path, "--stdin")
		if err != nil {
			return c, fmt.Errorf("%w: %s: %w", repo.ErrConversion, path, err)
		}
		id := strings.TrimSpace(string(out))
		if !plumbing.IsHash(id) {
			return c, fmt.Errorf("%w: %s: git hash-object printed %q", repo.ErrConversion, path, id)
		}
		c.blob = plumbing.NewHash(id)
		if clean, err = q.git(ctx, nil, "cat-file", "blob", id); err != nil {
			return c, err
		}
	} else {
		set := newObjset()
		c.blob = set.add(plumbing.BlobObject, clean)
		if err := q.writePack(set); err != nil {
			return c, err
		}
	}
	c.lines = splitText(clean)
	return c, nil
}

// claim is what one session's blame says of one line.
type claim struct {
	session string
	commit  session.Commit
}

// blameIn is Blame of path at rev (zero: the working file) over the
// sessions named (none: all).
func blameIn(ctx context.Context, q *quarantine, path string, rev plumbing.Hash, names []string) ([]LineOrigin, error) {
	strict := len(names) > 0 // a broken session named fails the blame
	// The content and the sessions' tips are read under the edit lock,
	// shared: an edit writes the file before it moves its ref, and a line
	// read between the two would be nobody's.
	// The sessions are listed under it too: a session's first edit
	// writes the file before it makes the ref.
	unlock, err := q.r.LockShared(ctx)
	if err != nil {
		return nil, err
	}
	sessions, err := pickSessions(q.r, names)
	var c content
	if err == nil {
		c, err = readContent(ctx, q, path, rev)
	}
	tips := make([]plumbing.Hash, len(sessions))
	for i, s := range sessions {
		if err != nil {
			break
		}
		tips[i], err = s.Tip()
		if errors.Is(err, session.ErrBroken) && !strict {
			tips[i], err = plumbing.ZeroHash, nil // see below
		}
	}
	unlock()
	if err != nil {
		return nil, err
	}
	n := len(c.lines)
	agent := make([]*claim, n)
	synced := make([]*claim, n)
	var person []blameLine
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(runtime.GOMAXPROCS(0), 2))
	g.Go(func() error {
		lines, err := personBlame(gctx, q, c)
		person = lines
		return err
	})
	for i, s := range sessions {
		g.Go(func() error {
			claims, err := sessionBlame(gctx, q, s, tips[i], c)
			if errors.Is(err, session.ErrBroken) && !strict {
				// One broken session (its history missing, which
				// `git edit sessions` reports) does not hide the
				// others' lines; named, it fails the blame.
				return nil
			}
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			for i, cl := range claims {
				if cl == nil {
					continue
				}
				switch {
				case cl.commit.Meta.Op != session.OpSync:
					if agent[i] == nil || newer(cl, agent[i]) {
						agent[i] = cl
					}
				case synced[i] == nil || older(cl, synced[i]):
					// The oldest sync: where git-edit first saw the
					// person's text (a later session's sync records it
					// again as it found it).
					synced[i] = cl
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	models := map[plumbing.Hash]string{}
	model := func(h plumbing.Hash) string {
		m, ok := models[h]
		if !ok {
			if commit, err := q.r.ReadCommit(h); err == nil {
				m = trailerValue(commit.Message, "Edit-Model")
			}
			models[h] = m
		}
		return m
	}
	out := make([]LineOrigin, n)
	for i := range out {
		o := LineOrigin{Line: i + 1, Text: c.lines[i]}
		var cl *claim
		switch {
		case agent[i] != nil:
			cl = agent[i]
			o.Agent = true
		case person != nil && !person[i].Commit.Hash.IsZero():
			b := person[i].Commit
			o.Commit, o.Author, o.Time = b.Hash, b.Author, b.Time
			o.origLine, o.origPath = person[i].Orig, person[i].Path
		case synced[i] != nil:
			cl = synced[i]
		}
		if cl != nil {
			m := cl.commit.Meta
			o.Session, o.Commit, o.Time = cl.session, cl.commit.Hash, cl.commit.Time
			o.Op, o.Tool, o.Turn, o.Model = m.Op, m.Tool, m.Turn, model(cl.commit.Hash)
		}
		out[i] = o
	}
	return out, nil
}

// newer reports whether a wins over b: the newer commit, else the
// session that sorts first (see sessionFirst).
func newer(a, b *claim) bool {
	if !a.commit.Time.Equal(b.commit.Time) {
		return a.commit.Time.After(b.commit.Time)
	}
	return sessionFirst(a.session, b.session)
}

// older reports whether a wins over b among syncs: the older commit, else
// the session that sorts first (see sessionFirst).
func older(a, b *claim) bool {
	if !a.commit.Time.Equal(b.commit.Time) {
		return a.commit.Time.Before(b.commit.Time)
	}
	return sessionFirst(a.session, b.session)
}

// sessionFirst orders sessions for a tie: own sessions before fetched
// ones (a session pushed and fetched back claims its lines twice, with
// the same commits: they are the own session's), then by name.
func sessionFirst(a, b string) bool {
	if fa, fb := session.IsFetched(a), session.IsFetched(b); fa != fb {
		return fb
	}
	return a < b
}

// trailerValue is the value of the last paragraph's first "key: value"
// line of message; "" if none.
func trailerValue(message, key string) string {
	body := strings.TrimRight(message, "\n")
	i := strings.LastIndex(body, "\n\n")
	if i < 0 {
		return ""
	}
	for _, line := range strings.Split(body[i+2:], "\n") {
		if v, ok := strings.CutPrefix(line, key+": "); ok {
			return v
		}
	}
	return ""
}

// personBlame is git blame of the content against the HEAD history (the
// working file: HEAD, through --contents, so that git converts the bytes
// read, not the file as it is a moment later) or rev's history. nil when
// there is no history to blame against (an unborn branch, a file HEAD
// does not have): every line is then uncommitted.
func personBlame(ctx context.Context, q *quarantine, c content) ([]blameLine, error) {
	var out []byte
	var err error
	if !c.rev.IsZero() {
		out, err = q.git(ctx, nil, blameArgs(c.rev.String(), "--", c.path)...)
	} else {
		head, herr := q.r.ReadRef("HEAD")
		if herr != nil || head.IsZero() {
			return nil, herr
		}
		tree, terr := q.r.TreeOf(head)
		if terr != nil {
			return nil, terr
		}
		if e, eerr := q.r.EntryAt(tree, c.path); eerr != nil || !e.Exists() {
			return nil, eerr
		}
		out, err = q.git(ctx, c.disk, blameArgs("--contents", "-", "--", c.path)...)
	}
	if err != nil {
		return nil, err
	}
	lines, err := parsePorcelain(out)
	if err != nil {
		return nil, err
	}
	if len(lines) != len(c.lines) {
		return nil, fmt.Errorf("%w: %d lines blamed, the file has %d (did it change meanwhile?)", errBlameFormat, len(lines), len(c.lines))
	}
	return lines, nil
}

// sessionBlame is what session s, up to tip, says of each line of c: the
// commit of s that git blame finds wrote it (an edit, record or sync), or
// nil.
//
// git blames a history made up in the quarantine for this one path: a
// root commit holding path as it was before the session first touched it,
// then one commit per commit of s that changed path (its Edit-Prev chain),
// each holding only path, then a commit holding the blamed content. The
// history is the path's, so a blame costs the commits that touched it,
// not the session's length, and each tree is one entry. A commit that
// puts back an earlier state (undo, redo, rollback, reject) is made a
// merge whose first parents are the states it puts back (for an undo of E,
// E's parent; for a redo, the undo's parent; for a rollback to T, T; for a
// rollback to the start and a reject, the state before the session, as
// BeforeSession gives it), its real parent last: git then
// blames the lines it restored on whoever wrote them first, not on the
// restoring commit.
func sessionBlame(ctx context.Context, q *quarantine, s *session.Session, tip plumbing.Hash, c content) ([]*claim, error) {
	if tip.IsZero() {
		return nil, nil
	}
	chain, err := Log(s, tip, 0, []string{c.path})
	if err != nil || len(chain) == 0 {
		return nil, err
	}
	slices.Reverse(chain) // oldest first
	r := q.r
	entryAt := func(h plumbing.Hash) (repo.Entry, error) {
		if h.IsZero() {
			return repo.Entry{}, nil
		}
		tree, err := r.TreeOf(h)
		if err != nil {
			return repo.Entry{}, err
		}
		return r.EntryAt(tree, c.path)
	}
	first := chain[0]
	e, err := entryAt(first.Parent)
	if err != nil {
		return nil, err
	}
	set := newObjset()
	root := set.commit(set.pathTree(c.path, e), nil, first.Time.Add(-time.Second), "before session "+s.Name)
	made := map[plumbing.Hash]plumbing.Hash{} // session commit -> made-up one
	orig := map[plumbing.Hash]session.Commit{}
	// stateAt is the made-up commit holding path as session commit h
	// (or the commit the session started from) records it.
	stateAt := func(h plumbing.Hash) (plumbing.Hash, error) {
		if m, ok := made[h]; ok {
			return m, nil
		}
		if h.IsZero() {
			return root, nil
		}
		if _, ok, err := s.ReadCommit(h); err != nil || !ok {
			return root, err
		}
		last, err := s.LastTouches(h, []string{c.path})
		if err != nil {
			return root, err
		}
		if m, ok := made[last[c.path]]; ok {
			return m, nil
		}
		return root, nil
	}
	// before holds path as it was before the session: what a rollback to
	// "start" and a reject put back (see BeforeSession).
	before := root
	prev := root
	for _, sc := range chain {
		e, err := entryAt(sc.Hash)
		if err != nil {
			return nil, err
		}
		tree := set.pathTree(c.path, e)
		var parents []plumbing.Hash
		add := func(h plumbing.Hash) {
			if h != prev && !slices.Contains(parents, h) {
				parents = append(parents, h)
			}
		}
		switch sc.Meta.Op {
		case session.OpUndo, session.OpRedo:
			for _, x := range sc.Meta.Reverts() {
				xc, ok, err := s.ReadCommit(x)
				if err != nil {
					return nil, err
				}
				if !ok {
					continue
				}
				st, err := stateAt(xc.Parent)
				if err != nil {
					return nil, err
				}
				add(st)
			}
		case session.OpRollback:
			to := before
			if sc.Meta.RollbackTo != "start" && plumbing.IsHash(sc.Meta.RollbackTo) {
				if to, err = stateAt(plumbing.NewHash(sc.Meta.RollbackTo)); err != nil {
					return nil, err
				}
			}
			add(to)
		case opReject:
			add(before)
		}
		parents = append(parents, prev)
		m := set.commit(tree, parents, sc.Time, sc.Hash.String())
		made[sc.Hash], orig[m] = m, sc
		prev = m
		if sc.Hash == first.Hash && first.Meta.Op == session.OpSync {
			before = m
		}
	}
	tree := set.pathTree(c.path, repo.Entry{Hash: c.blob, Mode: c.mode})
	final := set.commit(tree, []plumbing.Hash{prev}, chain[len(chain)-1].Time.Add(time.Second), "blamed content")
	if err := q.writePack(set); err != nil {
		return nil, err
	}
	out, err := q.git(ctx, nil, blameArgs(final.String(), "--", c.path)...)
	if err != nil {
		return nil, fmt.Errorf("blame %s in session %s: %w", c.path, s.Name, err)
	}
	lines, err := parsePorcelain(out)
	if err != nil {
		return nil, err
	}
	if len(lines) != len(c.lines) {
		return nil, fmt.Errorf("%w: %d lines blamed, the file has %d", errBlameFormat, len(lines), len(c.lines))
	}
	claims := make([]*claim, len(lines))
	byCommit := map[plumbing.Hash]*claim{}
	for i, l := range lines {
		sc, ok := orig[l.Commit.Hash]
		if !ok || !(agentOp(sc.Meta.Op) || sc.Meta.Op == session.OpSync) {
			continue // before the session, or not in it
		}
		cl := byCommit[sc.Hash]
		if cl == nil {
			cl = &claim{session: s.Name, commit: sc}
			byCommit[sc.Hash] = cl
		}
		claims[i] = cl
	}
	return claims, nil
}

// opReject is the op of a commit that rejects hunks of a session's change
// (git edit reject, review): the lines it puts back are the state before
// the session.
const opReject = "reject"

// agentOp reports the ops whose lines are the agent's: an edit, and
// changes record took as the session's. Not session.IsChange, which also
// counts what undo reverts (a reject is a change undo reverts, but the
// person's).
func agentOp(op string) bool { return op == session.OpEdit || op == session.OpRecord }
