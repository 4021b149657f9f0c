package repo

import (
	"bytes"
	"errors"
	"fmt"
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
	packed.withPrefix(prefix, func(name string, h plumbing.Hash) {
		if _, loose := found[name]; !loose {
			found[name] = h
		}
	})
	refs := make([]Ref, 0, len(found))
	for name, h := range found {
		refs = append(refs, Ref{name, h})
	}
	sort.Slice(refs, func(i, j int) bool { return refs[i].Name < refs[j].Name })
	return refs, nil
}

// packedCache is packed-refs as last read, with the identity of the file
// it was read from. git rewrites packed-refs only by renaming a new file
// over it, so a file with the same inode, size, mtime and ctime holds the
// same refs: git's own check (stat_validity_check in refs/packed-backend.c).
// Without it, every ReadRef of a packed ref read the whole file, and a
// command over N packed sessions cost N passes (quadratic).
type packedCache struct {
	mu    sync.Mutex
	ident stamp // the version read: identity, size, mtime and ctime
	refs  *packedFile
	reads atomic.Int64 // how many times the file was read (tests)
}

// packedFile is the bytes of a packed-refs file. Refs are found in it
// where they are, as git does, not parsed into a map: a repository with
// thousands of tags (git's own has 2,000) would otherwise pay for all of
// them on every command that reads one ref or lists refs/edits/.
type packedFile struct {
	data   []byte
	body   int  // where the first record starts (after the header line)
	sorted bool // the header says "sorted": binary search is allowed
}

// packedRefs returns packed-refs as last read, read once per version of
// the file (see packedCache); an empty packedFile when there is none. The
// caller must not change it.
func (r *Repo) packedRefs() (*packedFile, error) {
	c := &r.packed
	c.mu.Lock()
	defer c.mu.Unlock()
	path := filepath.Join(r.CommonDir, "packed-refs")
	fi, err := statPath(path)
	if errors.Is(err, os.ErrNotExist) || isNotDirErr(err) {
		c.refs = nil
		return &packedFile{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read packed-refs: %w", err)
	}
	if c.refs != nil && stampOf(fi) == c.ident {
		return c.refs, nil
	}
	// Identify the file read by its descriptor: the one read, even if
	// git renames another over the name meanwhile. openStatePath: never
	// blocking on a FIFO, and on Windows not in the way of that rename.
	f, err := openStatePath(path, os.O_RDONLY, 0, false)
	if errors.Is(err, os.ErrNotExist) {
		c.refs = nil
		return &packedFile{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read packed-refs: %w", err)
	}
	defer f.Close()
	fi, err = fstat(f)
	if err != nil {
		return nil, fmt.Errorf("read packed-refs: %w", err)
	}
	// Sized from the stat: io.ReadAll's doubling would copy and clear
	// git.git's 120 kB several times.
	buf := bytes.NewBuffer(make([]byte, 0, fi.size+bytes.MinRead))
	if _, err := buf.ReadFrom(f); err != nil {
		return nil, fmt.Errorf("read packed-refs: %w", err)
	}
	b := buf.Bytes()
	c.reads.Add(1)
	c.refs, c.ident = newPackedFile(b), stampOf(fi)
	return c.refs, nil
}

// newPackedFile reads the header of packed-refs bytes b: git writes
// "# pack-refs with: <traits>" first, and "sorted" among the traits
// promises the records are in byte order of their names.
func newPackedFile(b []byte) *packedFile {
	p := &packedFile{data: b}
	if header, ok := bytes.CutPrefix(b, []byte("# pack-refs with:")); ok {
		line, _, _ := bytes.Cut(header, []byte("\n"))
		p.body = min(len(b), len("# pack-refs with:")+len(line)+1)
		for _, trait := range strings.Fields(string(line)) {
			p.sorted = p.sorted || trait == "sorted"
		}
	}
	return p
}

// record reads the record that starts at off: the ref's name and hash,
// ok false for a line that is no ref (a comment, a peeled "^" line,
// anything that is not "<40 hex> <name>"), and where the next line starts.
func (p *packedFile) record(off int) (name string, h plumbing.Hash, ok bool, next int) {
	line := p.data[off:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line, next = line[:i], off+i+1
	} else {
		next = len(p.data)
	}
	line = bytes.TrimSuffix(line, []byte("\r"))
	if len(line) < 42 || line[40] != ' ' || !plumbing.IsHash(string(line[:40])) {
		return "", plumbing.ZeroHash, false, next
	}
	return string(line[41:]), plumbing.NewHash(string(line[:40])), true, next
}

// nameAt is the name of the record starting at off, without allocating,
// and whether the line is a record at all.
func (p *packedFile) nameAt(off int) ([]byte, bool) {
	line := p.data[off:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = bytes.TrimSuffix(line, []byte("\r"))
	if len(line) < 42 || line[40] != ' ' || line[0] == '^' || line[0] == '#' {
		return nil, false
	}
	return line[41:], true
}

// lowerBound is where the first record whose name is at least name
// starts, by binary search over the lines of a sorted file: each probe
// backs up to the start of its line and past any line that is no record
// (a peeled "^" line belongs to the record before it).
func (p *packedFile) lowerBound(name string) int {
	lo, hi := p.body, len(p.data)
	for lo < hi {
		mid := lo + (hi-lo)/2
		start := lo
		if i := bytes.LastIndexByte(p.data[lo:mid], '\n'); i >= 0 {
			start = lo + i + 1
		}
		// Back to a record: lines that are none follow the one they
		// belong to.
		for start > lo {
			if _, ok := p.nameAt(start); ok {
				break
			}
			i := bytes.LastIndexByte(p.data[lo:start-1], '\n')
			start = lo + i + 1 // i = -1: lo
		}
		rec, ok := p.nameAt(start)
		if ok && string(rec) >= name {
			hi = start
			continue
		}
		// Past this line (and, for a line that is no record at lo,
		// past it alone).
		next := len(p.data)
		if i := bytes.IndexByte(p.data[start:], '\n'); i >= 0 {
			next = start + i + 1
		}
		lo = next
	}
	return lo
}

// lookup is the hash packed-refs holds for name, zero when none.
func (p *packedFile) lookup(name string) plumbing.Hash {
	var found plumbing.Hash
	p.withPrefix(name, func(n string, h plumbing.Hash) {
		if n == name {
			found = h
		}
	})
	return found
}

// withPrefix calls fn with every ref whose name starts with prefix, in the
// file's order: from the first candidate on to the last in a sorted file,
// every line otherwise.
func (p *packedFile) withPrefix(prefix string, fn func(name string, h plumbing.Hash)) {
	off := p.body
	if p.sorted {
		off = p.lowerBound(prefix)
	}
	for off < len(p.data) {
		if rec, ok := p.nameAt(off); ok && p.sorted && !bytes.HasPrefix(rec, []byte(prefix)) && string(rec) > prefix {
			return // sorted: no later name has the prefix
		}
		name, h, ok, next := p.record(off)
		if ok && strings.HasPrefix(name, prefix) {
			fn(name, h)
		}
		off = next
	}
}

// PackedRefsReads counts the times packed-refs was read and parsed.
func (r *Repo) PackedRefsReads() int64 { return r.packed.reads.Load() }

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
