package packidx

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/packidx/packtest"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// gitObject is one object as `git cat-file --batch` prints it.
type gitObject struct {
	hash plumbing.Hash
	typ  plumbing.ObjectType
	data []byte
}

// allObjects returns every object of the repository at dir (its alternates
// included), read by git itself.
func allObjects(t *testing.T, dir string) []gitObject {
	t.Helper()
	cmd := exec.Command("git", "cat-file", "--batch-all-objects", "--batch", "--unordered")
	cmd.Dir = dir
	cmd.Env = gittest.Env()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git cat-file: %v", err)
	}
	r := bufio.NewReader(bytes.NewReader(out))
	var objs []gitObject
	for {
		line, err := r.ReadString('\n')
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(line)
		if len(f) != 3 {
			t.Fatalf("cat-file line %q", line)
		}
		typ, err := plumbing.ParseObjectType(f[1])
		if err != nil {
			t.Fatal(err)
		}
		n, err := strconv.Atoi(f[2])
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, n+1)
		if _, err := io.ReadFull(r, b); err != nil || b[n] != '\n' {
			t.Fatalf("cat-file body of %s: %v", f[0], err)
		}
		objs = append(objs, gitObject{plumbing.NewHash(f[0]), typ, b[:n]})
	}
	return objs
}

