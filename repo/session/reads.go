package session

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-edit/git-edit/repo"
)

// A session remembers, per path, the content it last saw: what it read
// (Read, text_editor view) or wrote itself. Edit and MultiEdit refuse to
// change a file the session has not seen, or whose bytes changed since. The
// record is the blob id of that content (a content hash, never an mtime),
// one small file per path under <common dir>/git-edit/sessions/<name>/seen,
// so that processes of one session share it and never overwrite each
// other's entries.

func (s *Session) seenDir() string {
	return filepath.Join(s.stateDir(), "seen")
}

// seenFile names a path's record by a hash of the path, so any path (deep,
// long, odd characters) maps to one flat file name.
func (s *Session) seenFile(path string) string {
	sum := sha1.Sum([]byte(path))
	return filepath.Join(s.seenDir(), hex.EncodeToString(sum[:]))
}

// RecordSeen notes that the session has seen path (relative to the
// worktree top) with exactly the content whose blob id is blob (see
// repo.BlobHash). The record is replaced atomically.
func (s *Session) RecordSeen(path string, blob plumbing.Hash) error {
	if err := s.checkWritable(); err != nil {
		return err
	}
	dir := s.seenDir()
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("record read of %s: %w", path, err)
	}
	_, werr := fmt.Fprintf(f, "%s %s\n", blob, quotePath(path))
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("record read of %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), s.seenFile(path)); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("record read of %s: %w", path, err)
	}
	return nil
}

// LastSeen returns the blob id of the content the session last saw of
// path; ok is false when it never saw it.
func (s *Session) LastSeen(path string) (h plumbing.Hash, ok bool, err error) {
	b, err := repo.ReadStateFile(s.seenFile(path))
	if errors.Is(err, os.ErrNotExist) {
		return plumbing.ZeroHash, false, nil
	}
	if err != nil {
		return plumbing.ZeroHash, false, fmt.Errorf("read record of %s: %w", path, err)
	}
	hash, recorded, _ := strings.Cut(strings.TrimSuffix(string(b), "\n"), " ")
	if !plumbing.IsHash(hash) || unquotePath(recorded) != path {
		// A torn or foreign record counts as "not seen": the agent reads
		// again, which is always safe.
		return plumbing.ZeroHash, false, nil
	}
	return plumbing.NewHash(hash), true, nil
}
