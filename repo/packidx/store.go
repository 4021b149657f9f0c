// Package packidx reads git objects with a cold cost that does not grow
// with the repository: pack indexes are memory-mapped and binary-searched,
// never decoded whole, and delta bases are found by their offset in the pack,
// so no offset-to-name map of every object is ever built.
//
// go-git's filesystem storage, on its first packed read, decodes every .idx
// in full (checksum included) and builds maps over all objects: hundreds of
// milliseconds in a large repository, for a process that then reads five
// objects. A Store reads the same objects (loose, packed, deltified as
// OFS_DELTA or REF_DELTA, in any number of packs, and through
// objects/info/alternates) with the cost of the few pages it touches.
//
// It only reads; package repo writes (one pack per operation).
package packidx

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// maxAlternateDepth is how deep alternates of alternates are followed, as
// git does.
const maxAlternateDepth = 5

// Store reads the objects of one objects directory and its alternates.
// Nothing is read when it is made; packs and indexes are found and mapped
// on first need. It is safe for concurrent use.
type Store struct {
	dir   string
	depth int

	mu      sync.Mutex
	scanned bool    // packs is objects/pack as last listed
	packs   []*pack // newest first (see scan)
	lastHit *pack   // the pack the last found object was in: asked first
	alts    []*Store
	altsOK  bool // alts read from objects/info/alternates
	cache   lru
}

// New returns a Store over objectsDir (a repository's ".git/objects").
func New(objectsDir string) *Store {
	return newStore(objectsDir, 0)
}

func newStore(dir string, depth int) *Store {
	return &Store{dir: filepath.Clean(dir), depth: depth, cache: lru{budget: cacheBudget}}
}

// EncodedObject returns object h. With t other than plumbing.AnyObject, an
// object of another type counts as missing, as in go-git's storers. A
// missing object gives an error wrapping plumbing.ErrObjectNotFound;
// malformed storage one wrapping ErrCorrupt.
//
// The object is read-only: its bytes may be shared with the Store's cache,
// so its Writer fails and its setters do nothing. Its Hash is h, not
// recomputed (git does not re-hash on read either).
func (s *Store) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	typ, b, err := s.read(h)
	if err != nil {
		return nil, err
	}
	if t != plumbing.AnyObject && t != typ {
		return nil, plumbing.ErrObjectNotFound
	}
	return &Object{hash: h, typ: typ, data: b}, nil
}

// HasEncodedObject returns nil when the store holds h, an error wrapping
// plumbing.ErrObjectNotFound when it does not. Nothing is inflated.
func (s *Store) HasEncodedObject(h plumbing.Hash) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.has(h)
}

// Reload makes the next lookups see the packs and alternates as they are
// now. Call it when an object is missing: an external `git gc` may have
// moved it into a new pack. Packs still present stay mapped; packs gone are
// unmapped.
func (s *Store) Reload() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scanned = false
	s.altsOK = false
	for _, a := range s.alts {
		a.Reload()
	}
}

// Close unmaps every pack and index of the store and its alternates. A
// later lookup starts over, as on a new Store.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, p := range s.packs {
		errs = append(errs, p.close())
	}
	for _, a := range s.alts {
		errs = append(errs, a.Close())
	}
	s.packs, s.alts, s.cache, s.lastHit = nil, nil, lru{budget: cacheBudget}, nil
	s.scanned, s.altsOK = false, false
	return errors.Join(errs...)
}

func (s *Store) has(h plumbing.Hash) error {
	p, err := s.findPacked(h)
	if err != nil || p != nil {
		return err
	}
	if _, err := os.Lstat(s.loosePath(h)); err == nil {
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("look up %s: %w", h, err)
	}
	alts, err := s.alternates()
	if err != nil {
		return err
	}
	for _, a := range alts {
		if err := a.HasEncodedObject(h); !errors.Is(err, plumbing.ErrObjectNotFound) {
			return err
		}
	}
	return plumbing.ErrObjectNotFound
}

func (s *Store) read(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	// Packs first, as git does: in a repository of any age most objects are
	// packed, and a miss in a mapped index costs no system call.
	p, err := s.findPacked(h)
	if err != nil {
		return 0, nil, err
	}
	if p != nil {
		off, err := p.idx.FindOffset(h)
		if err != nil {
			return 0, nil, err
		}
		typ, b, err := s.readPacked(p, off)
		if err != nil {
			return 0, nil, fmt.Errorf("read %s: %w", h, err)
		}
		return typ, b, nil
	}
	typ, b, err := s.readLoose(h)
	if !errors.Is(err, plumbing.ErrObjectNotFound) {
		return typ, b, err
	}
	alts, err := s.alternates()
	if err != nil {
		return 0, nil, err
	}
	for _, a := range alts {
		a.mu.Lock()
		typ, b, err := a.read(h)
		a.mu.Unlock()
		if !errors.Is(err, plumbing.ErrObjectNotFound) {
			return typ, b, err
		}
	}
	return 0, nil, plumbing.ErrObjectNotFound
}

