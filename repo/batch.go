package repo

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/klauspost/compress/zlib"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
)

// An operation's new objects (blobs, trees, commits) are collected in
// memory and written as one pack, guarded by a ".keep" file until the
// session ref names them. `git gc` and `git repack` never delete a kept
// pack, and `git prune` only removes loose objects, so even a concurrent
// `git gc --prune=now` cannot remove an edit's objects between their write
// and the ref update (loose objects could be pruned in that window, leaving
// a ref that names a missing commit). Once the ref moved the keep file is
// removed and the pack is an ordinary one, which git-edit itself rolls up
// with its other small packs (packs.go) and the person's gc may fold in. A
// keep file left by a git-edit that died is removed by the next operation.
//
// One pack per operation also means one temporary file, one index and one
// directory fsync per edit, instead of one file and fsync per object.

// pendingObjects holds the objects of the operation under way, readable
// before they are written (a sync commit's tree is the next commit's base).
type pendingObjects struct {
	mu     sync.Mutex
	active bool
	objs   map[plumbing.Hash]pendingObject
	order  []plumbing.Hash
}

type pendingObject struct {
	t       plumbing.ObjectType
	content []byte
}

// add keeps the object if a batch is active and reports whether it did.
func (p *pendingObjects) add(h plumbing.Hash, t plumbing.ObjectType, content []byte) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.active {
		return false
	}
	if _, dup := p.objs[h]; !dup {
		p.objs[h] = pendingObject{t, content}
		p.order = append(p.order, h)
	}
	return true
}

// get returns a pending object as an encoded object.
func (p *pendingObjects) get(h plumbing.Hash) (plumbing.EncodedObject, bool) {
	p.mu.Lock()
	o, ok := p.objs[h]
	p.mu.Unlock()
	if !ok {
		return nil, false
	}
	obj := &plumbing.MemoryObject{}
	obj.SetType(o.t)
	obj.Write(o.content)
	return obj, true
}

// ObjectBatch is one operation's use of the pending objects: BeginBatch,
// then Flush (write the kept pack), then Release (a ref names the objects)
// or End without Release (the pack is deleted again).
type ObjectBatch struct {
	r        *Repo
	packBase string // objects/pack/pack-<id>, once flushed
	released bool
}

// BeginBatch starts collecting the objects stored from now on (StoreBlob,
// EditTree, StoreCommit) in memory, readable at once, written only by
// Flush. The caller must hold the edit lock (Lock), so that one batch is
// active per repository at a time, and must call End when the operation is
// over, whatever happened.
func (r *Repo) BeginBatch() *ObjectBatch {
	p := r.objects.pending
	p.mu.Lock()
	p.active, p.objs, p.order = true, map[plumbing.Hash]pendingObject{}, nil
	p.mu.Unlock()
	return &ObjectBatch{r: r}
}

// take stops collecting and returns what was collected, in order.
func (b *ObjectBatch) take() ([]plumbing.Hash, map[plumbing.Hash]pendingObject) {
	p := b.r.objects.pending
	p.mu.Lock()
	defer p.mu.Unlock()
	order, objs := p.order, p.objs
	p.active, p.objs, p.order = false, nil, nil
	return order, objs
}

// Flush writes the collected objects as one pack with its index and a keep
// file, all fsynced, and makes the repository's reader see the pack. It
// writes nothing when nothing was collected. Until Release, `git gc` and
// `git repack` leave the pack alone. On error nothing usable was written.
func (b *ObjectBatch) Flush() error {
	order, objs := b.take()
	if len(order) == 0 {
		return nil
	}
	dir := filepath.Join(b.r.CommonDir, "objects", "pack")
	removeStaleKeeps(dir)
	var base string
	var err error
	for range 3 {
		// `git prune` deletes temporary files in objects/pack older than
		// its expiry, which --prune=now makes every one: write again.
		if base, err = b.r.writeKeptPack(dir, order, objs); !errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("store objects: %w", err)
	}
	b.packBase = base
	b.r.objects.read.Reload()
	return nil
}

