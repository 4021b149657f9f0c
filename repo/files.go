package repo

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"golang.org/x/sys/unix"
)

// File errors callers branch on (the dialects word their own messages).
var (
	ErrIsDirectory = errors.New("path is a directory")
	ErrNotRegular  = errors.New("not a regular file")
	ErrTooLarge    = errors.New("file too large")
	ErrPermission  = fs.ErrPermission
	// ErrReadOnly: the file has no write permission. git-edit honours that
	// even when running as root, where the kernel would not.
	ErrReadOnly = fmt.Errorf("%w: the file is read-only", fs.ErrPermission)
	// ErrFileChanged: another program changed the file between git-edit's
	// read and its write. Nothing was written; Apply retries a few times
	// before it returns this.
	ErrFileChanged = errors.New("the file changed while editing; nothing was written")
)

// DefaultMaxFileSize is the largest file git-edit reads for editing unless
// git config edit.maxFileSize says otherwise.
const DefaultMaxFileSize = 32 << 20

// FileState is one path's content: as found on disk, or as recorded.
type FileState struct {
	Path    string // relative to the worktree top, slash-separated
	Exists  bool
	Content []byte
	Mode    filemode.FileMode // filemode.Regular or filemode.Executable when Exists
	// Blob is the content's blob id once known (zero until computed); it
	// saves hashing a large file more than once per operation.
	Blob plumbing.Hash
	// perm holds the permission bits found on disk (ReadWorkFile only).
	perm fs.FileMode
}

// entry is the tree entry this state would be recorded as.
func (f FileState) entry() Entry {
	if !f.Exists {
		return Entry{}
	}
	if f.Blob.IsZero() {
		f.Blob = BlobHash(f.Content)
	}
	return Entry{Hash: f.Blob, Mode: f.Mode}
}

// splitRel splits a slash-separated relative path into its directory
// ("" for the top) and base name.
func splitRel(rel string) (dir, name string) {
	dir, name = path.Split(rel)
	return strings.TrimSuffix(dir, "/"), name
}

// ReadWorkFile reads a worktree file for editing, through a directory
// handle (see workDir): no symlink is followed anywhere on the path. A
// missing file is a FileState with Exists false and no error. Refused,
// without blocking: directories (ErrIsDirectory), anything but a regular
// file such as a FIFO, device, socket or symlink (ErrNotRegular), files
// larger than maxSize (ErrTooLarge), unreadable files (ErrPermission), and
// paths whose directories were replaced by a symlink or a file
// (ErrPathChanged).
func ReadWorkFile(p Path, maxSize int64) (FileState, error) {
	st := FileState{Path: p.Rel}
	top, err := p.top()
	if err != nil {
		return st, err
	}
	dir, name := splitRel(p.Rel)
	d, err := openWorkDir(top, dir, false)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, err
	}
	defer d.Close()
	fi, err := lstatAt(d, name)
	switch {
	case errors.Is(err, unix.ENOENT):
		return st, nil
	case err != nil:
		return st, fmt.Errorf("inspect %s: %w", p.Rel, err)
	}
	if err := checkReadable(p.Rel, fi, maxSize); err != nil {
		return st, err
	}
	// O_NOFOLLOW and O_NONBLOCK: if the file was swapped for a link or a
	// FIFO since the stat, fail instead of following or hanging.
	f, err := openFileAt(d, name)
	if err != nil {
		return st, fmt.Errorf("open %s: %w", p.Rel, err)
	}
	defer f.Close()
	if fi, err = fstat(f); err != nil {
		return st, fmt.Errorf("inspect %s: %w", p.Rel, err)
	}
	if err := checkReadable(p.Rel, fi, maxSize); err != nil {
		return st, err
	}
	content := make([]byte, fi.size)
	if _, err := io.ReadFull(f, content); err != nil {
		return st, fmt.Errorf("read %s: %w", p.Rel, err)
	}
	st.Exists, st.Content, st.Mode, st.perm = true, content, modeOf(fi.mode), fi.mode.Perm()
	return st, nil
}

