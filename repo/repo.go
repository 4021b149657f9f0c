// Package repo is git-edit's plumbing: finding the repository, storing and
// reading objects, tree surgery, the session refs with git's lock protocol,
// the repository-wide edit lock and atomic file writes.
//
// It never interprets text: callers hand it bytes and get bytes back. The
// dialects and the history questions (package undo) sit above it.
package repo

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-edit/git-edit/repo/packidx"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// ErrNotRepository is returned by Open when no git repository contains the
// starting directory.
var ErrNotRepository = errors.New("not inside a git repository")

// Repo is an opened repository: its worktree and the two git directories a
// worktree has (they are the same directory except in linked worktrees).
type Repo struct {
	// Top is the absolute, symlink-free path of the worktree's top directory.
	Top string
	// GitDir holds this worktree's HEAD (".git", or ".git/worktrees/NAME").
	GitDir string
	// CommonDir holds what all worktrees share: objects, refs, config.
	CommonDir string

	objects objectStore
}

// objectStore is how repo reaches objects. Reads go through packidx, whose
// cold cost does not grow with the repository (go-git's reader decodes every
// pack index in full on its first packed read), or through go-git when
// GIT_EDIT_PACKIDX is "off" (kept for comparing the two; see
// cmd/git-edit-bench). go-git's filesystem storage stays embedded for the
// rest of the storer interface that go-git's object package expects.
//
// Either reader is made to survive an external `git gc`: it lists the packs
// once, so an object that gc moved into a new pack looks missing. On "not
// found" the reader rescans the packs and tries once more (cheap with
// packidx: a directory listing).
//
// Read through objectStore's own EncodedObject and HasEncodedObject, never
// through the embedded Storage's: those are go-git's reader, whose first
// packed lookup (a miss included) decodes every pack index in full.
type objectStore struct {
	*filesystem.Storage
	read objectReader
	// pending holds the objects of the operation under way, not yet
	// written (see beginBatch); reads look there first.
	pending *pendingObjects
}

// objectReader is the read side of an objectStore.
type objectReader interface {
	EncodedObject(plumbing.ObjectType, plumbing.Hash) (plumbing.EncodedObject, error)
	HasEncodedObject(plumbing.Hash) error
	// Reload makes the next lookup see the packs as they are now.
	Reload()
}

// goGitReader reads through go-git's own storage.
type goGitReader struct{ *filesystem.Storage }

func (g goGitReader) Reload() { g.Storage.Reindex() }

func (s objectStore) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	if obj, ok := s.pending.get(h); ok {
		if t != plumbing.AnyObject && obj.Type() != t {
			return nil, plumbing.ErrObjectNotFound
		}
		return obj, nil
	}
	obj, err := s.read.EncodedObject(t, h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		s.read.Reload()
		obj, err = s.read.EncodedObject(t, h)
	}
	return obj, err
}

// HasAsListed reports whether h is stored, as the packs stood when last
// listed: unlike HasEncodedObject it never rescans on a miss. It suits the
// write path, where a miss is the usual answer and a duplicate loose object
// is harmless. (Storage.HasEncodedObject, go-git's, answers the same but
// decodes every pack index on its first call.)
func (s objectStore) HasAsListed(h plumbing.Hash) bool { return s.read.HasEncodedObject(h) == nil }

func (s objectStore) HasEncodedObject(h plumbing.Hash) error {
	err := s.read.HasEncodedObject(h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		s.read.Reload()
		err = s.read.HasEncodedObject(h)
	}
	return err
}

// Open finds the repository containing dir (searching upward, as git does,
// and following ".git" files of linked worktrees and submodules) and opens
// it. A bare repository is refused: git-edit edits files in a worktree.
func Open(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("root %s: %w", dir, err)
	}
	for d := real; ; d = filepath.Dir(d) {
		gitDir, found, err := dotGit(d)
		if err != nil {
			return nil, err
		}
		if found {
			return openAt(d, gitDir)
		}
		if filepath.Dir(d) == d {
			return nil, fmt.Errorf("%w: %s (run git init there, or pass --root inside a repository)", ErrNotRepository, abs)
		}
	}
}

// dotGit reports the git directory named by top/.git, which is either the
// directory itself or a file holding "gitdir: PATH".
func dotGit(top string) (string, bool, error) {
	p := filepath.Join(top, ".git")
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", false, nil
	case err != nil:
		return "", false, fmt.Errorf("inspect %s: %w", p, err)
	case fi.IsDir():
		return p, true, nil
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return "", false, fmt.Errorf("read %s: %w", p, err)
	}
	line := strings.TrimSpace(string(b))
	target, ok := strings.CutPrefix(line, "gitdir:")
	if !ok {
		return "", false, fmt.Errorf("%s is not a gitdir file (it should read \"gitdir: PATH\")", p)
	}
	target = strings.TrimSpace(target)
	if !filepath.IsAbs(target) {
		target = filepath.Join(top, target)
	}
	return filepath.Clean(target), true, nil
}

func openAt(top, gitDir string) (*Repo, error) {
	if _, err := os.Stat(filepath.Join(gitDir, "HEAD")); err != nil {
		return nil, fmt.Errorf("%w: %s has no HEAD: %v", ErrNotRepository, gitDir, err)
	}
	common := gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(b))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		common = filepath.Clean(c)
	}
	st := filesystem.NewStorageWithOptions(osfs.New(common), cache.NewObjectLRUDefault(), filesystem.Options{
		// Objects/info/alternates paths are absolute or relative to the
		// objects directory; a root filesystem resolves both.
		AlternatesFS: osfs.New("/"),
	})
	var read objectReader = packidx.New(filepath.Join(common, "objects"))
	if os.Getenv("GIT_EDIT_PACKIDX") == "off" { // go-git's reader, for comparison only
		read = goGitReader{st}
	}
	return &Repo{Top: top, GitDir: gitDir, CommonDir: common, objects: objectStore{st, read, &pendingObjects{}}}, nil
}

// stateDir is where git-edit keeps its own files (the edit lock, later
// per-session state). It lives in the common dir so that every worktree of a
// repository shares one lock, as they share one set of refs.
func (r *Repo) stateDir() string { return filepath.Join(r.CommonDir, "git-edit") }

// isUnder reports whether path is dir or inside it (both cleaned, absolute).
func isUnder(path, dir string) bool {
	if path == dir {
		return true
	}
	if dir == string(filepath.Separator) {
		return true
	}
	return strings.HasPrefix(path, dir+string(filepath.Separator))
}

// trimLine returns b without one trailing "\n" (and "\r\n").
func trimLine(b []byte) []byte {
	return bytes.TrimRight(b, "\r\n")
}