// Release removes the keep file once a ref names the objects (or may name
// them: a failed ref update may have moved the ref all the same); the pack
// is then an ordinary one, and End keeps it.
func (b *ObjectBatch) Release() {
	if b.packBase != "" {
		os.Remove(b.packBase + ".keep")
	}
	b.released = true
}

// End finishes the batch: unflushed objects are dropped, and a pack that
// was written but never released is deleted (index first, so no reader
// sees a pack without its index).
//
// After a released pack, End rolls git-edit's smallest packs into one
// (ConsolidatePacks), still under the edit lock, so that a session of any
// length leaves a bounded number of packs. The edit is done by then: a
// roll-up that fails deletes nothing, and the next operation tries again.
func (b *ObjectBatch) End() {
	b.take()
	if b.released && b.packBase != "" {
		b.r.ConsolidatePacks() // see above: its failure costs no object and no edit
		return
	}
	if b.released || b.packBase == "" {
		return
	}
	os.Remove(b.packBase + ".idx")
	os.Remove(b.packBase + ".pack")
	os.Remove(b.packBase + ".keep")
	b.r.objects.read.Reload()
}

// keepTag is what git-edit's keep files hold, so that its own can be told
// from other programs' (git's receive-pack writes "receive-pack <pid> on
// <host>"; a person pinning a pack usually writes an empty one). Keep files
// of git-edit before the template (below) held "git-edit <pid>".
const keepTag = "git-edit keep: removed once a session ref names this pack\n"

// keepTemplate is the file every keep of git-edit is a hard link to. Its
// bytes are written and fsynced once per repository; a keep is then one
// link(2), metadata only, made durable by the pack directory's fsync with
// the pack's own names. Written each time instead, a keep's bytes would
// need their own fsync: after a power cut an empty keep would not read as
// git-edit's, and its pack would be kept from gc forever.
func (r *Repo) keepTemplate() (string, error) {
	name := filepath.Join(r.StateDir(), "keep")
	if b, err := ReadStateFile(name); err == nil && string(b) == keepTag {
		return name, nil
	}
	// Missing, or not whole (a power cut before its fsync): write it anew.
	if err := os.MkdirAll(r.StateDir(), 0o777); err != nil {
		return "", fmt.Errorf("write keep file: %w", err)
	}
	f, err := os.CreateTemp(r.StateDir(), ".keep-*")
	if err != nil {
		return "", fmt.Errorf("write keep file: %w", err)
	}
	_, err = f.WriteString(keepTag)
	err = errors.Join(err, f.Chmod(0o444), f.Sync(), f.Close())
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("write keep file: %w", err)
	}
	return name, nil
}

// linkKeep makes name a keep file: a hard link to the keep template. Where
// that cannot be (objects on another file system, no hard links), it
// writes the file and fsyncs it.
func (r *Repo) linkKeep(name string) error {
	tmpl, err := r.keepTemplate()
	if err == nil {
		err = os.Link(tmpl, name)
		if errors.Is(err, fs.ErrExist) {
			// Left by an earlier writer of the very same pack: ours now.
			os.Remove(name)
			err = os.Link(tmpl, name)
		}
		if err == nil {
			return nil
		}
	}
	return writeKeep(name)
}

// removeStaleKeeps deletes keep files git-edit left behind. It runs under
// the edit lock, and an operation removes its keep file before it lets go
// of that lock, so any git-edit keep file found here belongs to a process
// that died between writing its pack and moving its ref: the pack becomes
// an ordinary one that gc may fold in or prune. Other programs' keep files
// are never touched.
func removeStaleKeeps(dir string) {
	names, err := filepath.Glob(filepath.Join(dir, "pack-*.keep"))
	if err != nil {
		return
	}
	for _, name := range names {
		if b, err := ReadStateFile(name); err == nil && strings.HasPrefix(string(b), "git-edit ") { // keepTag, or "git-edit <pid>" of older versions
			os.Remove(name)
		}
	}
}