// checkReadable refuses what ReadWorkFile does not read.
func checkReadable(rel string, fi fileInfo, maxSize int64) error {
	switch {
	case fi.mode.IsDir():
		return fmt.Errorf("%w: %s", ErrIsDirectory, rel)
	case !fi.mode.IsRegular():
		return fmt.Errorf("%w: %s is a %s", ErrNotRegular, rel, Kind(fi.mode))
	case fi.mode.Perm()&0o400 == 0:
		// Honoured even as root, where the kernel would not refuse.
		return fmt.Errorf("%w: %s is not readable (mode %v); make it readable (chmod u+r) if it should be edited", ErrPermission, rel, fi.mode.Perm())
	case maxSize > 0 && fi.size > maxSize:
		return fmt.Errorf("%w: %s is %d bytes, over the limit of %d bytes; raise it with `git config edit.maxFileSize 64m` if the file should be edited", ErrTooLarge, rel, fi.size, maxSize)
	}
	return nil
}

// readOnlyError refuses to write a file without write permission.
func readOnlyError(rel string) error {
	return fmt.Errorf("%w: %s; make it writable (chmod u+w) if it should be edited", ErrReadOnly, rel)
}

func modeOf(m fs.FileMode) filemode.FileMode {
	if m.Perm()&0o111 != 0 {
		return filemode.Executable
	}
	return filemode.Regular
}

// Kind names a file mode that is not a regular file, for messages:
// "symlink", "FIFO", "device", "socket", "directory" or "special file".
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeDevice != 0:
		return "device"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m.IsDir():
		return "directory"
	}
	return "special file"
}

// changedError reports that another program changed rel between git-edit's
// read and its write.
func changedError(rel, how string) error {
	return fmt.Errorf("%s: %w (%s by another program since git-edit read it); run the command again", rel, ErrFileChanged, how)
}

// writeFileAtomic replaces the file at p with content so that a reader (or
// a crash) sees either the old bytes or the new, never a mix: a temporary
// file in the same directory, fsync, rename, fsync of the directory, all
// relative to a directory handle (no symlink followed). An existing file
// keeps its permission bits, with the executable bits set or cleared to
// match mode, and its owner and group; a new file gets 0666 or 0777 less
// the umask, and its missing parent directories are created.
//
// expect is what the caller read from disk. Immediately before the rename
// the file must still hold exactly those bytes (or still be missing), and
// right after it the replaced file is read again: if another program wrote
// to it in between, its bytes are put back and the error wraps
// ErrFileChanged. What remains is a program that keeps the file open and
// writes to it after that last read: its writes go to the replaced copy.
func writeFileAtomic(p Path, content []byte, mode filemode.FileMode, expect FileState) error {
	return writeFile(p, content, mode, expect, false)
}

