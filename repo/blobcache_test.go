package repo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/go-git/go-git/v5/plumbing"
)

func TestOlderThanIsGitsRacyRule(t *testing.T) {
	ts := func(sec, nsec int64) fsTime { return fsTime{Sec: sec, Nsec: nsec} }
	for _, tc := range []struct {
		name     string
		t, since fsTime
		want     bool
	}{
		{"an earlier second", ts(9, 999_999_999), ts(10, 0), true},
		{"earlier in the same second", ts(10, 100), ts(10, 200), true},
		{"the same tick", ts(10, 200), ts(10, 200), false},
		{"later", ts(10, 300), ts(10, 200), false},
		// Whole seconds may come from a file system that keeps no more:
		// a change later in that second would get the same timestamp.
		{"whole second, read later in it", ts(10, 0), ts(10, 500_000_000), false},
		{"whole second, read in the next", ts(10, 0), ts(11, 0), true},
	} {
		if got := olderThan(tc.t, tc.since); got != tc.want {
			t.Errorf("%s: olderThan(%v, %v) = %v, want %v", tc.name, tc.t, tc.since, got, tc.want)
		}
	}
}

// hashedRead reads rel with ReadWorkFileHashed and reports whether it
// hashed the file, checking the blob id against git's.
func hashedRead(t *testing.T, r *Repo, dir, rel string) (FileState, bool) {
	t.Helper()
	p, err := r.Resolve(dir, rel)
	if err != nil {
		t.Fatal(err)
	}
	before := diskHashes.Load()
	f, err := ReadWorkFileHashed(p, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimSpace(gittest.Git(t, dir, "hash-object", rel)); f.Blob.String() != want {
		t.Fatalf("%s: blob %s, git hash-object says %s", rel, f.Blob, want)
	}
	return f, diskHashes.Load() != before
}

// statName returns the info of the file name (followed if a link), as
// the primitives describe it.
func statName(name string) (fileInfo, error) {
	f, err := os.Open(name)
	if err != nil {
		return fileInfo{}, err
	}
	defer f.Close()
	return fstat(f)
}

// waitTick waits until the file system clock is past the timestamps of
// rel, so that a read now may be recorded.
func waitTick(t *testing.T, dir, rel string) {
	t.Helper()
	st, err := statName(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	for !olderThan(st.mtime, clockNow()) || !olderThan(st.ctime, clockNow()) {
		time.Sleep(5 * time.Millisecond)
	}
}

func TestUnchangedFileIsHashedOnce(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n"})
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	waitTick(t, dir, "f.txt")
	if _, hashed := hashedRead(t, r, dir, "f.txt"); !hashed {
		t.Fatal("the first read did not hash the file")
	}
	f, hashed := hashedRead(t, r, dir, "f.txt")
	switch trusted := trustedClock(t, dir); {
	case !trusted && !hashed:
		t.Fatal("no file system is trusted for the racy-stat rule here, yet an unchanged file's blob id came from the cache")
	case !trusted:
		// Every read hashes here (the README's racy-stat rule): the
		// rest is the same.
	case hashed:
		t.Fatal("an unchanged file was hashed again")
	case f.HashedBlob() != plumbing.ZeroHash:
		t.Fatal("a recorded blob id is offered for storing the bytes")
	}
	// The same size, other bytes: stat differs (mtime, ctime), so hashed.
	gittest.WriteFile(t, dir, "f.txt", "two\n")
	if _, hashed := hashedRead(t, r, dir, "f.txt"); !hashed {
		t.Fatal("a changed file was not hashed")
	}
	// Touched only (same bytes, new ctime): hashed again, same blob.
	waitTick(t, dir, "f.txt")
	hashedRead(t, r, dir, "f.txt")
	os.Chmod(filepath.Join(dir, "f.txt"), 0o600)
	if _, hashed := hashedRead(t, r, dir, "f.txt"); !hashed {
		t.Fatal("a file whose ctime changed was not hashed")
	}
}

// TestRacyFileIsHashedAgain: a file read in the tick (or, for timestamps
// in whole seconds, the second) of its last change is not recorded, since
// a change later in that tick would keep its stat; and changes of the same
// size made in the same tick as the read are seen.
func TestRacyFileIsHashedAgain(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n"})
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "f.txt")
	real := clockNow
	defer func() { clockNow = real }()
	for _, tc := range []struct {
		name  string
		mtime time.Time
		clock func(mtime fsTime) fsTime
	}{
		{"read in the tick of the change", time.Unix(1_700_000_000, 123_456_789),
			func(m fsTime) fsTime { return m }},
		{"whole-second mtime, read later in that second", time.Unix(1_700_000_000, 0),
			func(m fsTime) fsTime { return fsTime{Sec: m.Sec, Nsec: 900_000_000} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.Chtimes(name, tc.mtime, tc.mtime); err != nil {
				t.Fatal(err)
			}
			m := fsTime{Sec: tc.mtime.Unix(), Nsec: int64(tc.mtime.Nanosecond())}
			// The clock reads the tick of the mtime; the ctime (the real
			// clock's) is later still.
			clockNow = func() fsTime { return tc.clock(m) }
			hashedRead(t, r, dir, "f.txt")
			if _, hashed := hashedRead(t, r, dir, "f.txt"); !hashed {
				t.Fatal("a racy read was trusted")
			}
		})
	}
	clockNow = real
	// With the real clock: write, read, write the same size again at
	// once, read. Writes in one clock tick keep mtime, ctime, inode and
	// size; the second read must still see the second content.
	p, err := r.Resolve(dir, "f.txt")
	if err != nil {
		t.Fatal(err)
	}
	same := 0
	for i := range 200 {
		a, b := "aaaa\n", "bbbb\n"
		if i%2 == 1 {
			a, b = b, a
		}
		os.WriteFile(name, []byte(a), 0o644)
		sa, _ := statName(name)
		if f, err := ReadWorkFileHashed(p, 0); err != nil || f.Blob != BlobHash([]byte(a)) {
			t.Fatalf("read %q: %v, %v", a, f.Blob, err)
		}
		os.WriteFile(name, []byte(b), 0o644)
		sb, _ := statName(name)
		if sa.mtime == sb.mtime && sa.ctime == sb.ctime && sa.ino == sb.ino {
			same++
		}
		if f, err := ReadWorkFileHashed(p, 0); err != nil || f.Blob != BlobHash([]byte(b)) {
			t.Fatalf("rewrite %d: the read after %q gave %v (%q is %v), %v", i, b, f.Blob, a, BlobHash([]byte(a)), err)
		}
	}
	t.Logf("%d of 200 rewrites kept the file's stat exactly", same)
}

// TestWrittenFileIsNotHashedAgain: the file ReplaceFile wrote, with its
// blob id, is not hashed by the next read while stat says it is the same;
// any change by another program is.
func TestWrittenFileIsNotHashedAgain(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n"})
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Resolve(dir, "f.txt")
	if err != nil {
		t.Fatal(err)
	}
	cur, _ := hashedRead(t, r, dir, "f.txt")
	content := []byte("written by git-edit\n")
	// The clock after the write reads a later tick (on a fast machine
	// it may not have moved yet; then the write is racy and not recorded).
	defer func(real func() fsTime) { clockNow = real }(clockNow)
	real := clockNow
	clockNow = func() fsTime { ts := real(); ts.Sec++; return ts }
	if _, err := ReplaceFile(p, content, cur.Mode, BlobHash(content), cur); err != nil {
		t.Fatal(err)
	}
	clockNow = real
	if _, hashed := hashedRead(t, r, dir, "f.txt"); hashed && trustedClock(t, dir) {
		t.Fatal("the file git-edit just wrote was hashed on the next read")
	} else if !hashed && !trustedClock(t, dir) {
		t.Fatal("no file system is trusted for the racy-stat rule here, yet the file git-edit wrote was not hashed")
	}
	gittest.WriteFile(t, dir, "f.txt", "written by a person\n"[:len(content)])
	if _, hashed := hashedRead(t, r, dir, "f.txt"); !hashed {
		t.Fatal("a file another program wrote was not hashed")
	}
}

// trustedClock reports whether dir's file system is trusted for the
// racy-stat rule in this build (Capabilities): off Linux, and with the
// gitedit_portable tag, none is, and every read hashes.
func trustedClock(t *testing.T, dir string) bool {
	t.Helper()
	c, err := Capabilities(dir)
	if err != nil {
		t.Fatal(err)
	}
	return c.TrustedClock
}