// findPacked returns the pack whose index lists h (its index opened), or
// nil.
func (s *Store) findPacked(h plumbing.Hash) (*pack, error) {
	if err := s.scan(); err != nil {
		return nil, err
	}
	// The pack of the last hit first, then newest first, as git orders
	// them: an operation reads mostly its own session's objects (in
	// git-edit's small new packs) or the person's (in their one large
	// pack); each index asked in vain costs a binary search whose pages a
	// new process has not touched yet.
	for i := -1; i < len(s.packs); i++ {
		var p *pack
		switch {
		case i < 0 && s.lastHit == nil:
			continue
		case i < 0:
			p = s.lastHit
		case s.packs[i] == s.lastHit:
			continue
		default:
			p = s.packs[i]
		}
		x, err := p.index()
		if errors.Is(err, fs.ErrNotExist) {
			// Deleted since the listing (a concurrent gc or repack moved
			// its objects): a miss here makes the caller rescan.
			continue
		}
		if err != nil {
			return nil, err
		}
		if x.Contains(h) {
			if _, err := p.data(); errors.Is(err, plumbing.ErrObjectNotFound) {
				// Its pack file is gone (a concurrent repack wrote the
				// objects into a new pack first): look in the others.
				continue
			}
			s.lastHit = p
			return p, nil
		}
	}
	return nil, nil
}

// scan lists objects/pack once (again after Reload), keeping the packs it
// already had open.
func (s *Store) scan() error {
	if s.scanned {
		return nil
	}
	dir := filepath.Join(s.dir, "pack")
	ents, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("list packs: %w", err)
	}
	old := make(map[string]*pack, len(s.packs))
	for _, p := range s.packs {
		old[p.base] = p
	}
	var packs []*pack
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".idx")
		if !ok || e.IsDir() || !strings.HasPrefix(name, "pack-") {
			// Only git's pack names: `git repack` writes ".tmp-*" indexes
			// that vanish under a reader.
			continue
		}
		base := filepath.Join(dir, name)
		p := old[base]
		if p != nil {
			delete(old, base)
		} else {
			p = &pack{base: base}
		}
		if fi, err := e.Info(); err == nil {
			p.mtime = fi.ModTime()
		}
		packs = append(packs, p)
	}
	// Newest first (by the index's time; a pack whose index vanished
	// sorts last and is skipped when asked), ties by name: the order git
	// gives its packs (sort_pack in packfile.c).
	slices.SortStableFunc(packs, func(a, b *pack) int { return b.mtime.Compare(a.mtime) })
	for _, p := range old {
		if p == s.lastHit {
			s.lastHit = nil
		}
		_ = p.close() // munmap of a mapping we made cannot fail usefully
	}
	if len(old) > 0 {
		s.cache = lru{budget: cacheBudget} // its keys name closed packs
	}
	s.packs, s.scanned = packs, true
	return nil
}

// readPacked returns the object at off in p: it walks the delta chain down
// to a whole object (or one cached), then applies the deltas back up. Bases
// are found by offset (OFS_DELTA) or in the same pack's index (REF_DELTA,
// as git does), never through a reverse index.
func (s *Store) readPacked(p *pack, off int64) (plumbing.ObjectType, []byte, error) {
	d, err := p.data()
	if err != nil {
		return 0, nil, err
	}
	var chain []entry
	var typ plumbing.ObjectType
	var b []byte
	for {
		if c, ok := s.cache.get(cacheKey{p, off}); ok {
			typ, b = c.typ, c.data
			break
		}
		e, err := parseEntry(d, off)
		if err != nil {
			return 0, nil, err
		}
		if !e.typ.IsDelta() {
			if b, err = inflate(d, e); err != nil {
				return 0, nil, err
			}
			typ = e.typ
			s.cache.put(cacheKey{p, off}, typ, b)
			break
		}
		if len(chain) == maxChain {
			return 0, nil, fmt.Errorf("%w: delta chain longer than %d at %d", ErrCorrupt, maxChain, off)
		}
		chain = append(chain, e)
		if e.typ == plumbing.OFSDeltaObject {
			off = e.baseOff
			continue
		}
		if off, err = p.idx.FindOffset(e.baseRef); err != nil {
			if errors.Is(err, plumbing.ErrObjectNotFound) {
				err = fmt.Errorf("%w: delta base %s of object at %d is not in its pack", ErrCorrupt, e.baseRef, e.off)
			}
			return 0, nil, err
		}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		delta, err := inflate(d, chain[i])
		if err != nil {
			return 0, nil, err
		}
		if b, err = patch(b, delta); err != nil {
			return 0, nil, fmt.Errorf("%w: delta at %d: %w", ErrCorrupt, chain[i].off, err)
		}
		s.cache.put(cacheKey{p, chain[i].off}, typ, b)
	}
	return typ, b, nil
}

