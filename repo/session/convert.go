package session

import (
	"bytes"

	"github.com/git-edit/git-edit/repo"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Files the repository converts between worktree and object store (see
// repo.Conversions) are recorded as `git add` would record them and
// written back as `git checkout` would write them, so that the session's
// diff against HEAD shows only what changed. Byte fidelity comes first:
// bytes that git's conversion does not give back (clean, then smudge) are
// recorded unconverted and named in the commit's Edit-Raw trailer, and
// written back as they are.

// worktreeForm is path as commit h records it, in the bytes the session
// writes back: the blob itself when no conversion applies or the commit
// that last recorded path marked it Edit-Raw, else what `git checkout`
// writes for the blob. converted reports whether a conversion applies (none
// does when conv is nil).
func (s *Session) worktreeForm(conv *repo.Conversions, h plumbing.Hash, path string, e repo.Entry) (f repo.FileState, converted bool, err error) {
	if !e.Exists() {
		return repo.FileState{Path: path}, false, nil
	}
	if conv != nil {
		if converted, err = conv.Applies(path); err != nil {
			return repo.FileState{}, false, err
		}
	}
	if !converted {
		f, err = s.Repo.FileOf(path, e)
		return f, false, err
	}
	raw, err := s.rawAt(h, path, e)
	if err != nil {
		return repo.FileState{}, true, err
	}
	if raw {
		f, err = s.Repo.FileOf(path, e)
		return f, true, err
	}
	b, err := conv.Smudge(path, e.Hash)
	if err != nil {
		return repo.FileState{}, true, err
	}
	return repo.FileState{Path: path, Exists: true, Content: b, Mode: e.Mode}, true, nil
}

// rawAt reports whether path as commit h records it is written back as
// the blob itself, unconverted: when the session's last commit up to h
// that recorded path marked it Edit-Raw, or, where the session had not
// touched path by h, when the session's first touch of it says the disk
// held the blob unconverted before it (Edit-Raw-Before) and h records the
// same entry as that touch's parent.
func (s *Session) rawAt(h plumbing.Hash, path string, e repo.Entry) (bool, error) {
	last, err := s.LastTouches(h, []string{path})
	if err != nil {
		return false, err
	}
	if c, ok := last[path]; ok {
		commit, _, err := s.ReadCommit(c)
		if err != nil {
			return false, err
		}
		return commit.Meta.IsRaw(path), nil
	}
	tip, err := s.Tip()
	if err != nil {
		return false, err
	}
	commit, ok, err := s.FirstTouch(tip, path)
	if err != nil || !ok || !commit.Meta.IsRawBefore(path) {
		return false, err
	}
	tree, err := s.Repo.TreeOf(commit.Parent)
	if err != nil {
		return false, err
	}
	before, err := s.Repo.EntryAt(tree, path)
	return err == nil && before == e, err
}

// keptUnconvertedFirstTouch is keptUnconverted for a path the session has
// not touched up to the transaction's head; a path it touched is compared
// with its own record only.
func (s *Session) keptUnconvertedFirstTouch(tx *Tx, path string, f repo.FileState, e repo.Entry) (bool, error) {
	last, err := s.LastTouches(tx.Head(), []string{path})
	if err != nil || len(last) > 0 {
		return false, err
	}
	return s.keptUnconverted(tx, path, f, e)
}

// keptUnconverted reports whether the disk holds path as the blob e itself
// although `git checkout` would convert it (a file checked out before
// core.autocrlf or a filter was set), and git calls it unchanged: `git
// add` of the bytes stores e. Only asked, at a cost of one git process, of
// a converted path whose disk bytes differ from their checked-out form.
func (s *Session) keptUnconverted(tx *Tx, path string, f repo.FileState, e repo.Entry) (bool, error) {
	if !f.Exists || !e.Exists() || f.Mode != e.Mode || f.Blob != e.Hash {
		return false, nil
	}
	indexCR, err := s.headHasCR(tx, path)
	if err != nil {
		return false, err
	}
	// Only the id is asked: nothing is stored (a dry run asks it too).
	id, err := tx.conv.CleanID(path, f.Content, indexCR)
	if err != nil {
		return false, err
	}
	return id == e.Hash, nil
}

// storeContent stores worktree bytes of path as the blob the session
// records. Without a conversion that is the bytes themselves. With one, it
// is the blob `git add` stores, unless checking that blob out does not give
// the bytes back (up to ident expansions, see repo.Conversions.SameCheckout):
// then the bytes themselves, and raw is true (the commit
// names the path in Edit-Raw). known is content's blob id when the caller
// has it (zero: not known), so that the bytes are not hashed again.
func (s *Session) storeContent(tx *Tx, path string, content []byte, known plumbing.Hash) (blob plumbing.Hash, raw bool, err error) {
	if !tx.converted[path] {
		blob, err = s.Repo.StoreBlobKnown(content, known)
		return blob, false, err
	}
	indexCR, err := s.headHasCR(tx, path)
	if err != nil {
		return plumbing.ZeroHash, false, err
	}
	cl, err := tx.conv.Clean(path, content, indexCR)
	if err != nil {
		return plumbing.ZeroHash, false, err
	}
	back, err := tx.conv.Smudge(path, cl.Blob)
	if err != nil {
		return plumbing.ZeroHash, false, err
	}
	// Equal as a checkout, not byte for byte: an ident expansion holds the
	// id of the blob checked out last, which git rewrites, and `git add`
	// stores it collapsed.
	same, err := tx.conv.SameCheckout(path, back, content)
	if err != nil {
		return plumbing.ZeroHash, false, err
	}
	if !same {
		blob, err = s.Repo.StoreBlobKnown(content, known)
		return blob, true, err
	}
	// Also in the operation's kept pack: git wrote the blob loose, where
	// a concurrent `git gc --prune=now` could remove it before the ref
	// names it.
	blob, err = s.Repo.StoreBlob(cl.Content)
	return blob, false, err
}

// headHasCR reports whether HEAD's blob for path holds a CR, standing for
// the index's blob that `git add` consults (see repo.Conversions.Clean):
// the index of an unstaged file is HEAD's, and the session's own record is
// not an index (it may hold Edit-Raw bytes). Read only where the automatic
// line-ending conversion is the only one.
func (s *Session) headHasCR(tx *Tx, path string) (bool, error) {
	if only, err := tx.conv.OnlyAutoEOL(path); err != nil || !only {
		return false, err
	}
	tree, err := s.Repo.TreeOf(tx.Base)
	if err != nil {
		return false, err
	}
	e, err := s.Repo.EntryAt(tree, path)
	if err != nil || !e.Exists() || e.Mode == filemode.Symlink || e.Mode == filemode.Submodule {
		return false, err
	}
	b, err := s.Repo.ReadBlob(e.Hash)
	if err != nil {
		return false, err
	}
	return bytes.IndexByte(b, '\r') >= 0, nil
}

// DeclaredEncoding returns the character encoding path's attributes
// declare and the attribute that declares it (see
// repo.Conversions.DeclaredEncoding), read from the attribute files as
// this attempt read them. Both are empty where none is declared.
func (tx *Tx) DeclaredEncoding(path string) (name, attr string, err error) {
	if tx.conv == nil {
		return "", "", nil
	}
	return tx.conv.DeclaredEncoding(path)
}

// DeclaredEncoding is Tx.DeclaredEncoding outside an operation (for a
// read): the attribute files are read now. Errors wrap repo.ErrBadConfig
// for an unreadable config or attribute file.
func (s *Session) DeclaredEncoding(path string) (name, attr string, err error) {
	if conversionsOff {
		return "", "", nil
	}
	conv, err := s.Repo.Conversions()
	if err != nil {
		return "", "", err
	}
	return conv.DeclaredEncoding(path)
}