// writeFile is writeFileAtomic; putBack is true when it puts back another
// program's bytes (see putBackIfWritten), which is checked before its rename
// like any write but not read again after it, so that a writer that never
// stops cannot keep git-edit putting back forever.
func writeFile(p Path, content []byte, mode filemode.FileMode, expect FileState, putBack bool) error {
	top, err := p.top()
	if err != nil {
		return err
	}
	dir, name := splitRel(p.Rel)
	d, err := openWorkDir(top, dir, !expect.Exists)
	if errors.Is(err, fs.ErrNotExist) {
		return changedError(p.Rel, "its directory was removed")
	}
	if err != nil {
		return err
	}
	defer d.Close()
	var perm fs.FileMode = 0o666
	if mode == filemode.Executable {
		perm = 0o777
	}
	cur, err := lstatAt(d, name)
	exists := err == nil
	switch {
	case err != nil && !errors.Is(err, unix.ENOENT):
		return fmt.Errorf("inspect %s: %w", p.Rel, err)
	case exists != expect.Exists:
		return changedError(p.Rel, map[bool]string{true: "it was created", false: "it was deleted"}[exists])
	case exists && !cur.mode.IsRegular():
		return changedError(p.Rel, "it was replaced by a "+Kind(cur.mode))
	case exists && cur.mode.Perm()&0o200 == 0:
		return readOnlyError(p.Rel)
	case exists:
		perm = cur.mode.Perm()
		if mode == filemode.Executable {
			perm |= (perm & 0o444) >> 2
		} else {
			perm &^= 0o111
		}
	}
	prefix := "." + name + ".git-edit-"
	removeStaleTemps(d, prefix)
	var suffix [6]byte
	rand.Read(suffix[:])
	tmp := prefix + hex.EncodeToString(suffix[:])
	fd, err := unix.Openat(d.fd(), tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm))
	if err != nil {
		return fmt.Errorf("create temporary file for %s: %w", p.Rel, err)
	}
	f := os.NewFile(uintptr(fd), tmp)
	removeTmp := func() { unix.Unlinkat(d.fd(), tmp, 0) }
	fail := func(err error) error {
		f.Close()
		removeTmp()
		return err
	}
	if _, err := f.Write(content); err != nil {
		return fail(fmt.Errorf("write %s: %w", p.Rel, err))
	}
	crashPoint("temp-written")
	if exists {
		// The umask applied at creation; an existing file's bits win.
		if err := f.Chmod(perm); err != nil {
			return fail(fmt.Errorf("chmod %s: %w", p.Rel, err))
		}
		if err := keepOwner(f, p.Rel, cur); err != nil {
			return fail(err)
		}
	}
	if err := f.Sync(); err != nil {
		return fail(fmt.Errorf("sync %s: %w", p.Rel, err))
	}
	if err := f.Close(); err != nil {
		removeTmp()
		return fmt.Errorf("close %s: %w", p.Rel, err)
	}
	if !putBack {
		pause("before-rename", p.Rel)
	}
	old, err := openUnchanged(d, name, p.Rel, expect)
	if err != nil {
		removeTmp()
		return err
	}
	if !putBack {
		pause("checked", p.Rel)
	}
	if old == nil {
		// A new file: the rename must not replace one created meanwhile.
		err = unix.Renameat2(d.fd(), tmp, d.fd(), name, unix.RENAME_NOREPLACE)
		if errors.Is(err, unix.EEXIST) {
			removeTmp()
			return changedError(p.Rel, "it was created")
		}
	} else {
		defer old.Close()
		err = unix.Renameat(d.fd(), tmp, d.fd(), name)
	}
	if err != nil {
		removeTmp()
		return fmt.Errorf("replace %s: %w", p.Rel, err)
	}
	if err := d.f.Sync(); err != nil {
		return fmt.Errorf("sync directory of %s: %w", p.Rel, err)
	}
	if old != nil && !putBack {
		return putBackIfWritten(p, old, expect, FileState{Exists: true, Content: content, Mode: mode})
	}
	return nil
}

// removeFile deletes the file at p (undoing its creation) through a
// directory handle, with the same check as writeFileAtomic: the file must
// still hold expect's bytes right before the unlink, and bytes another
// program wrote to it in the meantime are put back (ErrFileChanged). A file
// already gone, as expected, is not an error.
func removeFile(p Path, expect FileState) error {
	top, err := p.top()
	if err != nil {
		return err
	}
	dir, name := splitRel(p.Rel)
	d, err := openWorkDir(top, dir, false)
	if errors.Is(err, fs.ErrNotExist) {
		if expect.Exists {
			return changedError(p.Rel, "it was deleted")
		}
		return nil
	}
	if err != nil {
		return err
	}
	defer d.Close()
	pause("before-rename", p.Rel)
	old, err := openUnchanged(d, name, p.Rel, expect)
	if err != nil || old == nil {
		return err
	}
	pause("checked", p.Rel)
	defer old.Close()
	if err := unix.Unlinkat(d.fd(), name, 0); err != nil {
		return fmt.Errorf("remove %s: %w", p.Rel, err)
	}
	if err := d.f.Sync(); err != nil {
		return fmt.Errorf("sync directory of %s: %w", p.Rel, err)
	}
	return putBackIfWritten(p, old, expect, FileState{})
}

