package session

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/git-edit/git-edit/repo"
	"github.com/go-git/go-git/v5/plumbing"
)

// Ops recorded in the Edit-Op trailer.
const (
	OpEdit     = "edit"     // a dialect changed files
	OpSync     = "sync"     // bytes found on disk, recorded before an operation
	OpUndo     = "undo"     // reverts an earlier commit's change to some paths
	OpRedo     = "redo"     // reverts an undo
	OpRollback = "rollback" // returns paths to an earlier state of the session
	// OpRecord records changes made on disk by something else the agent
	// ran (a shell command, a formatter) as the session's own: undo
	// reverts it like an edit, where it stops at a sync.
	OpRecord = "record"
	// OpCheckpoint marks the session's state at a moment, under a name
	// (Edit-Checkpoint): a commit that changes no path, so that undo,
	// overlaps and the history index pass it by as they pass a commit of
	// no path; rollback --to returns to it.
	OpCheckpoint = "checkpoint"
	// OpReject takes chosen hunks of the session's net change back out
	// of the files (`git edit reject`, `git edit review`), naming each in
	// an Edit-Rejects trailer: a change like an edit, which undo reverts.
	OpReject = "reject"
)

// IsChange reports whether op is a change the session made (an edit, or
// changes it recorded as its own): what undo reverts and undo depth
// counts.
func IsChange(op string) bool { return op == OpEdit || op == OpRecord || op == OpReject }

// Rejected is one hunk a reject took back (Edit-Rejects: <path> <hunk
// header>): the path and the hunk's "@@ -l,s +l,s @@" header in the
// session's net change it was taken from.
type Rejected struct {
	Path, Hunk string
}

// Meta is what a session commit says about itself, in trailers at the end of
// its message:
//
//	Edit-Op: edit
//	Edit-Tool: text_editor.str_replace
//	Edit-Session: default
//	Edit-Path: src/main.go
//	Edit-Prev: <commit> src/main.go
//	Edit-Undoes: <commit>
//	Edit-Rollback-To: <commit>|start
//	Edit-Raw: src/mixed.txt
//	Edit-Raw-Before: src/lf.txt
//	Edit-Sparse-Before: docs/guide.md
//	Edit-Stat: 3 1 src/main.go
//	Edit-Turn: 7
//	Edit-Model: claude-sonnet-4-5
//	Edit-Agent: claude-code 2.1.3
//	Edit-Checkpoint: before-refactor
//	Edit-Match: indentation: a missing leading space on 3 lines
//	Edit-Seq: 12 9
//	Edit-Rejects: src/main.go @@ -3,2 +3,4 @@
//
// Edit-Path names every path the commit changed. Edit-Prev names, per path,
// the previous commit of the session that changed it (absent on a session's
// first touch of a path), so history questions about one path follow that
// chain instead of walking every commit. Edit-Undoes names the commit an
// undo or redo reverses (one trailer each when an undo reverts several
// together); Edit-Rollback-To the commit a rollback returns to
// ("start": the state before the session). Edit-Raw names each path whose
// blob in this commit holds the bytes on disk as they are, not as `git add`
// would convert them: the file is one git converts (see repo.Conversions),
// but converting those bytes and back does not give them again (mixed line
// endings under core.autocrlf, a filter that is not a round trip), so the
// session keeps them unconverted, and writes them back as they are.
// Edit-Raw-Before names each path that the commit is the session's first
// touch of and that was on disk, before it, as the parent's blob itself,
// unconverted, where `git checkout` would convert it: a file checked out
// before core.autocrlf or a filter was set (git status calls it unchanged,
// since its clean form is the blob). Undo and rollback write the blob back
// as it is, not converted, so the bytes on disk come back exactly, and no
// sync commit is needed to record them. Edit-Seq gives the commit's
// position in its session (0: the first) and how many of the commits up
// to it, itself included, are changes (IsChange): what the history index
// says of a commit's position and of the counts is checked against it, so
// that a wrong index costs a walk, never a wrong answer. Edit-Sparse-Before
// names each path that, before the commit, a sparse checkout left out of
// the worktree (absent on disk, skip-worktree in the index, so as
// recorded): an undo or rollback that returns it to that state leaves it
// out again instead of writing it (see Change.LeaveOut).
type Meta struct {
	Op         string
	Tool       string
	Session    string
	Paths      []string
	Prev       map[string]plumbing.Hash
	Undoes     plumbing.Hash
	RollbackTo string
	Raw        []string
	RawBefore  []string
	// SparseBefore: Edit-Sparse-Before.
	SparseBefore []string
	// Stat holds, per path, the lines the commit added and removed in it
	// (Edit-Stat: <added> <removed> <path>), counted at edit time from
	// the blobs as stored, so that logs read them instead of diffing;
	// absent for commits written before the trailer existed.
	Stat map[string]LineCount
	// AlsoUndoes are the further commits one undo reverts together (an
	// undo of several edits in one commit), each in an Edit-Undoes
	// trailer of its own after Undoes'.
	AlsoUndoes []plumbing.Hash
	// Turn is the turn (one prompt of the person and the agent's work on
	// it) the commit belongs to, as the agent's host named it
	// (Edit-Turn); "" when none was given. Edits and records carry it.
	Turn string
	// Model is the model that made the change, as the host or agent
	// named it (Edit-Model), and Agent the agent program that ran it,
	// "<name> <version>" (Edit-Agent); "" when not given. Edits and
	// records carry them (see WithOrigin).
	Model, Agent string
	// Checkpoint is a checkpoint commit's name (Edit-Checkpoint); "" for
	// an unnamed checkpoint and for every other commit.
	Checkpoint string
	// Seq and Edits are the Edit-Seq trailer: the commit's position in the
	// session (0: its first commit), and the number of changes (IsChange)
	// among the commits 0..Seq. Counted is false for a commit written
	// before the trailer existed; Session.commit fills all three in.
	Seq, Edits int
	Counted    bool
	// Matched says, per place an edit's text was matched at other than
	// byte for byte, which stage of the matching ladder matched and what
	// it forgave (Edit-Match: "indentation: a missing leading space on 3
	// lines"), so that `git log` shows what git-edit forgave the agent.
	Matched []string
	// Rejects are the hunks a reject took back, one Edit-Rejects trailer
	// each, in order.
	Rejects []Rejected

	// paths holds Paths as a set, for Touches, when ParseMeta read many
	// (a record after a formatter names thousands, and callers ask of
	// each of them).
	paths map[string]bool
}

