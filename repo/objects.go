package repo

import (
	"errors"
	"fmt"
	"github.com/klauspost/compress/zlib"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Entry is one path's recorded state in a tree: a blob and its mode.
// The zero Entry means "no file at this path".
type Entry struct {
	Hash plumbing.Hash
	Mode filemode.FileMode
}

// Exists reports whether the entry names a file.
func (e Entry) Exists() bool { return !e.Hash.IsZero() }

// BlobHash is the object id git gives content as a blob, computed without
// storing anything: the cheap way to compare disk bytes with a tree entry.
func BlobHash(content []byte) plumbing.Hash {
	return plumbing.ComputeHash(plumbing.BlobObject, content)
}

// store writes an encoded object unless the store already has it (see
// writeLoose).
func (r *Repo) store(obj plumbing.EncodedObject) (plumbing.Hash, error) {
	rd, err := obj.Reader()
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("store %s: %w", obj.Type(), err)
	}
	defer rd.Close()
	content, err := io.ReadAll(rd)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("store %s: %w", obj.Type(), err)
	}
	return r.writeObject(obj.Type(), content)
}

// StoreBlob stores content as a blob and returns its id.
func (r *Repo) StoreBlob(content []byte) (plumbing.Hash, error) {
	return r.writeObject(plumbing.BlobObject, content)
}

// StoreBlobKnown is StoreBlob for content whose blob id the caller already
// computed (BlobHash of these very bytes; zero: not known), so that a large
// file is hashed once per operation, not once per use.
func (r *Repo) StoreBlobKnown(content []byte, known plumbing.Hash) (plumbing.Hash, error) {
	if known.IsZero() {
		return r.StoreBlob(content)
	}
	return r.writeHashed(known, plumbing.BlobObject, content)
}

// writeObject stores one object: into the operation's batch when one is
// active (see BeginBatch; session.Session.Apply), else as a loose object.
func (r *Repo) writeObject(t plumbing.ObjectType, content []byte) (plumbing.Hash, error) {
	return r.writeHashed(plumbing.ComputeHash(t, content), t, content)
}

// writeHashed is writeObject for content whose id h is known.
func (r *Repo) writeHashed(h plumbing.Hash, t plumbing.ObjectType, content []byte) (plumbing.Hash, error) {
	if r.objects.pending.add(h, t, content) {
		return h, nil
	}
	return r.writeLoose(h, t, content)
}

// zlibWriters keeps compressors for reuse: each holds large tables that
// would otherwise be allocated for every object.
var zlibWriters = sync.Pool{New: func() any {
	zw, _ := zlib.NewWriterLevel(nil, zlib.BestSpeed) // a valid level never errs
	return zw
}}

// writeLoose writes object h as git writes a loose object: the header and
// content zlib-compressed at level 1 (git's core.looseCompression default;
// packs get the heavy compression when git gc runs), into a temporary file
// renamed to objects/xx/yyyy, then fsyncs the file and its directory. An
// object already present (loose or packed, as the indexes stand) is not
// written again; the check does not reread pack indexes: a new object is
// usually missing, and rereading every index for it would cost more than
// writing a duplicate loose object, which git tolerates. Edits do not come
// here (their objects go into one kept pack, see BeginBatch); this serves
// writers outside an operation, such as tests building long histories.
func (r *Repo) writeLoose(h plumbing.Hash, t plumbing.ObjectType, content []byte) (plumbing.Hash, error) {
	if r.objects.HasAsListed(h) {
		return h, nil
	}
	hex := h.String()
	dir := filepath.Join(r.CommonDir, "objects", hex[:2])
	f, err := createTemp(dir, "tmp_obj_")
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("store %s: %w", t, err)
	}
	fail := func(err error) (plumbing.Hash, error) {
		f.Close()
		os.Remove(f.Name())
		return plumbing.ZeroHash, fmt.Errorf("store %s %s: %w", t, hex, err)
	}
	zw := zlibWriters.Get().(*zlib.Writer)
	defer zlibWriters.Put(zw)
	zw.Reset(f)
	if _, err := fmt.Fprintf(zw, "%s %d\x00", t, len(content)); err != nil {
		return fail(err)
	}
	if _, err := zw.Write(content); err != nil {
		return fail(err)
	}
	if err := zw.Close(); err != nil {
		return fail(err)
	}
	// Objects are read-only in git's object store.
	if err := f.Chmod(0o444); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return plumbing.ZeroHash, fmt.Errorf("store %s %s: %w", t, hex, err)
	}
	if err := os.Rename(f.Name(), filepath.Join(dir, hex[2:])); err != nil {
		os.Remove(f.Name())
		return plumbing.ZeroHash, fmt.Errorf("store %s %s: %w", t, hex, err)
	}
	return h, syncDir(dir)
}

