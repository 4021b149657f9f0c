package session

import (
	"context"

	"github.com/git-edit/git-edit/repo"
	"github.com/go-git/go-git/v5/plumbing"
)

// Reader reads paths as the session's commits record them, in the bytes an
// undo, redo or rollback writes back. It converts through one
// repo.Conversions: what decides conversions (config, attribute files) is
// read once for all the paths it reads, and git's conversions end with the
// context it was made with. Make one per operation (a person may change
// the attribute files between operations); a transaction has its own
// (Tx.Reader). Not safe for concurrent use.
type Reader struct {
	s    *Session
	conv *repo.Conversions // nil: no conversion applies to any path
}

// Reader returns a reader of the session's recorded files whose conversions
// (smudge filters, git-lfs) end when ctx does. Outside a transaction, for
// reads that write nothing back; inside one use Tx.Reader. Errors wrap
// repo.ErrBadConfig for an unreadable config or attribute file.
func (s *Session) Reader(ctx context.Context) (*Reader, error) {
	if conversionsOff {
		return &Reader{s: s}, nil
	}
	conv, err := s.Repo.Conversions()
	if err != nil {
		return nil, err
	}
	return &Reader{s: s, conv: conv.WithContext(ctx)}, nil
}

// Reader is the transaction's reader of recorded files: it shares the
// transaction's conversions, bound to the context of Apply, so that a smudge
// filter that never ends is stopped at the call's deadline and the lock
// released, and the attribute files are read once per attempt.
func (tx *Tx) Reader() *Reader { return &Reader{s: tx.s, conv: tx.conv} }

// FileAt returns path as commit h records it, in the bytes an undo, redo
// or rollback writes back: for a file git converts, what `git checkout`
// writes for the blob, or the blob itself where the session recorded it
// unconverted (Edit-Raw). It does not exist when h is zero (before the
// first commit of an unborn branch) or has no such path. It fails when h
// or a blob it names cannot be read, or the conversion fails (wrapping
// repo.ErrConversion, and the context's error when it ended first).
func (f *Reader) FileAt(h plumbing.Hash, path string) (repo.FileState, error) {
	tree, err := f.s.Repo.TreeOf(h)
	if err != nil {
		return repo.FileState{}, err
	}
	e, err := f.s.Repo.EntryAt(tree, path)
	if err != nil || !e.Exists() {
		return repo.FileState{Path: path}, err
	}
	fs, _, err := f.s.worktreeForm(f.conv, h, path, e)
	return fs, err
}

// IdentCollapsed is content, bytes of path in worktree form, with each
// ident expansion collapsed (see repo.Conversions.IdentCollapsed): the
// form in which versions of path recorded by different commits compare
// and merge, since each expansion names its own commit's blob.
func (f *Reader) IdentCollapsed(path string, content []byte) ([]byte, error) {
	if f.conv == nil {
		return content, nil
	}
	return f.conv.IdentCollapsed(path, content)
}

// IdentExpanded is content, bytes of path in worktree form with ident
// keywords collapsed, as `git checkout` would write it (see
// repo.Conversions.IdentExpanded): for a merge of collapsed forms.
func (f *Reader) IdentExpanded(path string, content []byte) ([]byte, error) {
	if f.conv == nil {
		return content, nil
	}
	return f.conv.IdentExpanded(path, content)
}
