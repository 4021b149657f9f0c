package packidx

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/go-git/go-git/v5/plumbing"
)

// packedFixture makes a repository of one deltified pack and returns its
// objects (as git reads them) and the pack's and index's bytes.
func packedFixture(t *testing.T) (objs []gitObject, packBytes, idxBytes []byte) {
	t.Helper()
	dir := gittest.New(t)
	history(t, dir, 0, 4)
	gittest.Git(t, dir, "gc", "-q", "--prune=now")
	objs = allObjects(t, dir)
	idx, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.idx"))
	if len(idx) != 1 {
		t.Fatalf("%d packs", len(idx))
	}
	var err error
	if idxBytes, err = os.ReadFile(idx[0]); err != nil {
		t.Fatal(err)
	}
	if packBytes, err = os.ReadFile(idx[0][:len(idx[0])-4] + ".pack"); err != nil {
		t.Fatal(err)
	}
	return objs, packBytes, idxBytes
}

// objectsWith writes an objects directory holding one pack with the given
// bytes.
func objectsWith(t *testing.T, packBytes, idxBytes []byte) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "objects")
	if err := os.MkdirAll(filepath.Join(dir, "pack"), 0o777); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "pack", "pack-0000000000000000000000000000000000000000")
	if err := os.WriteFile(base+".pack", packBytes, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base+".idx", idxBytes, 0o666); err != nil {
		t.Fatal(err)
	}
	return dir
}

// readEvery reads every object and returns the first error.
func readEvery(objectsDir string, objs []gitObject) error {
	s := New(objectsDir)
	defer s.Close()
	for _, o := range objs {
		if _, err := s.EncodedObject(plumbing.AnyObject, o.hash); err != nil {
			return err
		}
		if err := s.HasEncodedObject(o.hash); err != nil {
			return err
		}
	}
	return nil
}

func TestTruncatedIndexIsAnError(t *testing.T) {
	objs, packBytes, idxBytes := packedFixture(t)
	n := len(idxBytes)
	lengths := []int{0, 1, 4, 7, 8, 9, 100, namesOff - 1, namesOff, namesOff + trailerLen - 1,
		namesOff + trailerLen, n - trailerLen - 1, n - trailerLen, n - hashLen, n - 8, n - 1}
	for l := 0; l < n; l += 97 {
		lengths = append(lengths, l)
	}
	for _, l := range lengths {
		dir := objectsWith(t, packBytes, idxBytes[:l])
		if _, err := OpenIndex(filepath.Join(dir, "pack", "pack-0000000000000000000000000000000000000000.idx")); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("index cut to %d of %d bytes opens: %v", l, n, err)
		}
		if err := readEvery(dir, objs); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("index cut to %d of %d bytes: read gives %v", l, n, err)
		}
	}
}

func TestTruncatedPackIsAnError(t *testing.T) {
	objs, packBytes, idxBytes := packedFixture(t)
	n := len(packBytes)
	for _, l := range []int{0, 4, 11, 12, 31, 32, n / 2, n - hashLen, n - 1} {
		if err := readEvery(objectsWith(t, packBytes[:l], idxBytes), objs); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("pack cut to %d of %d bytes: %v", l, n, err)
		}
	}
}