// ReadBlob returns a blob's bytes.
func (r *Repo) ReadBlob(h plumbing.Hash) ([]byte, error) {
	obj, err := r.objects.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", h, err)
	}
	rd, err := obj.Reader()
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", h, err)
	}
	defer rd.Close()
	b := make([]byte, obj.Size())
	if _, err := io.ReadFull(rd, b); err != nil {
		return nil, fmt.Errorf("read blob %s: %w", h, err)
	}
	return b, nil
}

// HasObject reports whether the repository has object h: nil when it has,
// plumbing.ErrObjectNotFound when it has not (after looking at the packs
// again, as a concurrent gc may be moving it), or the store's error when
// it cannot be read.
func (r *Repo) HasObject(h plumbing.Hash) error { return r.objects.HasEncodedObject(h) }

// ObjectType is the type of object h: plumbing.ErrObjectNotFound when the
// repository does not have it (see HasObject).
func (r *Repo) ObjectType(h plumbing.Hash) (plumbing.ObjectType, error) {
	obj, err := r.objects.EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return plumbing.InvalidObject, err
	}
	return obj.Type(), nil
}

// FileOf loads the content of a recorded entry as the state of path (an
// entry that does not exist: no file).
func (r *Repo) FileOf(path string, e Entry) (FileState, error) {
	if !e.Exists() {
		return FileState{Path: path}, nil
	}
	b, err := r.ReadBlob(e.Hash)
	if err != nil {
		return FileState{}, err
	}
	return FileState{Path: path, Exists: true, Content: b, Mode: e.Mode}, nil
}

// FileAt returns path as recorded in commit (zero commit: no file).
func (r *Repo) FileAt(commit plumbing.Hash, path string) (FileState, error) {
	tree, err := r.TreeOf(commit)
	if err != nil {
		return FileState{}, err
	}
	e, err := r.EntryAt(tree, path)
	if err != nil {
		return FileState{}, err
	}
	return r.FileOf(path, e)
}

// ReadCommit decodes a commit object.
func (r *Repo) ReadCommit(h plumbing.Hash) (*object.Commit, error) {
	r.commitReads.Add(1)
	c, err := object.GetCommit(r.objects, h)
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", h, err)
	}
	return c, nil
}

// readTree returns a tree's entries; the caller must not change them. A
// warm server edits along the same paths call after call, so decoded trees
// are kept by id (an id names the same entries forever; a tree is only
// read because a commit just read from the store names it, directly or
// through its parent trees, so a kept tree is one the store has).
func (r *Repo) readTree(h plumbing.Hash) ([]object.TreeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	if entries, ok := r.trees.get(h); ok {
		return entries, nil
	}
	t, err := object.GetTree(r.objects, h)
	if err != nil {
		return nil, fmt.Errorf("read tree %s: %w", h, err)
	}
	r.trees.put(h, t.Entries)
	return t.Entries, nil
}

// treeCache is a bounded map of decoded trees; past maxTrees it starts
// over (a reread is the only cost).
type treeCache struct {
	mu sync.Mutex
	m  map[plumbing.Hash][]object.TreeEntry
}

const maxTrees = 1024

func (c *treeCache) get(h plumbing.Hash) ([]object.TreeEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[h]
	return e, ok
}

func (c *treeCache) put(h plumbing.Hash, entries []object.TreeEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxTrees {
		c.m = map[plumbing.Hash][]object.TreeEntry{}
	}
	c.m[h] = entries
}

// CommitReads is how many commit objects this Repo has decoded: a
// commit's decoding costs as much as its message, so tests use it to show
// that a question asked of a commit of many paths decodes it once, not once
// per path.
func (r *Repo) CommitReads() int64 { return r.commitReads.Load() }