// writeKeptPack writes objs (in order) as a version 2 pack without deltas
// and its version 2 index (go-git's idxfile), then the keep file, then
// renames pack and index into place and fsyncs the directory. It returns
// the path of the pack without its extension.
func (r *Repo) writeKeptPack(dir string, order []plumbing.Hash, objs map[plumbing.Hash]pendingObject) (string, error) {
	packTmp, err := createTemp(dir, "tmp_pack_")
	if err != nil {
		return "", err
	}
	defer os.Remove(packTmp.Name()) // a no-op once renamed
	sum := sha1.New()
	w := bufio.NewWriterSize(io.MultiWriter(packTmp, sum), 64<<10)
	var hdr [12]byte
	copy(hdr[:], "PACK")
	binary.BigEndian.PutUint32(hdr[4:], 2)
	binary.BigEndian.PutUint32(hdr[8:], uint32(len(order)))
	w.Write(hdr[:])
	idx := new(idxfile.Writer)
	idx.OnHeader(uint32(len(order)))
	offset := uint64(len(hdr))
	var entry bytes.Buffer
	zw := zlibWriters.Get().(*zlib.Writer)
	defer zlibWriters.Put(zw)
	for _, h := range order {
		o := objs[h]
		entry.Reset()
		entry.Write(PackObjectHeader(o.t, len(o.content)))
		zw.Reset(&entry)
		if _, err := zw.Write(o.content); err != nil {
			packTmp.Close()
			return "", err
		}
		if err := zw.Close(); err != nil {
			packTmp.Close()
			return "", err
		}
		idx.Add(h, offset, crc32.ChecksumIEEE(entry.Bytes()))
		w.Write(entry.Bytes())
		offset += uint64(entry.Len())
	}
	if err := w.Flush(); err != nil {
		packTmp.Close()
		return "", fmt.Errorf("write pack: %w", err)
	}
	var checksum plumbing.Hash
	copy(checksum[:], sum.Sum(nil))
	if _, err := packTmp.Write(checksum[:]); err != nil {
		packTmp.Close()
		return "", fmt.Errorf("write pack: %w", err)
	}
	if err := errors.Join(packTmp.Sync(), packTmp.Close()); err != nil {
		return "", fmt.Errorf("write pack: %w", err)
	}
	base := filepath.Join(dir, "pack-"+checksum.String())
	// Bookkeeping only: a pack missing from git-edit's list is never
	// rolled up and is left to the person's gc, so a failure to note it
	// does not fail the edit.
	_ = r.notePack(filepath.Base(base))
	// The keep first: a gc must never see the pack without it.
	if err := r.linkKeep(base + ".keep"); err != nil {
		return "", err
	}
	if err := installPack(dir, packTmp.Name(), idx, checksum, base, true); err != nil {
		os.Remove(base + ".keep")
		return "", err
	}
	return base, nil
}

// writeKeep writes a keep file, fsynced (see keepTemplate).
func writeKeep(name string) error {
	f, err := OpenStateFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o444)
	if err != nil {
		return fmt.Errorf("write keep file: %w", err)
	}
	_, err = f.WriteString(keepTag)
	if err = errors.Join(err, f.Sync(), f.Close()); err != nil {
		os.Remove(name)
		return fmt.Errorf("write keep file: %w", err)
	}
	return nil
}

// PackObjectHeader is a pack entry's header: the type in bits 4-6 of the
// first byte, the size in 4 bits then 7 bits per byte, little end first.
func PackObjectHeader(t plumbing.ObjectType, size int) []byte {
	b := []byte{byte(t)<<4 | byte(size&0x0f)}
	size >>= 4
	for size > 0 {
		b[len(b)-1] |= 0x80
		b = append(b, byte(size&0x7f))
		size >>= 7
	}
	return b
}

// createTemp makes a temporary file in an object directory. Like git, it
// makes the directory again and retries when a concurrent `git gc` or
// `git prune` removed it (emptied) between the mkdir and the create.
func createTemp(dir, pattern string) (*os.File, error) {
	var err error
	for range 5 {
		if err = os.MkdirAll(dir, 0o777); err != nil {
			continue
		}
		var f *os.File
		if f, err = os.CreateTemp(dir, pattern); err == nil {
			return f, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			break
		}
	}
	return nil, fmt.Errorf("create temporary file in %s: %w", dir, err)
}