func TestMalformedIndexFields(t *testing.T) {
	objs, packBytes, idxBytes := packedFixture(t)
	x, err := OpenIndex(filepath.Join(objectsWith(t, packBytes, idxBytes), "pack", "pack-0000000000000000000000000000000000000000.idx"))
	if err != nil {
		t.Fatal(err)
	}
	offsets := namesOff + x.Count()*(hashLen+4)
	x.Close()
	cases := map[string]func(b []byte){
		"magic":   func(b []byte) { b[0] = 'P' },
		"version": func(b []byte) { binary.BigEndian.PutUint32(b[4:], 3) },
		"fanout decreases": func(b []byte) {
			binary.BigEndian.PutUint32(b[fanoutOff+4*10:], 1<<30)
		},
		"count": func(b []byte) { binary.BigEndian.PutUint32(b[fanoutOff+4*255:], uint32(len(objs)+1)) },
		"large offset out of range": func(b []byte) {
			for i := range x.Count() {
				binary.BigEndian.PutUint32(b[offsets+4*i:], 0x80000005)
			}
		},
		"offset past the pack": func(b []byte) {
			for i := range x.Count() {
				binary.BigEndian.PutUint32(b[offsets+4*i:], uint32(len(packBytes)+1000))
			}
		},
		"offset inside the header": func(b []byte) {
			for i := range x.Count() {
				binary.BigEndian.PutUint32(b[offsets+4*i:], 3)
			}
		},
		"pack checksum": func(b []byte) { b[len(b)-trailerLen] ^= 0xff },
	}
	for name, damage := range cases {
		b := append([]byte(nil), idxBytes...)
		damage(b)
		if err := readEvery(objectsWith(t, packBytes, b), objs); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestDamagedBytesNeverPanic flips bytes all over a pack and its index and
// reads every object each time: errors are expected, a panic or a hang is
// not. (Damage can also go unseen, as in git, when it turns a delta's base
// offset into another object of the right size.)
func TestDamagedBytesNeverPanic(t *testing.T) {
	objs, packBytes, idxBytes := packedFixture(t)
	dir := objectsWith(t, packBytes, idxBytes)
	base := filepath.Join(dir, "pack", "pack-0000000000000000000000000000000000000000")
	flip := func(file string, orig []byte, stride int) {
		for i := 0; i < len(orig); i += stride {
			for _, mask := range []byte{0xff, 0x80, 0x01} {
				b := append([]byte(nil), orig...)
				b[i] ^= mask
				if err := os.WriteFile(file, b, 0o666); err != nil {
					t.Fatal(err)
				}
				_ = readEvery(dir, objs)
			}
		}
		if err := os.WriteFile(file, orig, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	flip(base+".pack", packBytes, max(1, len(packBytes)/400))
	flip(base+".idx", idxBytes, max(1, len(idxBytes)/300))
	if err := readEvery(dir, objs); err != nil {
		t.Fatalf("restored files: %v", err)
	}
}

func TestCorruptLooseObjectIsAnError(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "hello\n"})
	h := plumbing.NewHash(gittest.Rev(t, dir, "HEAD"))
	objects := filepath.Join(dir, ".git", "objects")
	p := filepath.Join(objects, h.String()[:2], h.String()[2:])
	good, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(p, 0o644)
	for name, b := range map[string][]byte{
		"empty":       {},
		"not zlib":    []byte("commit 12\x00hello world\n"),
		"truncated":   good[:len(good)/2],
		"checksum":    append(append([]byte(nil), good[:len(good)-4]...), 0, 0, 0, 0),
		"no NUL":      deflate("blob 5"),
		"bad type":    deflate("blub 5\x00hello"),
		"delta":       deflate("ofs-delta 5\x00hello"),
		"bad size":    deflate("blob -5\x00hello"),
		"huge size":   deflate("blob 99999999999999\x00hello"),
		"shorter":     deflate("blob 6\x00hello"),
		"longer":      deflate("blob 4\x00hello"),
		"long header": deflate("blob 000000000000000000000000000000000000005\x00hello"),
	} {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		s := New(objects)
		if _, err := s.EncodedObject(plumbing.AnyObject, h); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v", name, err)
		}
		s.Close()
	}
}

func deflate(s string) []byte {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

// A size beyond eagerAlloc is read by growing the buffer; a size the
// stream does not hold is an error after allocating about what the stream
// really holds, never the size claimed.
func TestLargeObjectsAndLyingSizes(t *testing.T) {
	dir := gittest.New(t)
	big := bytes.Repeat([]byte("0123456789abcdef"), (eagerAlloc+3<<20)/16) // 11 MiB
	gittest.WriteFile(t, dir, "big", string(big))
	h := plumbing.NewHash(strings.TrimSpace(gittest.Git(t, dir, "hash-object", "-w", "big")))
	objects := filepath.Join(dir, ".git", "objects")
	check := func(where string) {
		t.Helper()
		s := New(objects)
		defer s.Close()
		o, err := s.EncodedObject(plumbing.BlobObject, h)
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		if !bytes.Equal(o.(*Object).Bytes(), big) {
			t.Fatalf("%s: %d bytes differ", where, o.Size())
		}
	}
	check("loose")
	gittest.Git(t, dir, "add", "big")
	gittest.Git(t, dir, "commit", "-qm", "big")
	gittest.Git(t, dir, "gc", "-q", "--prune=now")
	check("packed")

	stream := deflate(strings.Repeat("x", 1000))
	for _, claim := range []int64{999, 1001, eagerAlloc + 1, 1 << 40} {
		r, err := zlib.NewReader(bytes.NewReader(stream))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := readExactly(r, claim, 0); !errors.Is(err, ErrCorrupt) {
			t.Errorf("1000 bytes read as %d: %v", claim, err)
		}
	}
}
