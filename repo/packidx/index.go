package packidx

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
)

// ErrCorrupt is wrapped by every error about bytes of a .idx, a .pack or a
// loose object that do not follow git's formats.
var ErrCorrupt = errors.New("corrupt object storage")

// Layout of a version 2 .idx (git's Documentation/gitformat-pack.txt):
//
//	magic "\377tOc", version 2              8 bytes
//	fanout: objects with first byte <= i    256 × uint32
//	object names, sorted                    n × 20
//	CRC32 of each packed object             n × 4
//	offsets (MSB set: index into next)      n × 4
//	large offsets                           k × 8
//	pack checksum, idx checksum             2 × 20
const (
	hashLen      = 20
	idxHeaderLen = 8
	fanoutOff    = idxHeaderLen
	namesOff     = fanoutOff + 256*4
	trailerLen   = 2 * hashLen
)

var idxMagic = []byte{0xff, 't', 'O', 'c'}

// Index is a memory-mapped version 2 pack index. Opening it checks only the
// header, the fanout table and the file's size against them, never the
// whole-file checksum: that read of every page is what made go-git's cold
// start grow with the repository. A lookup binary-searches the mapped names
// and touches a few pages.
//
// An Index is not safe for concurrent Close; lookups may run concurrently.
type Index struct {
	m      *mapping
	path   string
	n      uint32 // number of objects
	nLarge uint64 // entries in the large offset table
}

// OpenIndex maps the .idx file at path and checks its layout. Any file that
// is not a well-formed version 2 index gives an error wrapping ErrCorrupt.
func OpenIndex(path string) (*Index, error) {
	m, err := mapFile(path)
	if err != nil {
		return nil, fmt.Errorf("open pack index: %w", err)
	}
	x := &Index{m: m, path: path}
	if err := x.check(); err != nil {
		m.close()
		return nil, fmt.Errorf("pack index %s: %w", path, err)
	}
	return x, nil
}

func (x *Index) check() error {
	b := x.m.data
	if len(b) < namesOff+trailerLen {
		return fmt.Errorf("%w: %d bytes is too short for an index", ErrCorrupt, len(b))
	}
	if !bytes.Equal(b[:4], idxMagic) {
		return fmt.Errorf("%w: not a version 2 index (version 1 indexes are not supported)", ErrCorrupt)
	}
	if v := binary.BigEndian.Uint32(b[4:]); v != 2 {
		return fmt.Errorf("%w: unsupported index version %d", ErrCorrupt, v)
	}
	// A decreasing fanout would send the binary search outside the names.
	var prev uint32
	for i := range 256 {
		c := binary.BigEndian.Uint32(b[fanoutOff+4*i:])
		if c < prev {
			return fmt.Errorf("%w: fanout table decreases at %d", ErrCorrupt, i)
		}
		prev = c
	}
	x.n = prev
	fixed := uint64(namesOff) + uint64(x.n)*(hashLen+4+4) + trailerLen
	size := uint64(len(b))
	if size < fixed || (size-fixed)%8 != 0 {
		return fmt.Errorf("%w: %d bytes does not fit %d objects", ErrCorrupt, size, x.n)
	}
	x.nLarge = (size - fixed) / 8
	return nil
}

// Count returns the number of objects in the index.
func (x *Index) Count() int { return int(x.n) }

// PackChecksum returns the checksum of the pack this index describes (the
// pack file's last 20 bytes).
func (x *Index) PackChecksum() plumbing.Hash {
	var h plumbing.Hash
	b := x.m.data
	copy(h[:], b[len(b)-trailerLen:])
	return h
}

func (x *Index) name(i uint32) []byte {
	o := namesOff + int(i)*hashLen
	return x.m.data[o : o+hashLen]
}

// search returns the position of h among the sorted names.
func (x *Index) search(h plumbing.Hash) (uint32, bool) {
	b := x.m.data
	var lo uint32
	if h[0] > 0 {
		lo = binary.BigEndian.Uint32(b[fanoutOff+4*(int(h[0])-1):])
	}
	hi := binary.BigEndian.Uint32(b[fanoutOff+4*int(h[0]):])
	for lo < hi {
		mid := lo + (hi-lo)/2
		switch c := bytes.Compare(x.name(mid), h[:]); {
		case c == 0:
			return mid, true
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false
}

// Contains reports whether the pack holds h.
func (x *Index) Contains(h plumbing.Hash) bool {
	_, ok := x.search(h)
	return ok
}

// FindOffset returns where h starts in the pack. It returns an error
// wrapping plumbing.ErrObjectNotFound when the index does not list h, and
// one wrapping ErrCorrupt when its offset entry is malformed.
func (x *Index) FindOffset(h plumbing.Hash) (int64, error) {
	i, ok := x.search(h)
	if !ok {
		return 0, plumbing.ErrObjectNotFound
	}
	b := x.m.data
	offsets := namesOff + int(x.n)*(hashLen+4)
	v := binary.BigEndian.Uint32(b[offsets+4*int(i):])
	if v&0x80000000 == 0 {
		return int64(v), nil
	}
	// Offsets past 2 GiB live in the large offset table.
	j := uint64(v & 0x7fffffff)
	if j >= x.nLarge {
		return 0, fmt.Errorf("pack index %s: %w: large offset %d of %s out of range", x.path, ErrCorrupt, j, h)
	}
	large := uint64(offsets) + uint64(x.n)*4 + 8*j
	off := binary.BigEndian.Uint64(b[large:])
	if off > 1<<62 {
		return 0, fmt.Errorf("pack index %s: %w: offset %d of %s out of range", x.path, ErrCorrupt, off, h)
	}
	return int64(off), nil
}

// Close unmaps the index. It must not be used afterwards.
func (x *Index) Close() error { return x.m.close() }

// Entry returns the i-th object of the index in name order (0 ≤ i <
// Count): its name, where it starts in the pack and the CRC-32 of its
// packed bytes. A malformed large offset gives an error wrapping
// ErrCorrupt. It lets a caller walk a whole pack (see repo's pack
// consolidation) without a reverse index.
func (x *Index) Entry(i int) (plumbing.Hash, int64, uint32, error) {
	var h plumbing.Hash
	if i < 0 || i >= int(x.n) {
		return h, 0, 0, fmt.Errorf("pack index %s: entry %d of %d", x.path, i, x.n)
	}
	copy(h[:], x.name(uint32(i)))
	b := x.m.data
	crcs := namesOff + int(x.n)*hashLen
	crc := binary.BigEndian.Uint32(b[crcs+4*i:])
	off, err := x.FindOffset(h)
	return h, off, crc, err
}
