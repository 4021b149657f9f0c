package repo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

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
	// Loose refs first, then packed-refs, as git reads them: a ref that
	// git pack-refs moves in between is then seen in one or the other.
	found := map[string]plumbing.Hash{}
	root := filepath.Join(r.CommonDir, filepath.FromSlash(prefix))
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
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
	packed, err := r.packedRefs()
	if err != nil {
		return nil, err
	}
	for name, h := range packed {
		if _, loose := found[name]; !loose && strings.HasPrefix(name, prefix) {
			found[name] = h
		}
	}
	refs := make([]Ref, 0, len(found))
	for name, h := range found {
		refs = append(refs, Ref{name, h})
	}
	sort.Slice(refs, func(i, j int) bool { return refs[i].Name < refs[j].Name })
	return refs, nil
}

// packedCache is packed-refs as last parsed, with the identity of the file
// it was parsed from. git rewrites packed-refs only by renaming a new file
// over it, so a file with the same inode, size, mtime and ctime holds the
// same refs: git's own check (stat_validity_check in refs/packed-backend.c).
// Without it, every ReadRef of a packed ref parsed the whole file, and a
// command over N packed sessions cost N passes (quadratic).
type packedCache struct {
	mu    sync.Mutex
	ident stamp // the version parsed: identity, size, mtime and ctime
	refs  map[string]plumbing.Hash
	reads atomic.Int64 // how many times the file was parsed (tests)
}

// packedRefs returns packed-refs as a map, parsed once per version of the
// file (see packedCache). The caller must not change the map.
func (r *Repo) packedRefs() (map[string]plumbing.Hash, error) {
	c := &r.packed
	c.mu.Lock()
	defer c.mu.Unlock()
	path := filepath.Join(r.CommonDir, "packed-refs")
	fi, err := statPath(path)
	if errors.Is(err, os.ErrNotExist) || isNotDirErr(err) {
		c.refs = nil
		return map[string]plumbing.Hash{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read packed-refs: %w", err)
	}
	if c.refs != nil && stampOf(fi) == c.ident {
		return c.refs, nil
	}
	// Identify the file read by its descriptor: the one parsed, even if
	// git renames another over the name meanwhile. openStatePath: never
	// blocking on a FIFO, and on Windows not in the way of that rename.
	f, err := openStatePath(path, os.O_RDONLY, 0, false)
	if errors.Is(err, os.ErrNotExist) {
		c.refs = nil
		return map[string]plumbing.Hash{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read packed-refs: %w", err)
	}
	defer f.Close()
	fi, err = fstat(f)
	if err != nil {
		return nil, fmt.Errorf("read packed-refs: %w", err)
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("read packed-refs: %w", err)
	}
	c.reads.Add(1)
	refs, err := parsePackedRefs(b)
	if err != nil {
		return nil, err
	}
	c.refs, c.ident = refs, stampOf(fi)
	return refs, nil
}

// PackedRefsReads counts the times packed-refs was read and parsed.
func (r *Repo) PackedRefsReads() int64 { return r.packed.reads.Load() }

func parsePackedRefs(b []byte) (map[string]plumbing.Hash, error) {
	refs := map[string]plumbing.Hash{}
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
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read packed-refs: %w", err)
	}
	return refs, nil
}

// DeleteRef removes ref name if it still points to old; see DeleteRefs.
func (r *Repo) DeleteRef(name string, old plumbing.Hash) error {
	return r.DeleteRefs([]Ref{{name, old}})
}

// DeleteRefs removes every ref of refs that still points to its Hash, with
// its reflog, all or none: one `git update-ref -z --stdin` transaction of
// "delete <ref> <old>" lines. Deleting a packed ref rewrites packed-refs,
// and only git itself knows every way to do that safely beside a person's
// own git (lock order, packed-refs.lock, reftable), so git-edit never
// writes packed-refs. The old value of a missing commit is fine: git checks
// the ref, not the object.
//
// If any ref moved, nothing is deleted and the error wraps ErrRefChanged
// naming that ref; if a lock is held by another process, ErrRefLocked.
// Locks that dead git-edit processes left on these refs are cleared
// first (see lockRef).
func (r *Repo) DeleteRefs(refs []Ref) error {
	if len(refs) == 0 {
		return nil
	}
	var in bytes.Buffer
	names := make([]string, len(refs))
	in.WriteString("start\x00")
	for i, ref := range refs {
		if ref.Hash.IsZero() {
			return fmt.Errorf("delete %s: no expected old value given", ref.Name)
		}
		names[i] = ref.Name
		fmt.Fprintf(&in, "delete %s\x00%s\x00", ref.Name, ref.Hash)
	}
	in.WriteString("commit\x00")
	r.clearDeadRefLocks(names)
	var stderr bytes.Buffer
	// --no-deref: a symbolic ref under refs/edits/ is deleted itself, never
	// the branch it points to.
	cmd := r.git("update-ref", "--no-deref", "-z", "--stdin")
	cmd.Stdin, cmd.Stderr = &in, &stderr
	if err := cmd.Run(); err != nil {
		return updateRefError(strings.Join(names, ", "), stderr.String(), err)
	}
	return nil
}

// updateRefError maps git update-ref's failure to the ref sentinels.
func updateRefError(names, stderr string, err error) error {
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return fmt.Errorf("delete %s: run git: %w (git-edit deletes refs with git update-ref, so git must be on PATH)", names, err)
	}
	msg, _, _ := strings.Cut(strings.TrimSpace(stderr), "\n")
	msg = strings.TrimPrefix(strings.TrimPrefix(msg, "fatal: "), "commit: ")
	switch {
	case strings.Contains(msg, "but expected"), strings.Contains(msg, "unable to resolve reference"):
		return fmt.Errorf("%w: git update-ref: %s; nothing was deleted; run the command again", ErrRefChanged, msg)
	case strings.Contains(msg, "File exists"):
		return fmt.Errorf("%w: git update-ref: %s; nothing was deleted; another git process holds that lock, or one crashed: if none is running, delete that file and retry", ErrRefLocked, msg)
	}
	return fmt.Errorf("delete %s: git update-ref: %s: %w", names, msg, err)
}

// git prepares a git command on this repository. The environment's
// variables that would point git elsewhere are dropped; GIT_DIR names this
// worktree's git dir (git finds the common dir, where refs/edits lives,
// from it). LC_ALL=C keeps the messages updateRefError reads in English.
func (r *Repo) git(args ...string) *exec.Cmd {
	return r.gitEnv(exec.Command("git", args...))
}

// gitEnv gives cmd the directory and environment git describes above.
func (r *Repo) gitEnv(cmd *exec.Cmd) *exec.Cmd {
	cmd.Dir = r.Top
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_NAMESPACE",
			"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "LC_ALL", "LANGUAGE":
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	cmd.Env = append(cmd.Env, "GIT_DIR="+r.GitDir, "LC_ALL=C")
	return cmd
}
