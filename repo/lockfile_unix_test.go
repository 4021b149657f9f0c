//go:build unix

package repo_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/git-edit/git-edit/repo"
	"golang.org/x/sys/unix"
)

// One holder at a time, whatever the platform's lock call (flock here,
// LockFileEx on Windows): a second open file of the same path cannot take
// the lock until the first drops it, by UnlockFile or by closing.
func TestTryLockFileOneHolderAtATime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	open := func() *os.File {
		f, err := repo.OpenStateFile(path, os.O_RDWR|os.O_CREATE, 0o666)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	a, b := open(), open()
	if ok, err := repo.TryLockFile(a); !ok || err != nil {
		t.Fatalf("first lock: ok=%v err=%v", ok, err)
	}
	if ok, err := repo.TryLockFile(b); ok || err != nil {
		t.Fatalf("second holder: ok=%v err=%v, want refused without error", ok, err)
	}
	if err := repo.UnlockFile(a); err != nil {
		t.Fatal(err)
	}
	if ok, err := repo.TryLockFile(b); !ok || err != nil {
		t.Fatalf("after unlock: ok=%v err=%v", ok, err)
	}
	b.Close()
	if ok, err := repo.TryLockFile(open()); !ok || err != nil {
		t.Fatalf("after the holder closed: ok=%v err=%v", ok, err)
	}
}

// A symlink at a state path git-edit owns is never followed: the open is
// refused with an error IsLinkError reports, and neither the link nor
// what it points at changes.
func TestOpenStateFileNoFollowRefusesALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("someone's file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "index.lock")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	f, err := repo.OpenStateFileNoFollow(link, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
	if err == nil {
		f.Close()
		t.Fatal("opened through a symlink")
	}
	if !repo.IsLinkError(err) {
		t.Fatalf("IsLinkError(%v) = false", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "someone's file\n" {
		t.Fatalf("target changed: %q", b)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the link changed: %v %v", fi, err)
	}
}

// The errno a no-follow open gives for a link on this system is a link
// error: ELOOP (Linux, macOS; also the BSDs), EMLINK only on FreeBSD and
// DragonFly (elsewhere it means too many hard links); others are not.
func TestIsLinkErrorKnowsEveryNoFollowErrno(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{&fs.PathError{Op: "open", Path: "x", Err: unix.ELOOP}, true},
		{&fs.PathError{Op: "open", Path: "x", Err: unix.EMLINK}, runtime.GOOS == "freebsd" || runtime.GOOS == "dragonfly"},
		{&fs.PathError{Op: "open", Path: "x", Err: unix.ENOENT}, false},
		{errors.New("other"), false},
	} {
		if got := repo.IsLinkError(c.err); got != c.want {
			t.Errorf("IsLinkError(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

// A path through a file is "not a directory", as ENOTDIR says.
func TestIsNotDirErrorOnAPathThroughAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := os.Lstat(filepath.Join(file, "below"))
	if !repo.IsNotDirError(err) {
		t.Fatalf("IsNotDirError(%v) = false", err)
	}
	if repo.IsNotDirError(fs.ErrNotExist) {
		t.Fatal("IsNotDirError(ErrNotExist) = true")
	}
}
