package repo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// Ref is a ref name and the commit it points to.
type Ref struct {
	Name string
	Hash plumbing.Hash
}

// ListRefs returns every ref under prefix (such as "refs/edits/"), loose
// ones winning over packed ones as in git, sorted by name.
func (r *Repo) ListRefs(prefix string) ([]Ref, error) {
	found := map[string]plumbing.Hash{}
	packed, err := r.packedRefs()
	if err != nil {
		return nil, err
	}
	for name, h := range packed {
		if strings.HasPrefix(name, prefix) {
			found[name] = h
		}
	}
	root := filepath.Join(r.CommonDir, filepath.FromSlash(prefix))
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return filepath.SkipDir
		}
		if err != nil || d.IsDir() || strings.HasSuffix(path, ".lock") {
			return err
		}
		rel, _ := filepath.Rel(r.CommonDir, path)
		name := filepath.ToSlash(rel)
		h, err := r.ReadRef(name)
		if err != nil {
			return err
		}
		if !h.IsZero() {
			found[name] = h
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("list %s: %w", prefix, err)
	}
	refs := make([]Ref, 0, len(found))
	for name, h := range found {
		refs = append(refs, Ref{name, h})
	}
	sort.Slice(refs, func(i, j int) bool { return refs[i].Name < refs[j].Name })
	return refs, nil
}

// packedRefs reads packed-refs as a map.
func (r *Repo) packedRefs() (map[string]plumbing.Hash, error) {
	refs := map[string]plumbing.Hash{}
	b, err := os.ReadFile(filepath.Join(r.CommonDir, "packed-refs"))
	if errors.Is(err, os.ErrNotExist) {
		return refs, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read packed-refs: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' || line[0] == '^' {
			continue
		}
		hash, name, ok := strings.Cut(line, " ")
		if ok && plumbing.IsHash(hash) {
			refs[name] = plumbing.NewHash(hash)
		}
	}
	return refs, sc.Err()
}

// DeleteRef removes ref name if it still points to old, with git's lock
// protocol: "<ref>.lock" is held while the loose file is removed and, if the
// ref is also packed, while packed-refs is rewritten through
// "packed-refs.lock". Its reflog goes too. Fails with ErrRefLocked or
// ErrRefChanged, changing nothing.
func (r *Repo) DeleteRef(name string, old plumbing.Hash) error {
	path, lockPath, lock, err := r.lockRefAt(name, old)
	if err != nil {
		return err
	}
	lock.Close()
	defer func() {
		os.Remove(lockPath)
		r.clearRefIntent()
	}()
	if err := r.removePacked(name); err != nil {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("delete %s: %w", name, err)
	}
	os.Remove(filepath.Join(r.CommonDir, "logs", filepath.FromSlash(name)))
	return nil
}

// removePacked rewrites packed-refs without name, under packed-refs.lock,
// when name is packed at all.
func (r *Repo) removePacked(name string) error {
	packedPath := filepath.Join(r.CommonDir, "packed-refs")
	b, err := os.ReadFile(packedPath)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read packed-refs: %w", err)
	}
	var out bytes.Buffer
	lines := bytes.SplitAfter(b, []byte("\n"))
	removed, skipPeel := false, false
	for _, line := range lines {
		if skipPeel && bytes.HasPrefix(line, []byte("^")) {
			continue // the peeled value of the removed ref
		}
		skipPeel = false
		if _, ref, ok := strings.Cut(strings.TrimRight(string(line), "\n"), " "); ok && ref == name {
			removed, skipPeel = true, true
			continue
		}
		out.Write(line)
	}
	if !removed {
		return nil
	}
	lockPath := packedPath + ".lock"
	lock, err := os.OpenFile(lockPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("%w: %s exists; another git process is packing refs, or one crashed: if none is running, delete that file and retry", ErrRefLocked, lockPath)
	}
	if err != nil {
		return fmt.Errorf("lock packed-refs: %w", err)
	}
	if _, err := lock.Write(out.Bytes()); err != nil {
		lock.Close()
		os.Remove(lockPath)
		return fmt.Errorf("write packed-refs: %w", err)
	}
	if err := errors.Join(lock.Sync(), lock.Close()); err != nil {
		os.Remove(lockPath)
		return fmt.Errorf("write packed-refs: %w", err)
	}
	if err := os.Rename(lockPath, packedPath); err != nil {
		os.Remove(lockPath)
		return fmt.Errorf("replace packed-refs: %w", err)
	}
	return nil
}

// RemoveState deletes what git-edit keeps for a session besides its ref
// (the read-before-edit records).
func (s *Session) RemoveState() error {
	return os.RemoveAll(filepath.Join(s.Repo.stateDir(), "sessions", s.Name))
}