// openUnchanged checks that name in d still holds what expect says and
// returns the file, open for reading, so that it can be read again after
// the rename (nil when expect says it does not exist, and it does not).
func openUnchanged(d *workDir, name, rel string, expect FileState) (*os.File, error) {
	if !expect.Exists {
		if _, err := lstatAt(d, name); err == nil {
			return nil, changedError(rel, "it was created")
		}
		return nil, nil
	}
	f, err := openFileAt(d, name)
	switch {
	case errors.Is(err, unix.ENOENT):
		return nil, changedError(rel, "it was deleted")
	case errors.Is(err, unix.ELOOP):
		return nil, changedError(rel, "it was replaced by a symlink")
	case err != nil:
		return nil, fmt.Errorf("open %s: %w", rel, err)
	}
	same, err := holds(f, expect.Content)
	if err == nil && !same {
		err = changedError(rel, "it was written")
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// holds reports whether the open file f holds exactly want, reading it from
// its start in small pieces (no second copy of a large file in memory).
func holds(f *os.File, want []byte) (bool, error) {
	fi, err := fstat(f)
	if err != nil {
		return false, fmt.Errorf("inspect %s: %w", f.Name(), err)
	}
	if !fi.mode.IsRegular() || fi.size != int64(len(want)) {
		return false, nil
	}
	buf := make([]byte, min(len(want)+1, 64<<10))
	for off := 0; ; {
		n, err := f.ReadAt(buf, int64(off))
		if n > len(want)-off || !bytes.Equal(buf[:n], want[off:off+n]) {
			return false, nil
		}
		off += n
		if errors.Is(err, io.EOF) {
			return off == len(want), nil
		}
		if err != nil {
			return false, fmt.Errorf("read %s: %w", f.Name(), err)
		}
	}
}

// putBackIfWritten reads the replaced file old once more. If another
// program wrote to it after the check (between the check and the rename,
// or through a descriptor opened before the rename), its bytes would be
// lost: they are written back at p, replacing ours (now), and the error
// wraps ErrFileChanged.
func putBackIfWritten(p Path, old *os.File, expect, now FileState) error {
	if same, err := holds(old, expect.Content); err != nil || same {
		return err
	}
	again, err := io.ReadAll(io.NewSectionReader(old, 0, 1<<62))
	if err != nil {
		return fmt.Errorf("read %s again: %w", p.Rel, err)
	}
	restore := writeFile(p, again, expect.Mode, now, true)
	if restore != nil {
		return errors.Join(changedError(p.Rel, "it was written"), fmt.Errorf("putting back its bytes failed: %w", restore))
	}
	return changedError(p.Rel, "it was written")
}

// keepOwner gives the temporary file f the owner and group of the file it
// replaces, so that an edit never changes who owns a file (when git-edit
// runs as root, or as a member of the file's group).
func keepOwner(f *os.File, rel string, cur fileInfo) error {
	uid, gid := -1, -1
	if int(cur.uid) != os.Geteuid() {
		uid = int(cur.uid)
	}
	if int(cur.gid) != os.Getegid() {
		gid = int(cur.gid)
	}
	if uid == -1 && gid == -1 {
		return nil
	}
	if err := f.Chown(uid, gid); err != nil {
		return fmt.Errorf("%w: %s is owned by uid %d, gid %d, and git-edit (uid %d) cannot give the rewritten file that owner and group (%v); nothing was written; run git-edit as the file's owner", ErrPermission, rel, cur.uid, cur.gid, os.Geteuid(), err)
	}
	return nil
}

// removeStaleTemps deletes temporary files of this path left by a writer
// that crashed: under the edit lock no other writer can own one.
func removeStaleTemps(d *workDir, prefix string) {
	dup, err := unix.Openat(d.fd(), ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	list := os.NewFile(uintptr(dup), d.rel)
	defer list.Close()
	names, _ := list.Readdirnames(-1)
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			unix.Unlinkat(d.fd(), n, 0)
		}
	}
}
