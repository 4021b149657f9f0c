package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Every worktree file operation goes through a workDir: the directory that
// holds the file, opened from the worktree's top one component at a time
// with O_NOFOLLOW|O_DIRECTORY, so that no symlink is ever followed on the
// way. The file itself is then read, created, renamed and removed by its
// base name relative to that handle (openat, renameat, unlinkat). A
// directory swapped for a symlink between Resolve and the write therefore
// makes the operation fail instead of redirecting it, whether the link
// points outside the root or into .git.
//
// os.Root is not used because it follows symlinks that stay inside the
// root: a swapped directory could still redirect a write into .git or onto
// another tracked file, and the recorded path would no longer be the one
// written. Refusing every symlink needs the per-component O_NOFOLLOW walk,
// which is what os.Root does internally minus the link resolution.

// ErrPathChanged wraps the refusal of a path whose directories are no
// longer plain directories (replaced by a symlink or a file) when the
// operation reaches them.
var ErrPathChanged = fmt.Errorf("%w: a directory on the path was replaced", ErrPathRefused)

// workDir is an open directory of the worktree.
type workDir struct {
	f   *os.File
	rel string // slash-separated, relative to the top; "" is the top
}

func (d *workDir) fd() int      { return int(d.f.Fd()) }
func (d *workDir) Close() error { return d.f.Close() }

// top returns the worktree top p belongs to: the one Resolve recorded, or
// for a Path made by hand, Abs less Rel.
func (p Path) top() (string, error) {
	if p.worktree != "" {
		return p.worktree, nil
	}
	rel := strings.ReplaceAll(p.Rel, "/", string(os.PathSeparator))
	top, ok := strings.CutSuffix(p.Abs, string(os.PathSeparator)+rel)
	if !ok || p.Rel == "" {
		return "", fmt.Errorf("internal error: path %q is not %q below a worktree", p.Abs, p.Rel)
	}
	if top == "" {
		top = string(os.PathSeparator)
	}
	return top, nil
}

// openWorkDir opens the directory dir (slash-separated, relative to top)
// without following any symlink. With create, missing directories are made
// (mode 0777 less the umask). Errors: one wrapping fs.ErrNotExist when a
// directory is missing and create is false; one wrapping ErrPathChanged when
// a component is a symlink or not a directory.
func openWorkDir(top, dir string, create bool) (*workDir, error) {
	d, _, err := openWorkDirMaking(top, dir, create)
	return d, err
}

// openWorkDirMaking is openWorkDir that also returns the directories it
// created (relative to top, parents first), also when it fails after
// creating some.
func openWorkDirMaking(top, dir string, create bool) (*workDir, []string, error) {
	var made []string
	f, err := os.OpenFile(top, os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		// Not wrapped: a worktree that cannot be opened must not read as
		// "file missing" (fs.ErrNotExist) to the callers.
		return nil, nil, fmt.Errorf("open the worktree %s: %s", top, err.Error())
	}
	d := &workDir{f: f}
	if dir == "" || dir == "." {
		return d, nil, nil
	}
	for _, name := range strings.Split(dir, "/") {
		if name == "" || name == "." || name == ".." {
			d.Close()
			return nil, made, fmt.Errorf("internal error: %q is not a clean relative path", dir)
		}
		next, created, err := openDirAt(d, name, create)
		if created {
			made = append(made, path.Join(d.rel, name))
		}
		d.Close()
		if err != nil {
			return nil, made, err
		}
		d = next
	}
	return d, made, nil
}

// RemoveDirs removes the directories dirs (relative to the top of p's
// worktree, as ReplaceFileMaking returns them), deepest first, each only
// when it is empty: a directory someone put anything in since stays. It
// never follows a symlink. Errors other than "not empty" and "gone" are
// joined.
func RemoveDirs(p Path, dirs []string) error {
	top, err := p.top()
	if err != nil {
		return err
	}
	sorted := slices.Clone(dirs)
	// Deeper first: a path sorts after its parent.
	slices.Sort(sorted)
	var errs []error
	for _, dir := range slices.Backward(slices.Compact(sorted)) {
		if _, err := removeEmptyDir(top, dir); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// removeEmptyDir removes the directory dir below top if it is empty
// (rmdir through its parent's handle). removed is false, without an error,
// when it is not empty, is gone, or is not a directory.
func removeEmptyDir(top, dir string) (removed bool, err error) {
	parent, name := splitRel(dir)
	d, err := openWorkDir(top, parent, false)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer d.Close()
	err = unix.Unlinkat(d.fd(), name, unix.AT_REMOVEDIR)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, unix.ENOTEMPTY), errors.Is(err, unix.EEXIST), errors.Is(err, unix.ENOENT), errors.Is(err, unix.ENOTDIR):
		return false, nil
	}
	return false, fmt.Errorf("remove directory %s: %w", dir, err)
}

// removeEmptiedDirs removes dir (relative to top) and then each parent
// while it is empty, as `git rm` does after removing a file; the top
// itself always stays. Like git's, it is best effort: a directory it
// cannot remove (a mount point, no permission) stays, without an error.
func removeEmptiedDirs(top, dir string) {
	for dir != "" && dir != "." {
		if removed, err := removeEmptyDir(top, dir); err != nil || !removed {
			return
		}
		dir, _ = splitRel(dir)
	}
}

