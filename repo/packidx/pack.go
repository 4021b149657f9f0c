package packidx

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
)

// maxChain bounds a delta chain. Git writes chains of at most 4095
// (pack.depth's ceiling); the bound only stops a corrupt pack whose
// REF_DELTA bases form a cycle.
const maxChain = 10000

// pack is one pack in objects/pack: its index, mapped on first lookup, and
// the pack itself, mapped on first read.
type pack struct {
	base  string    // path without ".idx" / ".pack"
	mtime time.Time // the index's, when listed: newer packs are asked first
	idx   *Index
	m     *mapping
}

func (p *pack) index() (*Index, error) {
	if p.idx == nil {
		x, err := OpenIndex(p.base + ".idx")
		if err != nil {
			return nil, err
		}
		p.idx = x
	}
	return p.idx, nil
}

// data returns the mapped pack, checking its header and that its trailing
// checksum is the one its index names (so a pack and an index of different
// generations are never mixed).
func (p *pack) data() ([]byte, error) {
	if p.m != nil {
		return p.m.data, nil
	}
	x, err := p.index()
	if err != nil {
		return nil, err
	}
	m, err := mapFile(p.base + ".pack")
	if errors.Is(err, fs.ErrNotExist) {
		// The index was listed but gc has since removed the pack: the
		// object lives elsewhere now, and a reload will find it.
		return nil, fmt.Errorf("%w: pack %s.pack is gone", plumbing.ErrObjectNotFound, p.base)
	}
	if err != nil {
		return nil, fmt.Errorf("open pack: %w", err)
	}
	b := m.data
	sum := x.PackChecksum()
	switch {
	case len(b) < 12+hashLen:
		err = fmt.Errorf("%w: %d bytes is too short for a pack", ErrCorrupt, len(b))
	case string(b[:4]) != "PACK":
		err = fmt.Errorf("%w: no PACK signature", ErrCorrupt)
	case binary.BigEndian.Uint32(b[4:]) != 2 && binary.BigEndian.Uint32(b[4:]) != 3:
		err = fmt.Errorf("%w: unsupported pack version %d", ErrCorrupt, binary.BigEndian.Uint32(b[4:]))
	case !bytes.Equal(b[len(b)-hashLen:], sum[:]):
		err = fmt.Errorf("%w: checksum differs from its index's", ErrCorrupt)
	}
	if err != nil {
		m.close()
		return nil, fmt.Errorf("pack %s.pack: %w", p.base, err)
	}
	p.m = m
	return b, nil
}

func (p *pack) close() error {
	var errs []error
	if p.idx != nil {
		errs = append(errs, p.idx.Close())
		p.idx = nil
	}
	errs = append(errs, p.m.close())
	p.m = nil
	return errors.Join(errs...)
}

// entry is the header of one object in a pack.
type entry struct {
	off    int64
	typ    plumbing.ObjectType
	size   int64 // inflated size: of the object, or of the delta
	dataAt int64 // where the zlib stream starts
	// The base of an OFS_DELTA (an offset) or of a REF_DELTA (a name).
	baseOff int64
	baseRef plumbing.Hash
}