func readAll(t *testing.T, o plumbing.EncodedObject) []byte {
	t.Helper()
	r, err := o.Reader()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// history makes commits whose files change a little each time, so that
// packing finds deltas: a long text file edited in place, a growing file,
// a nested tree, an empty file and an annotated tag.
func history(t *testing.T, dir string, from, to int) {
	t.Helper()
	for c := from; c < to; c++ {
		var long strings.Builder
		for i := range 400 {
			if i%50 == c%50 {
				fmt.Fprintf(&long, "line %d changed in commit %d\n", i, c)
			} else {
				fmt.Fprintf(&long, "line %d of a long file that deltas well\n", i)
			}
		}
		files := map[string]string{
			"long.txt":                   long.String(),
			"grow.txt":                   strings.Repeat("grow\n", 10*c+1),
			fmt.Sprintf("n/%d/f.txt", c): fmt.Sprintf("file of commit %d\n", c),
			"deep/a/b/c/d.txt":           fmt.Sprintf("deep %d\n", c%3),
			"empty":                      "",
		}
		gittest.Commit(t, dir, files)
		if c%4 == 0 {
			gittest.Git(t, dir, "tag", "-a", "-m", fmt.Sprintf("tag %d", c), fmt.Sprintf("v%d", c))
		}
	}
}

// kinds counts the objects of each stored kind in dir's objects directory:
// loose, and per pack entry type (so OFS_DELTA and REF_DELTA are told
// apart), plus the number of packs.
type kinds struct {
	loose, packs int
	byType       map[plumbing.ObjectType]int
}

func countKinds(t *testing.T, objectsDir string, objs []gitObject) kinds {
	t.Helper()
	k := kinds{byType: map[plumbing.ObjectType]int{}}
	idxs, _ := filepath.Glob(filepath.Join(objectsDir, "pack", "*.idx"))
	k.packs = len(idxs)
	for _, o := range objs {
		x := o.hash.String()
		if _, err := os.Stat(filepath.Join(objectsDir, x[:2], x[2:])); err == nil {
			k.loose++
		}
	}
	for _, name := range idxs {
		p := &pack{base: strings.TrimSuffix(name, ".idx")}
		d, err := p.data()
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range objs {
			off, err := p.idx.FindOffset(o.hash)
			if errors.Is(err, plumbing.ErrObjectNotFound) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			e, err := parseEntry(d, off)
			if err != nil {
				t.Fatal(err)
			}
			k.byType[e.typ]++
		}
		p.close()
	}
	return k
}

// compare asserts that the Store returns, for every object git lists, the
// same type, size and bytes as git cat-file and as go-git's own storage.
func compare(t *testing.T, dir string, objs []gitObject, s *Store) {
	t.Helper()
	gitDir := filepath.Join(dir, ".git")
	gg := filesystem.NewStorageWithOptions(osfs.New(gitDir), cache.NewObjectLRUDefault(),
		filesystem.Options{AlternatesFS: osfs.New("/")})
	defer gg.Close()
	for _, want := range objs {
		if err := s.HasEncodedObject(want.hash); err != nil {
			t.Fatalf("has %s: %v", want.hash, err)
		}
		got, err := s.EncodedObject(plumbing.AnyObject, want.hash)
		if err != nil {
			t.Fatalf("read %s %s: %v", want.typ, want.hash, err)
		}
		b := readAll(t, got)
		if got.Hash() != want.hash || got.Type() != want.typ || got.Size() != int64(len(want.data)) || !bytes.Equal(b, want.data) {
			t.Fatalf("%s: got %s %d bytes, git says %s %d bytes", want.hash, got.Type(), got.Size(), want.typ, len(want.data))
		}
		if h := plumbing.ComputeHash(got.Type(), b); h != want.hash {
			t.Fatalf("%s: content hashes to %s", want.hash, h)
		}
		ref, err := gg.EncodedObject(plumbing.AnyObject, want.hash)
		if err != nil {
			t.Fatalf("go-git read %s: %v", want.hash, err)
		}
		if ref.Type() != got.Type() || ref.Size() != got.Size() || !bytes.Equal(readAll(t, ref), b) {
			t.Fatalf("%s: go-git reads %s %d bytes, packidx %s %d", want.hash, ref.Type(), ref.Size(), got.Type(), got.Size())
		}
		if _, err := s.EncodedObject(otherType(want.typ), want.hash); !errors.Is(err, plumbing.ErrObjectNotFound) {
			t.Fatalf("%s read as the wrong type: %v", want.hash, err)
		}
	}
	missing := plumbing.NewHash("0123456789abcdef0123456789abcdef01234567")
	if _, err := s.EncodedObject(plumbing.AnyObject, missing); !errors.Is(err, plumbing.ErrObjectNotFound) {
		t.Fatalf("missing object: %v", err)
	}
	if err := s.HasEncodedObject(missing); !errors.Is(err, plumbing.ErrObjectNotFound) {
		t.Fatalf("has missing object: %v", err)
	}
}

func otherType(t plumbing.ObjectType) plumbing.ObjectType {
	if t == plumbing.BlobObject {
		return plumbing.TreeObject
	}
	return plumbing.BlobObject
}

// compareBoth runs compare with the delta base cache on and off: off, every
// chain is resolved from its base; on, reads start from cached bases.
func compareBoth(t *testing.T, dir string) []gitObject {
	t.Helper()
	objs := allObjects(t, dir)
	s := New(filepath.Join(dir, ".git", "objects"))
	compare(t, dir, objs, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = New(filepath.Join(dir, ".git", "objects"))
	s.cache.budget = 0
	compare(t, dir, objs, s)
	s.Close()
	return objs
}

func TestEveryObjectLoosePacksAndBothDeltaKinds(t *testing.T) {
	dir := gittest.New(t)
	history(t, dir, 0, 8)
	gittest.Git(t, dir, "gc", "-q") // pack 1: OFS_DELTA, git's default
	history(t, dir, 8, 14)
	gittest.Git(t, dir, "repack", "-q", "-d") // pack 2: incremental, without -a
	history(t, dir, 14, 20)
	// Pack 3: pack-objects without --delta-base-offset writes REF_DELTA.
	objs := gittest.Git(t, dir, "rev-list", "--objects", "HEAD", "^HEAD~6")
	cmd := exec.Command("git", "pack-objects", "-q", ".git/objects/pack/pack")
	cmd.Dir, cmd.Env, cmd.Stdin = dir, gittest.Env(), strings.NewReader(objs)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pack-objects: %v\n%s", err, out)
	}
	gittest.Git(t, dir, "prune-packed")
	history(t, dir, 20, 23) // loose

	all := compareBoth(t, dir)
	k := countKinds(t, filepath.Join(dir, ".git", "objects"), all)
	t.Logf("%d objects: %d loose, %d packs, by pack entry type %v", len(all), k.loose, k.packs, k.byType)
	if k.loose == 0 || k.packs < 3 || k.byType[plumbing.OFSDeltaObject] == 0 || k.byType[plumbing.REFDeltaObject] == 0 {
		t.Fatalf("the repository does not have every kind of storage: %+v", k)
	}
}

func TestEveryObjectAggressiveGC(t *testing.T) {
	dir := gittest.New(t)
	history(t, dir, 0, 30)
	gittest.Git(t, dir, "gc", "-q", "--aggressive", "--prune=now")
	all := compareBoth(t, dir)
	k := countKinds(t, filepath.Join(dir, ".git", "objects"), all)
	if k.packs != 1 || k.loose != 0 || k.byType[plumbing.OFSDeltaObject] == 0 {
		t.Fatalf("not one deltified pack: %+v", k)
	}
	idx, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.idx"))
	t.Logf("%d objects, by pack entry type %v; delta chains: %s", len(all), k.byType,
		strings.Join(strings.Split(strings.TrimSpace(gittest.Git(t, dir, "verify-pack", "-s", idx[0])), "\n"), "; "))
}

// TestEveryObjectGeneratedRepository covers what hand-made history does
// not: thousands of objects (binary searches over a full fanout), a tree of
// a hundred directories, and fast-import's deltas repacked by git gc.
func TestEveryObjectGeneratedRepository(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a repository of ~9,000 objects")
	}
	dir := filepath.Join(t.TempDir(), "gen")
	if err := packtest.Generate(dir, packtest.Spec{Files: 6000, Commits: 3, Touch: 800, GC: true}); err != nil {
		t.Fatal(err)
	}
	all := compareBoth(t, dir)
	k := countKinds(t, filepath.Join(dir, ".git", "objects"), all)
	t.Logf("%d objects, by pack entry type %v", len(all), k.byType)
	if k.byType[plumbing.OFSDeltaObject] == 0 {
		t.Fatalf("no deltas: %+v", k)
	}
}