// openDirAt opens the directory name inside d, never through a symlink.
// created says whether it made the directory.
func openDirAt(d *workDir, name string, create bool) (_ *workDir, created bool, _ error) {
	rel := path.Join(d.rel, name)
	for attempt := 0; ; attempt++ {
		fd, err := unix.Openat(d.fd(), name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err == nil {
			return &workDir{f: os.NewFile(uintptr(fd), rel), rel: rel}, created, nil
		}
		switch {
		case errors.Is(err, unix.ENOENT) && create && attempt < 3:
			err := unix.Mkdirat(d.fd(), name, 0o777)
			if err != nil && !errors.Is(err, unix.EEXIST) {
				return nil, created, fmt.Errorf("create directory %s: %w", rel, err)
			}
			created = created || err == nil
			continue
		case errors.Is(err, unix.ENOENT):
			return nil, created, fmt.Errorf("directory %s: %w", rel, fs.ErrNotExist)
		case errors.Is(err, unix.ELOOP), errors.Is(err, unix.ENOTDIR):
			return nil, created, notDirError(d, name, rel)
		}
		return nil, created, fmt.Errorf("open directory %s: %w", rel, err)
	}
}

// notDirError is the refusal of name inside d, found not to be a
// directory where a path needs one. A symlink there is what a swap makes
// (ErrPathChanged's words); a file or anything else is said to be what it
// is, since the path may simply name a file as a directory (a.txt/b.txt),
// which is no race. Either wraps ErrPathChanged: nothing was read or
// written below it.
func notDirError(d *workDir, name, rel string) error {
	fi, err := lstatAt(d, name)
	switch {
	case err != nil, fi.mode&fs.ModeSymlink != 0:
		return fmt.Errorf("%w: %s is not a directory (a symlink is in its place); nothing was read or written there", ErrPathChanged, rel)
	case fi.mode.IsDir():
		// A directory again by now: it was swapped and swapped back.
		return fmt.Errorf("%w: %s was not a directory when it was opened; nothing was read or written there", ErrPathChanged, rel)
	}
	what := "a file"
	if !fi.mode.IsRegular() {
		what = "a " + Kind(fi.mode)
	}
	return &pathKindError{msg: fmt.Sprintf("%v: %s is %s, not a directory, so no path lies under it; give the path of a file (or move %s away first if a directory should take its place); nothing was read or written", ErrPathRefused, rel, what, rel)}
}

// pathKindError is a path that runs through something that is not a
// directory: refused as ErrPathChanged is, worded for what is there.
type pathKindError struct{ msg string }

func (e *pathKindError) Error() string { return e.msg }
func (e *pathKindError) Unwrap() error { return ErrPathChanged }

// lstatAt returns name's file info inside d without following a symlink.
func lstatAt(d *workDir, name string) (fileInfo, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd(), name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return fileInfo{}, err
	}
	return infoOf(&st), nil
}

// fileInfo is what git-edit needs of a file's metadata.
type fileInfo struct {
	mode     fs.FileMode
	size     int64
	uid, gid uint32
	dev, ino uint64
	// mtime and ctime as the file system keeps them (see blobcache.go).
	mtime, ctime unix.Timespec
}

// same reports whether two infos describe the same file (not a copy).
func (fi fileInfo) same(other fileInfo) bool { return fi.dev == other.dev && fi.ino == other.ino }

func infoOf(st *unix.Stat_t) fileInfo {
	mode := fs.FileMode(st.Mode & 0o777)
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	}
	return fileInfo{mode: mode, size: st.Size, uid: st.Uid, gid: st.Gid, dev: uint64(st.Dev), ino: st.Ino, mtime: st.Mtim, ctime: st.Ctim}
}

// fstat returns an open file's info.
func fstat(f *os.File) (fileInfo, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return fileInfo{}, err
	}
	return infoOf(&st), nil
}

// openFileAt opens name inside d for reading without following a symlink
// and without blocking on a FIFO.
func openFileAt(d *workDir, name string) (*os.File, error) {
	fd, err := unix.Openat(d.fd(), name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), path.Join(d.rel, name)), nil
}

// renameNoReplace (fsys_<os>.go) renames from to to inside d unless to
// exists (EEXIST), atomically; exchange (fsys_<os>.go) swaps the files
// named a and b inside d atomically, or returns errNoExchange with nothing
// changed.

// linkRename renames from to to inside d unless to exists (EEXIST) by
// linking and unlinking: as atomic for this purpose as a rename that does
// not replace, for systems and file systems without one.
func linkRename(d *workDir, from, to string) error {
	if err := unix.Linkat(d.fd(), from, d.fd(), to, 0); err != nil {
		return err
	}
	// Here both names are the file: a file renamed to from now would be
	// unlinked next, so no caller moves a name others may save to this way.
	Pause("linked", path.Join(d.rel, from))
	return unix.Unlinkat(d.fd(), from, 0)
}

// errNoExchange: the file system cannot swap two names atomically.
var errNoExchange = errors.New("no RENAME_EXCHANGE")