// hashCache is a bounded map from one object id to another (a commit to
// its root tree); past maxTrees it starts over (a reread is the only cost).
type hashCache struct {
	mu sync.Mutex
	m  map[plumbing.Hash]plumbing.Hash
}

func (c *hashCache) get(h plumbing.Hash) (plumbing.Hash, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[h]
	return v, ok
}

func (c *hashCache) put(h, v plumbing.Hash) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxTrees {
		c.m = map[plumbing.Hash]plumbing.Hash{}
	}
	c.m[h] = v
}

// TreeOf returns the root tree of a commit; the zero commit has the empty
// tree, shown as the zero hash. The answer is kept by commit id: reading a
// commit decodes its whole message, which for a commit of many paths is
// as long as their list, and a caller reading each of those paths at the
// commit would otherwise decode it once per path.
func (r *Repo) TreeOf(commit plumbing.Hash) (plumbing.Hash, error) {
	if commit.IsZero() {
		return plumbing.ZeroHash, nil
	}
	if t, ok := r.commitTrees.get(commit); ok {
		return t, nil
	}
	c, err := r.ReadCommit(commit)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	r.commitTrees.put(commit, c.TreeHash)
	return c.TreeHash, nil
}

// EntryAt returns the entry at a slash-separated path inside a tree, walking
// only the trees along the path. A missing path (or one that runs through a
// file) is the zero Entry.
func (r *Repo) EntryAt(tree plumbing.Hash, path string) (Entry, error) {
	parts := strings.Split(path, "/")
	for i, name := range parts {
		entries, err := r.readTree(tree)
		if err != nil {
			return Entry{}, err
		}
		e, ok := findEntry(entries, name)
		if !ok {
			return Entry{}, nil
		}
		if i == len(parts)-1 {
			if e.Mode == filemode.Dir || e.Mode == filemode.Submodule {
				return Entry{}, nil
			}
			return Entry{Hash: e.Hash, Mode: e.Mode}, nil
		}
		if e.Mode != filemode.Dir {
			return Entry{}, nil
		}
		tree = e.Hash
	}
	return Entry{}, nil
}

func findEntry(entries []object.TreeEntry, name string) (object.TreeEntry, bool) {
	for _, e := range entries {
		if e.Name == name {
			return e, true
		}
	}
	return object.TreeEntry{}, false
}

// EditTree returns the id of base with only the given paths replaced: an
// Entry that exists sets the path, the zero Entry removes it (and any
// directory left empty). Only the trees along the changed paths are read and
// written: tree surgery, never a scan of the worktree or the index.
//
// It never removes what changes do not name: a path under one that base
// holds as a file (a.txt/b.txt where a.txt is a file), or a file where
// base holds a directory or submodule that changes do not empty, fails
// with *TreeConflictError. A tree cannot hold both, and replacing one
// would delete it from the record without anyone having said so.
func (r *Repo) EditTree(base plumbing.Hash, changes map[string]Entry) (plumbing.Hash, error) {
	h, _, err := r.editTree(base, "", changes)
	return h, err
}

// ErrTreeConflict wraps every *TreeConflictError.
var ErrTreeConflict = errors.New("a file and a directory at one path")

// TreeConflictError is a change EditTree refuses: Path would replace
// Other, which the changes do not remove; OtherIsFile says whether Other
// is a file (Path lies under it) or a directory or submodule (Path is a
// file where it is).
type TreeConflictError struct {
	Path, Other string
	OtherIsFile bool
}

func (e *TreeConflictError) Error() string {
	if e.OtherIsFile {
		return fmt.Sprintf("%v: %s lies under %s, which is recorded as a file; recording %s would delete %s from the record unannounced", ErrTreeConflict, e.Path, e.Other, e.Path, e.Other)
	}
	return fmt.Sprintf("%v: %s is a file where the directory %s is recorded; recording it would delete what is recorded under %s unannounced", ErrTreeConflict, e.Path, e.Other, e.Other)
}

func (e *TreeConflictError) Unwrap() error { return ErrTreeConflict }

// anyPath is one of changes' paths, for an error (the least, so the
// message does not depend on map order).
func anyPath(prefix string, changes map[string]Entry) string {
	least := ""
	for p := range changes {
		if least == "" || p < least {
			least = p
		}
	}
	return prefix + least
}

