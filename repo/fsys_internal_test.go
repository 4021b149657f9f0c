package repo

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// TestAttackLinkInPlaceIsALinkErrorOnEverySystem: the primitives meet a
// symlink where a file or a directory should be with an error isLinkErr
// knows on this system (ELOOP on Linux and macOS, EMLINK on FreeBSD,
// EFTYPE on NetBSD, a reparse point on Windows), so the refusal says what
// happened ("replaced by a symlink") instead of a bare open error, and
// nothing is read through the link.
func TestAttackLinkInPlaceIsALinkErrorOnEverySystem(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "secret\n", "sub/g.txt": "g\n"})
	if err := os.Symlink("f.txt", filepath.Join(dir, "lf")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	if err := os.Symlink("sub", filepath.Join(dir, "ld")); err != nil {
		t.Fatal(err)
	}
	d, err := openWorkDir(dir, "", false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if f, err := openFileAt(d, "lf"); err == nil || !isLinkErr(err) {
		if f != nil {
			f.Close()
		}
		t.Errorf("openFileAt(link to a file) = %v; want a link error", err)
	}
	// A directory open may say "not a directory" instead (Linux checks
	// O_DIRECTORY first); openDirAt then looks at what is there.
	if f, err := openDirFile(d, "ld"); err == nil || !isLinkErr(err) && !isNotDirErr(err) {
		if f != nil {
			f.Close()
		}
		t.Errorf("openDirFile(link to a directory) = %v; want a link or not-a-directory error", err)
	}
	if _, err := openWorkDir(dir, "ld", false); !errors.Is(err, ErrPathChanged) || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("openWorkDir through a link = %v; want ErrPathChanged naming the symlink", err)
	}
	fi, err := lstatAt(d, "lf")
	if err != nil || fi.mode&os.ModeSymlink == 0 {
		t.Errorf("lstatAt(link) = %v, %v; want a symlink", fi.mode, err)
	}
	// The classes do not overlap: a missing name is not a link.
	if _, err := openFileAt(d, "missing"); !isNotExist(err) || isLinkErr(err) {
		t.Errorf("openFileAt(missing) = %v; want not-exist only", err)
	}
	if _, err := openDirFile(d, "f.txt"); !isNotDirErr(err) || isLinkErr(err) {
		t.Errorf("openDirFile(a file) = %v; want not-a-directory only", err)
	}
	// The person's files are as they were.
	if b, err := os.ReadFile(filepath.Join(dir, "f.txt")); err != nil || string(b) != "secret\n" {
		t.Errorf("f.txt = %q, %v", b, err)
	}
	gittest.Git(t, dir, "fsck", "--strict")
}