func (s *Store) loosePath(h plumbing.Hash) string {
	x := h.String()
	return filepath.Join(s.dir, x[:2], x[2:])
}

// readLoose reads a loose object: zlib of "<type> <size>\0<bytes>". It does
// not use go-git's objfile.Reader, which hashes everything it reads (tens
// of milliseconds for a file of some megabytes).
func (s *Store) readLoose(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	f, err := os.Open(s.loosePath(h))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil, plumbing.ErrObjectNotFound
	}
	if err != nil {
		return 0, nil, fmt.Errorf("read %s: %w", h, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, nil, fmt.Errorf("read %s: %w", h, err)
	}
	br := bufio.NewReaderSize(f, 32<<10)
	z, done, err := getZlibReader(br)
	if err != nil {
		return 0, nil, fmt.Errorf("loose object %s: %w: %w", h, ErrCorrupt, err)
	}
	defer done()
	var hdr [32]byte
	n := 0
	for ; n < len(hdr); n++ {
		if _, err := io.ReadFull(z, hdr[n:n+1]); err != nil {
			return 0, nil, fmt.Errorf("loose object %s: %w: header: %w", h, ErrCorrupt, err)
		}
		if hdr[n] == 0 {
			break
		}
	}
	name, size, ok := bytes.Cut(hdr[:n], []byte{' '})
	if n == len(hdr) || !ok {
		return 0, nil, fmt.Errorf("loose object %s: %w: bad header", h, ErrCorrupt)
	}
	typ, err := plumbing.ParseObjectType(string(name))
	sz, serr := strconv.ParseInt(string(size), 10, 64)
	if err != nil || serr != nil || sz < 0 || typ.IsDelta() || sz > fi.Size()*1100+64 {
		return 0, nil, fmt.Errorf("loose object %s: %w: bad header %q", h, ErrCorrupt, hdr[:n])
	}
	b, err := readExactly(z, sz, 0)
	if err != nil {
		return 0, nil, fmt.Errorf("loose object %s: %w", h, err)
	}
	return typ, b, nil
}

// alternates returns the stores named by objects/info/alternates, read once
// (again after Reload).
func (s *Store) alternates() ([]*Store, error) {
	if s.altsOK || s.depth >= maxAlternateDepth {
		return s.alts, nil
	}
	f := filepath.Join(s.dir, "info", "alternates")
	b, err := os.ReadFile(f)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read %s: %w", f, err)
	}
	old := make(map[string]*Store, len(s.alts))
	for _, a := range s.alts {
		old[a.dir] = a
	}
	var alts []*Store
	for line := range strings.Lines(string(b)) {
		line = strings.TrimRight(line, "\r\n")
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '"' {
			// git C-quotes paths with unusual characters.
			if u, err := strconv.Unquote(line); err == nil {
				line = u
			}
		}
		if !filepath.IsAbs(line) {
			line = filepath.Join(s.dir, line)
		}
		line = filepath.Clean(line)
		if line == s.dir {
			continue
		}
		if a := old[line]; a != nil {
			delete(old, line)
			alts = append(alts, a)
			continue
		}
		alts = append(alts, newStore(line, s.depth+1))
	}
	for _, a := range old {
		_ = a.Close()
	}
	s.alts, s.altsOK = alts, true
	return alts, nil
}

// Object is an object read from a Store. It is read-only.
type Object struct {
	hash plumbing.Hash
	typ  plumbing.ObjectType
	data []byte
}

var errReadOnly = errors.New("packidx: objects read from a store are read-only")

// Hash returns the name the object was looked up by.
func (o *Object) Hash() plumbing.Hash { return o.hash }

// Type returns the object's type (never a delta type).
func (o *Object) Type() plumbing.ObjectType { return o.typ }

// SetType does nothing: the object is read-only.
func (o *Object) SetType(plumbing.ObjectType) {}

// Size returns the object's size in bytes.
func (o *Object) Size() int64 { return int64(len(o.data)) }

// SetSize does nothing: the object is read-only.
func (o *Object) SetSize(int64) {}

// Reader returns the object's bytes.
func (o *Object) Reader() (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader(o.data)), nil
}

// Writer fails: the object is read-only.
func (o *Object) Writer() (io.WriteCloser, error) { return nil, errReadOnly }

// Bytes returns the object's bytes without copying. The caller must not
// change them.
func (o *Object) Bytes() []byte { return o.data }