func (r *Repo) editTree(base plumbing.Hash, prefix string, changes map[string]Entry) (plumbing.Hash, bool, error) {
	entries, err := r.readTree(base)
	if err != nil {
		return plumbing.ZeroHash, false, err
	}
	// Split changes into those for this level and those for each subtree.
	direct := map[string]Entry{}
	sub := map[string]map[string]Entry{}
	for p, e := range changes {
		dir, rest, nested := strings.Cut(p, "/")
		if !nested {
			direct[dir] = e
			continue
		}
		if sub[dir] == nil {
			sub[dir] = map[string]Entry{}
		}
		sub[dir][rest] = e
	}
	byName := make(map[string]object.TreeEntry, len(entries))
	for _, e := range entries {
		byName[e.Name] = e
	}
	// Subtrees first: a directory the changes empty may become a file,
	// and a file a change removes may become a directory.
	madeDir := map[string]bool{}
	for name, subChanges := range sub {
		cur, had := byName[name]
		isDir := had && cur.Mode == filemode.Dir
		var subBase plumbing.Hash
		if isDir {
			subBase = cur.Hash
		}
		h, empty, err := r.editTree(subBase, prefix+name+"/", subChanges)
		if err != nil {
			return plumbing.ZeroHash, false, err
		}
		if empty {
			if isDir {
				delete(byName, name)
			}
			continue // nothing under name: a file there is the direct change's
		}
		e, named := direct[name]
		if had && !isDir && (!named || e.Exists()) {
			// A file or submodule in the way that no change removes.
			return plumbing.ZeroHash, false, &TreeConflictError{Path: anyPath(prefix+name+"/", subChanges), Other: prefix + name, OtherIsFile: true}
		}
		if named && e.Exists() {
			return plumbing.ZeroHash, false, &TreeConflictError{Path: prefix + name, Other: prefix + name}
		}
		byName[name] = object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h}
		madeDir[name] = true
	}
	for name, e := range direct {
		if madeDir[name] {
			continue // the removed file's place is the directory's now
		}
		if cur, had := byName[name]; had && (cur.Mode == filemode.Dir || cur.Mode == filemode.Submodule) {
			// A file set, or removed, where a directory is that no
			// change empties: what lies under it would go unnamed.
			return plumbing.ZeroHash, false, &TreeConflictError{Path: prefix + name, Other: prefix + name}
		}
		if e.Exists() {
			byName[name] = object.TreeEntry{Name: name, Mode: e.Mode, Hash: e.Hash}
		} else {
			delete(byName, name)
		}
	}
	out := make([]object.TreeEntry, 0, len(byName))
	for _, e := range byName {
		out = append(out, e)
	}
	sort.Sort(object.TreeEntrySorter(out))
	h, err := r.storeTree(out)
	return h, len(out) == 0, err
}

func (r *Repo) storeTree(entries []object.TreeEntry) (plumbing.Hash, error) {
	obj := r.objects.NewEncodedObject()
	t := object.Tree{Entries: entries}
	if err := t.Encode(obj); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("encode tree: %w", err)
	}
	return r.store(obj)
}

// StoreCommit writes a commit with the given tree, parent (none when zero)
// and message, authored and committed by Identity at time now.
func (r *Repo) StoreCommit(tree, parent plumbing.Hash, message string, now time.Time) (plumbing.Hash, error) {
	if tree.IsZero() {
		// The empty tree: git knows its id, but it must exist as an object.
		h, err := r.storeTree(nil)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		tree = h
	}
	sig := Identity(now)
	c := object.Commit{Author: sig, Committer: sig, Message: message, TreeHash: tree}
	if !parent.IsZero() {
		c.ParentHashes = []plumbing.Hash{parent}
	}
	obj := r.objects.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("encode commit: %w", err)
	}
	return r.store(obj)
}

// Identity is who git-edit commits as: GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL
// when set (as git itself honours them), else "git-edit <git-edit@localhost>".
func Identity(now time.Time) object.Signature {
	name, email := os.Getenv("GIT_AUTHOR_NAME"), os.Getenv("GIT_AUTHOR_EMAIL")
	if name == "" {
		name = "git-edit"
	}
	if email == "" {
		email = "git-edit@localhost"
	}
	return object.Signature{Name: name, Email: email, When: now}
}