func TestEveryObjectRefDeltaRepack(t *testing.T) {
	dir := gittest.New(t)
	history(t, dir, 0, 12)
	gittest.Git(t, dir, "-c", "repack.useDeltaBaseOffset=false", "repack", "-adfq")
	all := compareBoth(t, dir)
	k := countKinds(t, filepath.Join(dir, ".git", "objects"), all)
	if k.packs != 1 || k.byType[plumbing.REFDeltaObject] == 0 || k.byType[plumbing.OFSDeltaObject] != 0 {
		t.Fatalf("not one pack of REF_DELTAs: %+v", k)
	}
}

func TestEveryObjectThroughAlternates(t *testing.T) {
	src := gittest.New(t)
	history(t, src, 0, 6)
	gittest.Git(t, src, "gc", "-q")
	history(t, src, 6, 8) // loose in the alternate
	dst, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dst, "clone", "-q", "--shared", src, ".")
	history(t, dst, 8, 10) // loose in the clone itself
	if _, err := os.Stat(filepath.Join(dst, ".git", "objects", "info", "alternates")); err != nil {
		t.Fatal(err)
	}
	all := compareBoth(t, dst)
	if k := countKinds(t, filepath.Join(dst, ".git", "objects"), all); k.packs != 0 || k.loose == 0 || k.loose == len(all) {
		t.Fatalf("the clone should hold only its own loose objects: %+v", k)
	}
}

func TestReloadFindsObjectsMovedByGC(t *testing.T) {
	dir := gittest.New(t)
	history(t, dir, 0, 3)
	gittest.Git(t, dir, "gc", "-q")
	s := New(filepath.Join(dir, ".git", "objects"))
	defer s.Close()
	first := plumbing.NewHash(gittest.Rev(t, dir, "HEAD"))
	if _, err := s.EncodedObject(plumbing.CommitObject, first); err != nil {
		t.Fatal(err)
	}
	old := s.packs[0]
	history(t, dir, 3, 5)
	gittest.Git(t, dir, "gc", "-q", "--prune=now")
	head := plumbing.NewHash(gittest.Rev(t, dir, "HEAD"))
	// The store still lists the packs as they were, and the new commit is
	// only in the pack gc just wrote.
	if _, err := s.EncodedObject(plumbing.CommitObject, head); !errors.Is(err, plumbing.ErrObjectNotFound) {
		t.Fatalf("before reload: %v", err)
	}
	s.Reload()
	for _, h := range []plumbing.Hash{first, head} {
		if _, err := s.EncodedObject(plumbing.CommitObject, h); err != nil {
			t.Fatalf("after reload, %s: %v", h, err)
		}
	}
	if len(s.packs) != 1 || s.packs[0] == old || old.idx != nil || old.m != nil {
		t.Fatal("the replaced pack is still open")
	}
}

// A Store is shared by goroutines (an MCP server's requests): run with
// -race.
func TestConcurrentReadsAndReloads(t *testing.T) {
	dir := gittest.New(t)
	history(t, dir, 0, 6)
	gittest.Git(t, dir, "gc", "-q")
	history(t, dir, 6, 8)
	objs := allObjects(t, dir)
	s := New(filepath.Join(dir, ".git", "objects"))
	defer s.Close()
	errs := make(chan error, 4)
	for g := range 4 {
		go func() {
			for i := range objs {
				o := objs[(i*7+g)%len(objs)]
				got, err := s.EncodedObject(plumbing.AnyObject, o.hash)
				if err == nil && !bytes.Equal(got.(*Object).Bytes(), o.data) {
					err = fmt.Errorf("%s differs", o.hash)
				}
				if err != nil {
					errs <- err
					return
				}
				if i%10 == g {
					s.Reload()
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