// parseEntry reads the object header at off: a type and a size in a
// little-endian base-128 varint, then the delta base for deltas.
func parseEntry(d []byte, off int64) (entry, error) {
	e := entry{off: off}
	end := int64(len(d)) - hashLen // the pack's trailing checksum
	if off < 12 || off >= end {
		return e, fmt.Errorf("%w: object offset %d outside the pack", ErrCorrupt, off)
	}
	p := off
	c := d[p]
	p++
	e.typ = plumbing.ObjectType((c >> 4) & 7)
	size := uint64(c & 0x0f)
	for shift := 4; c&0x80 != 0; shift += 7 {
		if p >= end || shift > 57 {
			return e, fmt.Errorf("%w: bad object header at %d", ErrCorrupt, off)
		}
		c = d[p]
		p++
		size |= uint64(c&0x7f) << shift
	}
	switch e.typ {
	case plumbing.CommitObject, plumbing.TreeObject, plumbing.BlobObject, plumbing.TagObject:
	case plumbing.OFSDeltaObject:
		// Big-endian base-128 with an offset of one added per extra byte,
		// so each length has its own range (git's packfile.c).
		if p >= end {
			return e, fmt.Errorf("%w: bad delta base at %d", ErrCorrupt, off)
		}
		c = d[p]
		p++
		rel := uint64(c & 0x7f)
		for c&0x80 != 0 {
			if p >= end || rel >= 1<<55 {
				return e, fmt.Errorf("%w: bad delta base at %d", ErrCorrupt, off)
			}
			c = d[p]
			p++
			rel = (rel+1)<<7 | uint64(c&0x7f)
		}
		if rel == 0 || rel > uint64(off) {
			return e, fmt.Errorf("%w: delta at %d has its base at -%d", ErrCorrupt, off, rel)
		}
		e.baseOff = off - int64(rel)
	case plumbing.REFDeltaObject:
		if p+hashLen > end {
			return e, fmt.Errorf("%w: bad delta base at %d", ErrCorrupt, off)
		}
		copy(e.baseRef[:], d[p:p+hashLen])
		p += hashLen
	default:
		return e, fmt.Errorf("%w: unknown object type %d at %d", ErrCorrupt, e.typ, off)
	}
	// Deflate expands at most about 1032 to 1: a larger size is a lie that
	// would otherwise make us allocate it.
	if size > uint64(end-p)*1100+64 {
		return e, fmt.Errorf("%w: object at %d claims %d bytes", ErrCorrupt, off, size)
	}
	e.size = int64(size)
	e.dataAt = p
	return e, nil
}

// inflate returns the entry's data (an object's bytes, or a delta), checking
// that the zlib stream holds exactly the size the header gave.
func inflate(d []byte, e entry) ([]byte, error) {
	end := int64(len(d)) - hashLen
	z, done, err := getZlibReader(bytes.NewReader(d[e.dataAt:end]))
	if err != nil {
		return nil, fmt.Errorf("%w: object at %d: %w", ErrCorrupt, e.off, err)
	}
	defer done()
	return readExactly(z, e.size, e.off)
}

// eagerAlloc is how much of an object's claimed size readExactly allocates
// before any byte arrives. A header can lie (a corrupt one, or a zlib bomb
// of one repeated byte): past this, memory grows only with bytes actually
// inflated, at most doubling, so no header makes us allocate gigabytes.
const eagerAlloc = 8 << 20

// readExactly reads size bytes from an inflating reader and checks that the
// stream ends there (reading to the end also checks zlib's checksum).
func readExactly(r io.Reader, size, at int64) ([]byte, error) {
	b := make([]byte, min(size, eagerAlloc))
	_, err := io.ReadFull(r, b)
	for err == nil && int64(len(b)) < size {
		grow := int(min(size-int64(len(b)), int64(len(b))))
		b = append(b, make([]byte, grow)...)
		_, err = io.ReadFull(r, b[len(b)-grow:])
	}
	if err != nil {
		return nil, fmt.Errorf("%w: object at %d: inflate: %w", ErrCorrupt, at, err)
	}
	var one [1]byte
	n, err := r.Read(one[:])
	for n == 0 && err == nil {
		n, err = r.Read(one[:])
	}
	if n != 0 {
		return nil, fmt.Errorf("%w: object at %d is longer than its header says", ErrCorrupt, at)
	}
	if err != io.EOF {
		return nil, fmt.Errorf("%w: object at %d: inflate: %w", ErrCorrupt, at, err)
	}
	return b, nil
}

// patch applies a delta to base with go-git's PatchDelta, which refuses an
// empty base; git allows one (the delta is then all literal data), so that
// case goes through go-git's ApplyDelta.
func patch(base, delta []byte) ([]byte, error) {
	if len(base) > 0 {
		return packfile.PatchDelta(base, delta)
	}
	var out plumbing.MemoryObject
	if err := packfile.ApplyDelta(&out, &plumbing.MemoryObject{}, delta); err != nil {
		return nil, err
	}
	r, _ := out.Reader()
	return io.ReadAll(r)
}