// manyPaths is how many paths make ParseMeta build Meta.paths: below it a
// scan is as quick.
const manyPaths = 32

// Reverts lists every commit an undo or redo reverses: Undoes, then
// AlsoUndoes.
func (m Meta) Reverts() []plumbing.Hash {
	if m.Undoes.IsZero() {
		return nil
	}
	return append([]plumbing.Hash{m.Undoes}, m.AlsoUndoes...)
}

// LineCount is what a commit did to one path's lines.
type LineCount struct{ Added, Removed int }

// IsRaw reports whether the commit records path unconverted (Edit-Raw).
func (m Meta) IsRaw(path string) bool {
	for _, p := range m.Raw {
		if p == path {
			return true
		}
	}
	return false
}

// IsSparseBefore reports whether the commit names path in
// Edit-Sparse-Before: before it, the sparse checkout left path out of the
// worktree.
func (m Meta) IsSparseBefore(path string) bool {
	for _, p := range m.SparseBefore {
		if p == path {
			return true
		}
	}
	return false
}

// IsRawBefore reports whether the commit names path in Edit-Raw-Before:
// before it, path was on disk as its parent's blob, unconverted.
func (m Meta) IsRawBefore(path string) bool {
	for _, p := range m.RawBefore {
		if p == path {
			return true
		}
	}
	return false
}

// Touches reports whether the commit changed path.
func (m Meta) Touches(path string) bool {
	if m.paths != nil {
		return m.paths[path]
	}
	for _, p := range m.Paths {
		if p == path {
			return true
		}
	}
	return false
}

// Bounds of a commit's subject and body, in bytes. They come from outside
// (a record's -m, the shell command a hook names, which may be megabytes
// of heredoc): the commit, its reflog entry and every log that shows it
// would otherwise carry it whole.
const (
	MaxSubject = 1 << 10
	MaxBody    = 16 << 10
)

// BoundMessage is subject on one line and body without leading or
// trailing newlines, each cut to MaxSubject and MaxBody bytes (at a UTF-8
// boundary), saying how much was cut.
func BoundMessage(subject, body string) (string, string) {
	return clip(repo.OneLine(subject), MaxSubject), clip(strings.Trim(body, "\n"), MaxBody)
}

// clip cuts s to at most max bytes, ending with a note of how many bytes
// were cut.
func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	note := fmt.Sprintf(" [… %d bytes cut]", len(s))
	cut := max - len(note)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf(" [… %d bytes cut]", len(s)-cut)
}

// Message renders the full commit message: subject, blank line, trailers.
func (m Meta) Message(subject string) string { return m.MessageWithBody(subject, "") }

// MessageWithBody renders the full commit message: subject, blank line,
// body (when not empty) and a blank line, trailers. The trailers stay the
// last paragraph, which is where ParseMeta reads them, whatever the body
// holds.
func (m Meta) MessageWithBody(subject, body string) string {
	subject, body = BoundMessage(subject, body)
	var b strings.Builder
	b.WriteString(subjectLine(subject))
	b.WriteString("\n\n")
	if body != "" {
		b.WriteString(body)
		b.WriteString("\n\n")
	}
	fmt.Fprintf(&b, "Edit-Op: %s\n", m.Op)
	if m.Tool != "" {
		fmt.Fprintf(&b, "Edit-Tool: %s\n", m.Tool)
	}
	fmt.Fprintf(&b, "Edit-Session: %s\n", m.Session)
	for _, p := range m.Paths {
		fmt.Fprintf(&b, "Edit-Path: %s\n", quotePath(p))
	}
	for _, p := range m.Paths {
		if prev, ok := m.Prev[p]; ok && !prev.IsZero() {
			fmt.Fprintf(&b, "Edit-Prev: %s %s\n", prev, quotePath(p))
		}
	}
	if !m.Undoes.IsZero() {
		fmt.Fprintf(&b, "Edit-Undoes: %s\n", m.Undoes)
	}
	for _, h := range m.AlsoUndoes {
		fmt.Fprintf(&b, "Edit-Undoes: %s\n", h)
	}
	if m.RollbackTo != "" {
		fmt.Fprintf(&b, "Edit-Rollback-To: %s\n", m.RollbackTo)
	}
	for _, p := range m.Raw {
		fmt.Fprintf(&b, "Edit-Raw: %s\n", quotePath(p))
	}
	for _, p := range m.RawBefore {
		fmt.Fprintf(&b, "Edit-Raw-Before: %s\n", quotePath(p))
	}
	for _, p := range m.SparseBefore {
		fmt.Fprintf(&b, "Edit-Sparse-Before: %s\n", quotePath(p))
	}
	for _, p := range m.Paths {
		if st, ok := m.Stat[p]; ok {
			fmt.Fprintf(&b, "Edit-Stat: %d %d %s\n", st.Added, st.Removed, quotePath(p))
		}
	}
	if m.Turn != "" {
		fmt.Fprintf(&b, "Edit-Turn: %s\n", repo.OneLine(m.Turn))
	}
	if m.Model != "" {
		fmt.Fprintf(&b, "Edit-Model: %s\n", repo.OneLine(m.Model))
	}
	if m.Agent != "" {
		fmt.Fprintf(&b, "Edit-Agent: %s\n", repo.OneLine(m.Agent))
	}
	if m.Checkpoint != "" {
		fmt.Fprintf(&b, "Edit-Checkpoint: %s\n", repo.OneLine(m.Checkpoint))
	}
	for _, how := range m.Matched {
		fmt.Fprintf(&b, "Edit-Match: %s\n", repo.OneLine(how))
	}
	for _, r := range m.Rejects {
		fmt.Fprintf(&b, "Edit-Rejects: %s %s\n", quotePath(r.Path), repo.OneLine(r.Hunk))
	}
	if m.Counted {
		fmt.Fprintf(&b, "Edit-Seq: %d %d\n", m.Seq, m.Edits)
	}
	return b.String()
}

// ParseMeta reads the trailers of a commit message. ok is false when the
// message carries no Edit-Op trailer, i.e. the commit is not a session
// commit (such as the HEAD commit a session starts from).
func ParseMeta(message string) (m Meta, ok bool) {
	// Trailers are the last paragraph; the subject never counts.
	body := strings.TrimRight(message, "\n")
	i := strings.LastIndex(body, "\n\n")
	if i < 0 {
		return m, false
	}
	for _, line := range strings.Split(body[i+2:], "\n") {
		key, val, found := strings.Cut(line, ": ")
		if !found {
			continue
		}
		switch key {
		case "Edit-Op":
			m.Op, ok = val, true
		case "Edit-Tool":
			m.Tool = val
		case "Edit-Session":
			m.Session = val
		case "Edit-Path":
			m.Paths = append(m.Paths, unquotePath(val))
		case "Edit-Prev":
			h, p, _ := strings.Cut(val, " ")
			if plumbing.IsHash(h) {
				if m.Prev == nil {
					m.Prev = map[string]plumbing.Hash{}
				}
				m.Prev[unquotePath(p)] = plumbing.NewHash(h)
			}
		case "Edit-Undoes":
			if !plumbing.IsHash(val) {
				break
			}
			if m.Undoes.IsZero() {
				m.Undoes = plumbing.NewHash(val)
			} else {
				m.AlsoUndoes = append(m.AlsoUndoes, plumbing.NewHash(val))
			}
		case "Edit-Rollback-To":
			m.RollbackTo = val
		case "Edit-Raw":
			m.Raw = append(m.Raw, unquotePath(val))
		case "Edit-Raw-Before":
			m.RawBefore = append(m.RawBefore, unquotePath(val))
		case "Edit-Sparse-Before":
			m.SparseBefore = append(m.SparseBefore, unquotePath(val))
		case "Edit-Turn":
			m.Turn = val
		case "Edit-Model":
			m.Model = val
		case "Edit-Agent":
			m.Agent = val
		case "Edit-Checkpoint":
			m.Checkpoint = val
		case "Edit-Match":
			m.Matched = append(m.Matched, val)
		case "Edit-Rejects":
			// The header starts at the last " @@ -": a quoted path holds
			// no newline, and a header no second "@@ -".
			if i := strings.LastIndex(val, " @@ -"); i > 0 {
				m.Rejects = append(m.Rejects, Rejected{Path: unquotePath(val[:i]), Hunk: val[i+1:]})
			}
		case "Edit-Seq":
			m.Seq, m.Edits, m.Counted = parseSeq(val)
		case "Edit-Stat":
			if p, st, ok := parseStat(val); ok {
				if m.Stat == nil {
					m.Stat = map[string]LineCount{}
				}
				m.Stat[p] = st
			}
		}
	}
	if len(m.Paths) >= manyPaths {
		m.paths = make(map[string]bool, len(m.Paths))
		for _, p := range m.Paths {
			m.paths[p] = true
		}
	}
	// A caller's append must not write into a slice another caller
	// shares (ReadCommit keeps parsed commits).
	m.Paths = m.Paths[:len(m.Paths):len(m.Paths)]
	return m, ok
}

// parseSeq reads "<seq> <edits>"; ok is false for anything else, or for
// counts no session has (more changes than commits).
func parseSeq(val string) (seq, edits int, ok bool) {
	a, b, found := strings.Cut(val, " ")
	seq, err1 := strconv.Atoi(a)
	edits, err2 := strconv.Atoi(b)
	if !found || err1 != nil || err2 != nil || seq < 0 || edits < 0 || edits > seq+1 {
		return 0, 0, false
	}
	return seq, edits, true
}

// size approximates the bytes m holds, for bounding caches of it.
func (m Meta) size() int {
	n := len(m.Op) + len(m.Tool) + len(m.Session) + len(m.RollbackTo) + len(m.Turn) + len(m.Model) + len(m.Agent) + len(m.Checkpoint)
	for _, p := range m.Paths {
		n += 2*len(p) + 64 // the path, its Prev and Stat entries, and the set
	}
	for _, how := range m.Matched {
		n += len(how) + 16
	}
	for _, r := range m.Rejects {
		n += len(r.Path) + len(r.Hunk) + 32
	}
	return n + 64*(len(m.AlsoUndoes)+len(m.Raw)+len(m.RawBefore)+len(m.SparseBefore))
}

// parseStat reads "<added> <removed> <path>".
func parseStat(val string) (string, LineCount, bool) {
	a, rest, ok1 := strings.Cut(val, " ")
	r, p, ok2 := strings.Cut(rest, " ")
	added, err1 := strconv.Atoi(a)
	removed, err2 := strconv.Atoi(r)
	if !ok1 || !ok2 || err1 != nil || err2 != nil || added < 0 || removed < 0 {
		return "", LineCount{}, false
	}
	return unquotePath(p), LineCount{Added: added, Removed: removed}, true
}

// quotePath writes a path as is unless it could not be read back from one
// trailer line; then it is Go-quoted.
func quotePath(p string) string {
	if p == "" || p[0] == '"' || p[0] == ' ' || p[len(p)-1] == ' ' || strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return strconv.Quote(p)
	}
	return p
}

func unquotePath(s string) string {
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}

// subjectLine is subject on one line (repo.OneLine) with every other
// control character written in octal, as git writes it in a quoted path:
// subjects name paths, and a file name an agent made may hold ESC, which
// git log would otherwise send to the person's terminal as it is. The
// paths a subject names are quoted where it is made (describePaths);
// this catches the rest, whoever made the subject.
func subjectLine(subject string) string {
	subject = repo.OneLine(subject)
	if !strings.ContainsFunc(subject, isControl) {
		return subject
	}
	var b strings.Builder
	for _, r := range subject {
		if !isControl(r) {
			b.WriteRune(r)
			continue
		}
		for _, c := range []byte(string(r)) {
			fmt.Fprintf(&b, "\\%03o", c)
		}
	}
	return b.String()
}

// isControl reports the C0 controls, DEL and the C1 controls.
func isControl(r rune) bool { return r < 0x20 || r >= 0x7f && r < 0xa0 }
