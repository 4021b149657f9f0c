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
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
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
	// ErrRestoreFailed: an operation failed, and putting the files back as
	// they were failed too; the error says which file holds what.
	ErrRestoreFailed = errors.New("restoring the files failed")
	// ErrFileBusy: another program kept the file open for writing for
	// longer than git-edit waits (busyWait); nothing was written, since
	// what it writes after the swap would go to the replaced copy.
	ErrFileBusy = errors.New("the file is open for writing by another program; nothing was written")
)

// DefaultMaxFileSize is the largest file git-edit reads for editing unless
// git config edit.maxFileSize says otherwise.
const DefaultMaxFileSize = 32 << 20

// FileState is one path's content: as found on disk, or as recorded.
type FileState struct {
	Path    string // relative to the worktree top, slash-separated
	Exists  bool
	Content []byte
	// Mode is filemode.Regular or filemode.Executable for a file read
	// from disk; session.Tx gives it as git add would record it
	// (Checkout.RecordedMode), which may be filemode.Symlink, as may a
	// recorded state's.
	Mode filemode.FileMode
	// Blob is the content's blob id once known (zero until computed); it
	// saves hashing a large file more than once per operation.
	Blob plumbing.Hash
	// perm, uid and gid are the permission bits and owner found on disk
	// (ReadWorkFile only); a file put back after a failed operation gets
	// them again.
	perm     fs.FileMode
	uid, gid uint32
	// blobRecorded: Blob came from this process's record of the file
	// (ReadWorkFileHashed), not from hashing Content.
	blobRecorded bool
}

// HashedBlob is Blob when it was computed from Content itself, else zero.
// Only such an id may name Content as a stored object: a blob id taken
// from the record of a file's stat decides whether the file changed, but
// is never trusted to name its bytes in the object store.
func (f FileState) HashedBlob() plumbing.Hash {
	if f.blobRecorded {
		return plumbing.ZeroHash
	}
	return f.Blob
}

// Entry is the tree entry this state would be recorded as (the zero Entry
// for no file); it hashes the content unless Blob is already known.
func (f FileState) Entry() Entry {
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
	return readWorkFile(p, maxSize, false)
}

// ReadWorkFileHashed is ReadWorkFile with Blob set for an existing file:
// the blob id this process recorded for the file when stat says it is
// unchanged since (see blobcache.go), else the hash of the bytes read.
func ReadWorkFileHashed(p Path, maxSize int64) (FileState, error) {
	return readWorkFile(p, maxSize, true)
}

func readWorkFile(p Path, maxSize int64, hash bool) (FileState, error) {
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
	case isNotExist(err):
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
	since := clockNow() // before the stat: see recordBlob
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
	st.Exists, st.Content, st.Mode = true, content, modeOf(fi.mode)
	st.perm, st.uid, st.gid = fi.mode.Perm(), fi.uid, fi.gid
	if hash {
		var known bool
		if st.Blob, known = recordedBlob(fi); known {
			st.blobRecorded = true
		} else {
			diskHashes.Add(1)
			st.Blob = BlobHash(content)
			// Bytes changed after the stat give a later mtime than
			// since, so fi no longer describes the file: the record
			// of what was read is never found for them.
			recordBlob(f, fi, st.Blob, since, true)
		}
	}
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

// CheckWritable refuses, wrapping ErrReadOnly, a file read from disk
// (ReadWorkFile) that has no write permission for its owner; git-edit
// honours that even as root. A missing file, or a state not read from
// disk, passes.
func (f FileState) CheckWritable() error {
	if f.Exists && f.perm != 0 && f.perm&0o200 == 0 {
		return readOnlyError(f.Path)
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

// ReplaceFile replaces the file at p with content so that a reader (or
// a crash, or a power cut) sees either the old bytes or the new, never a
// mix: a temporary file in the same directory, fsync, an atomic swap with
// the file, all relative to a directory handle (no symlink followed).
//
// The directory is not fsynced: a swap that a power cut undoes leaves the
// old bytes, as a crash just before it would, and the ref's lock file,
// fsynced after every file is written, commits the swap on file systems
// that journal metadata in order (ext4, XFS). See the README's "Power loss
// and crashes".
// An existing file keeps its permission bits (the executable bits follow
// mode), its owner and its group; a new file gets 0666 or 0777 less the
// umask, and its missing parent directories are created.
//
// expect is what the caller read from disk. Immediately before the swap the
// file must still hold exactly those bytes (or still be missing); right
// after it, the file swapped out must be the very file that was checked and
// must still hold those bytes. Otherwise another program wrote or replaced
// it in between: its file is swapped back, nothing of ours stays, and the
// error wraps ErrFileChanged. What remains is a program that keeps the file
// open and writes to it after that last check: its writes go to the
// replaced copy. A file without write permission for its owner is refused
// (ErrReadOnly), even as root. replaced reports whether the file at p is
// ours on return (true with an error only when putting another program's
// bytes back failed). The caller must hold the edit lock (Repo.Lock):
// temporary files of p's name found beside it are taken for a dead
// writer's and removed.
//
// blob is content's blob id (BlobHash) when the caller knows it, else zero;
// with it, the next ReadWorkFileHashed of the file in this process need
// not hash it (see blobcache.go).
func ReplaceFile(p Path, content []byte, mode filemode.FileMode, blob plumbing.Hash, expect FileState) (replaced bool, err error) {
	return writeFile(p, FileState{Content: content, Mode: mode, Blob: blob}, expect, false, nil)
}

// ReplaceFileMaking is ReplaceFile that also returns the directories it
// created for a new file (relative to the worktree top, parents first),
// so that an operation that fails later removes them again (RemoveDirs):
// all or nothing includes directories. When the write itself fails, the
// directories it created are already removed, and made is empty.
func ReplaceFileMaking(p Path, content []byte, mode filemode.FileMode, blob plumbing.Hash, expect FileState) (replaced bool, made []string, err error) {
	replaced, err = writeFile(p, FileState{Content: content, Mode: mode, Blob: blob}, expect, false, &made)
	return replaced, made, err
}

// writeFile is ReplaceFile for want's content and mode. A want read
// from disk (a file put back) that is created anew gets its permission bits,
// owner and group again. restoring marks a write that puts bytes back (a
// failed operation's files): it is checked like any write, but has no pause
// points and puts nothing back of its own, so that a writer that never
// stops cannot keep git-edit putting back forever. made, when not nil,
// gets the directories created for the file once it is in place; when the
// file is not put in place, they are removed again.
func writeFile(p Path, want, expect FileState, restoring bool, made *[]string) (replaced bool, err error) {
	top, err := p.top()
	if err != nil {
		return false, err
	}
	dir, name := splitRel(p.Rel)
	d, created, err := openWorkDirMaking(top, dir, !expect.Exists)
	defer func() {
		// The directories made for a file that is not in place go again.
		if !replaced {
			if rerr := RemoveDirs(p, created); rerr != nil {
				err = errors.Join(err, rerr)
			}
		} else if made != nil {
			*made = append(*made, created...)
		}
	}()
	if errors.Is(err, fs.ErrNotExist) {
		return false, changedError(p.Rel, "its directory was removed")
	}
	if err != nil {
		return false, err
	}
	defer d.Close()
	cur, err := lstatAt(d, name)
	exists := err == nil
	switch {
	case err != nil && !isNotExist(err):
		return false, fmt.Errorf("inspect %s: %w", p.Rel, err)
	case exists != expect.Exists:
		return false, changedError(p.Rel, map[bool]string{true: "it was created", false: "it was deleted"}[exists])
	case exists && !cur.mode.IsRegular():
		return false, changedError(p.Rel, "it was replaced by a "+Kind(cur.mode))
	case exists && cur.mode.Perm()&0o200 == 0:
		return false, readOnlyError(p.Rel)
	}
	perm, owner, setPerm := newFileAttrs(cur, exists, want)
	// The extended attributes (ACLs, labels) go with the inode: read them
	// from the file now, to give them to ours (keepXattrs); the file
	// checked before the swap must be this one (attrsFrom).
	var attrs []xattr
	var attrsFrom fileInfo
	if exists {
		if attrs, attrsFrom, err = xattrsAt(d, name, p.Rel); err != nil {
			return false, err
		}
	}
	removeStaleTemps(d, name)
	tmp := tempName(name)
	p.noteTemp("new", top, dir, name, tmp)
	f, err := createAt(d, tmp, perm)
	if err != nil {
		return false, fmt.Errorf("create temporary file for %s: %w", p.Rel, err)
	}
	if fi, err := fstat(f); err == nil {
		p.noteTemp("made", top, dir, name, tmp, strconv.FormatUint(fi.ino, 10))
	}
	removeTmp := func() { unlinkAt(d, tmp) }
	fail := func(err error) (bool, error) {
		f.Close()
		removeTmp()
		return false, err
	}
	if _, err := f.Write(want.Content); err != nil {
		return fail(fmt.Errorf("write %s: %w", p.Rel, err))
	}
	CrashPoint("temp-written")
	if setPerm {
		// The umask applied at creation; the file's own bits win.
		if err := f.Chmod(perm); err != nil {
			return fail(fmt.Errorf("chmod %s: %w", p.Rel, err))
		}
	}
	if owner != nil {
		if err := keepOwner(f, p.Rel, *owner); err != nil {
			return fail(err)
		}
	}
	if err := keepXattrs(f, p.Rel, attrs, perm); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(fmt.Errorf("sync %s: %w", p.Rel, err))
	}
	ours, err := fstat(f)
	if err != nil {
		return fail(fmt.Errorf("inspect %s: %w", p.Rel, err))
	}
	// After the last change to our file's bytes, before anyone else can
	// reach it: see recordWritten.
	since := clockNow()
	if err := f.Close(); err != nil {
		removeTmp()
		return false, fmt.Errorf("close %s: %w", p.Rel, err)
	}
	if !restoring {
		Pause("before-rename", p.Rel)
	}
	old, err := openUnchanged(d, name, p.Rel, expect)
	if err != nil {
		removeTmp()
		return false, err
	}
	if !restoring {
		Pause("checked", p.Rel)
	}
	leased := false
	if old != nil {
		// The check is made again under the lease: a writer that had the
		// file open at the first one has closed it by now.
		if leased, err = holdOffWriters(old, p.Rel, expect, restoring); err != nil {
			old.Close()
			removeTmp()
			return false, err
		}
	}
	if old == nil {
		// A new file: the rename must not replace one created meanwhile.
		if err := renameNoReplace(d, tmp, name); err != nil {
			removeTmp()
			if isExist(err) {
				return false, changedError(p.Rel, "it was created")
			}
			return false, fmt.Errorf("create %s: %w", p.Rel, err)
		}
		recordWritten(d, name, ours, want.Blob, since)
		return true, nil
	}
	defer old.Close()
	checked, err := fstat(old)
	if err != nil {
		removeTmp()
		return false, fmt.Errorf("inspect %s: %w", p.Rel, err)
	}
	if !checked.same(attrsFrom) {
		// Saved over since its attributes were read: ours has another
		// file's.
		removeTmp()
		return false, changedError(p.Rel, "it was replaced")
	}
	// Our file gets a lease too, so that if the swap has to be undone, a
	// program that opened it for writing at the name meanwhile is seen.
	var mine *os.File
	if leased {
		mine = leaseOurs(d, tmp, ours)
		defer mine.Close()
	}
	if !restoring {
		Pause("leased", p.Rel)
	}
	switch err := swapOrNot(d, tmp, name); {
	case errors.Is(err, errNoExchange):
		if replaced, err := swapAside(d, p, top, dir, tmp, name, old, mine, checked, ours, want.Content, expect, leased, restoring); !replaced || err != nil {
			return replaced, err
		}
		recordWritten(d, name, ours, want.Blob, since)
		return true, nil
	case err != nil:
		removeTmp()
		return false, fmt.Errorf("replace %s: %w", p.Rel, err)
	}
	CrashPoint("swapped")
	// tmp now names the file that was at p: it must be the file checked,
	// holding what was read, and no one may have opened it for writing
	// since the lease was taken. If not, swap it back and drop ours.
	if why := provenUnchanged(d, tmp, old, checked, expect, leased); why != "" {
		if now, err := lstatAt(d, name); err != nil || !now.same(ours) || (mine != nil && leaseBroken(mine)) {
			// Replaced again since our swap, or ours opened for writing:
			// leave both as they are.
			return false, fmt.Errorf("%w; and it was replaced or opened for writing again right after (the version git-edit read is kept as %s)", changedError(p.Rel, why), path.Join(dir, keepAside(d, tmp, name)))
		}
		if err := exchange(d, tmp, name); err != nil {
			return true, fmt.Errorf("%w: %s: %w (its bytes are kept as %s)", ErrRestoreFailed, changedError(p.Rel, why), err, path.Join(dir, keepAside(d, tmp, name)))
		}
		if mine != nil && leaseBroken(mine) {
			// Opened for writing at the name just before the swap back:
			// what it writes goes to ours, which is kept.
			return false, fmt.Errorf("%w; and the edit's version was opened for writing by another program just before git-edit put the file back (it is kept as %s)", changedError(p.Rel, why), path.Join(dir, keepAside(d, tmp, name)))
		}
		removeTmp()
		return false, changedError(p.Rel, why)
	}
	removeTmp()
	recordWritten(d, name, ours, want.Blob, since)
	return true, nil
}

// xattrsAt reads the extended attributes of the regular file name in d,
// and which file that was.
func xattrsAt(d *workDir, name, rel string) ([]xattr, fileInfo, error) {
	f, err := openFileAt(d, name)
	switch {
	case isNotExist(err):
		return nil, fileInfo{}, changedError(rel, "it was deleted")
	case isLinkErr(err):
		return nil, fileInfo{}, changedError(rel, "it was replaced by a symlink")
	case err != nil:
		return nil, fileInfo{}, fmt.Errorf("open %s: %w", rel, err)
	}
	defer f.Close()
	fi, err := fstat(f)
	if err != nil {
		return nil, fileInfo{}, fmt.Errorf("inspect %s: %w", rel, err)
	}
	if !fi.mode.IsRegular() {
		return nil, fileInfo{}, changedError(rel, "it was replaced by a "+Kind(fi.mode))
	}
	attrs, err := readXattrs(f)
	return attrs, fi, err
}

// recordWritten remembers blob for the file git-edit just swapped in at
// name, ours before the swap (see blobcache.go): when name is still that
// file, with the mtime git-edit's write gave it, and that mtime is older
// than since, a clock reading taken after the write and before the swap.
// Anyone else's change comes after the swap, so after since, and gives a
// later mtime.
func recordWritten(d *workDir, name string, ours fileInfo, blob plumbing.Hash, since fsTime) {
	if blob.IsZero() {
		return
	}
	now, err := lstatAt(d, name)
	if err != nil || !now.same(ours) || now.size != ours.size || now.mtime != ours.mtime {
		return
	}
	recordBlob(d.f, now, blob, since, false)
}

// newFileAttrs decides the temporary file's permission bits and owner: for
// a file put back as it was read from disk (want.perm set), the bits it
// had, with the existing file's owner or, when created anew, its own; for
// other content, an existing file's bits (executable bits set where
// readable, or cleared, to match want.Mode; bits already set are kept as
// they are) and owner; else 0666 or 0777 less the umask. setPerm says
// whether the bits must be set past the umask.
func newFileAttrs(cur fileInfo, exists bool, want FileState) (perm fs.FileMode, owner *fileInfo, setPerm bool) {
	switch {
	case exists && want.perm != 0:
		// Its very bits: want.Mode may be the mode recorded for it, which
		// is not the disk's when git ignores the executable bit.
		return want.perm, &cur, true
	case exists:
		perm = cur.mode.Perm()
		if want.Mode == filemode.Executable {
			if perm&0o111 == 0 {
				perm |= (perm & 0o444) >> 2
			}
		} else {
			perm &^= 0o111
		}
		return perm, &cur, true
	case want.perm != 0:
		return want.perm, &fileInfo{uid: want.uid, gid: want.gid}, true
	case want.Mode == filemode.Executable:
		return 0o777, nil, false
	}
	return 0o666, nil, false
}

// RemoveFile deletes the file at p through a directory handle, with the
// same checks as ReplaceFile: right before, the file must hold expect's
// bytes; it is then moved aside atomically, and must prove to be the file
// checked, still holding those bytes, before it is unlinked; otherwise it
// is moved back and the error wraps ErrFileChanged (or ErrRestoreFailed
// when moving it back failed, naming where its bytes are kept). A file
// without write permission for its owner is refused (ErrReadOnly), as
// ReplaceFile refuses it. A file already gone, as expected, is not an
// error. removed reports whether the file is gone on return. The
// directories the removal leaves empty are removed too, up to (not
// including) the worktree top, as `git rm` removes them. The caller
// must hold the edit lock (Repo.Lock), as for ReplaceFile.
func RemoveFile(p Path, expect FileState) (removed bool, err error) {
	return removeFile(p, expect, false)
}

// RestoreFile puts the file at p back as before says (removing it when
// before does not exist), after an operation that failed had put written
// there: the file must still hold written, checked as ReplaceFile checks,
// so that bytes another program wrote since are never overwritten. A file
// put back gets its permission bits and owner again. It has no pause
// points and puts nothing back of its own. The caller must hold the edit
// lock, as for ReplaceFile.
func RestoreFile(p Path, before, written FileState) error {
	var err error
	if before.Exists {
		_, err = writeFile(p, before, written, true, nil)
	} else {
		_, err = removeFile(p, written, true)
	}
	return err
}

// removeFile deletes the file at p (undoing its creation) through a
// directory handle, with the same checks as ReplaceFile: right before,
// the file must hold expect's bytes; it is then moved aside atomically, and
// must prove to be the file checked, still holding those bytes, before it is
// unlinked; otherwise it is moved back (ErrFileChanged). A file already
// gone, as expected, is not an error. restoring is as for writeFile.
func removeFile(p Path, expect FileState, restoring bool) (removed bool, err error) {
	top, err := p.top()
	if err != nil {
		return false, err
	}
	dir, name := splitRel(p.Rel)
	d, err := openWorkDir(top, dir, false)
	if errors.Is(err, fs.ErrNotExist) {
		if expect.Exists {
			return false, changedError(p.Rel, "it was deleted")
		}
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer d.Close()
	if !restoring {
		Pause("before-rename", p.Rel)
	}
	old, err := openUnchanged(d, name, p.Rel, expect)
	if err != nil || old == nil {
		return false, err
	}
	defer old.Close()
	if !restoring {
		Pause("checked", p.Rel)
	}
	leased, err := holdOffWriters(old, p.Rel, expect, restoring)
	if err != nil {
		return false, err
	}
	if !restoring {
		Pause("leased", p.Rel)
	}
	checked, err := fstat(old)
	if err != nil {
		return false, fmt.Errorf("inspect %s: %w", p.Rel, err)
	}
	if !restoring && checked.mode.Perm()&0o200 == 0 {
		// Refused as writeFile refuses it: the file may have been made
		// read-only since it was read, and the kernel would not stop an
		// unlink. (A file put back is removed whatever its bits: it is the
		// one this operation created, with the umask's bits.)
		return false, readOnlyError(p.Rel)
	}
	aside := tempName(name)
	p.noteTemp("aside", top, dir, name, aside)
	// A rename that replaces, to a fresh name (as in swapAside): where
	// renameNoReplace links and unlinks, an editor's save between the two
	// would be unlinked.
	if err := renameAt(d, name, aside); err != nil {
		return false, fmt.Errorf("remove %s: %w", p.Rel, err)
	}
	CrashPoint("moved-aside")
	if why := provenUnchanged(d, aside, old, checked, expect, leased); why != "" {
		if err := moveBack(d, aside, name); err != nil {
			return true, fmt.Errorf("%w: %s: %w (its bytes are kept as %s)", ErrRestoreFailed, changedError(p.Rel, why), err, path.Join(dir, keepAside(d, aside, name)))
		}
		return false, changedError(p.Rel, why)
	}
	if err := unlinkAt(d, aside); err != nil {
		return true, fmt.Errorf("remove %s: %w", p.Rel, err)
	}
	if !restoring {
		// As `git rm` does: the directories the removal emptied go too.
		// (A file put back is the operation's own; the directories made
		// for it are removed by the caller, RemoveDirs.)
		removeEmptiedDirs(top, dir)
	}
	return true, nil
}

// provenUnchanged checks the file moved to name in d (by a swap, or aside
// before an unlink): it must be the file old, checked before the move
// (checked is its fstat), and still hold expect's bytes. It returns "" or
// what another program did meanwhile.
func provenUnchanged(d *workDir, name string, old *os.File, checked fileInfo, expect FileState, leased bool) (why string) {
	if moved, err := lstatAt(d, name); err != nil || !moved.same(checked) {
		return "it was replaced"
	}
	if same, err := holds(old, expect.Content); err != nil || !same {
		return "it was written"
	}
	if leased && leaseBroken(old) {
		// A program opened it for writing since the lease was taken: its
		// open(2) waits for the lease, and then writes to this file,
		// which must therefore be at the name again.
		return "it was opened for writing"
	}
	return ""
}

// busyWait bounds how long holdOffWriters waits for other programs to
// close a file they have open for writing.
const busyWait = 2 * time.Second

// holdOffWriters makes sure no other program can write to old, the file
// about to be swapped out (or removed), unseen: it takes a read lease on
// it (fcntl F_SETLEASE F_RDLCK), which the kernel grants only while no
// file description of it is open for writing, and which breaks when one
// is opened for writing (or truncated); such an open(2) then waits until
// the lease is released. provenUnchanged checks the lease after the swap
// (leaseBroken), and the swap is undone when it broke; leased says whether
// the lease is held. While another
// program has the file open for writing (a shell in the middle of
// `echo line >> f`), it waits for the file to be closed, polling, up to
// busyWait, then refuses (ErrFileBusy). Once the lease is held it checks
// again that old holds expect's bytes (what the writer wrote before it
// closed the file). The lease ends when old is closed.
//
// Where leases cannot be had (a file system without them, such as NFS;
// leases disabled in /proc/sys/fs/leases-enable; a file of another owner
// without CAP_LEASE), it returns nil without one: there a program that
// opened the file before the swap and writes after the checks still writes
// to the replaced copy.
func holdOffWriters(old *os.File, rel string, expect FileState, restoring bool) (leased bool, err error) {
	wait, deadline := 100*time.Microsecond, time.Now().Add(busyWait)
	for {
		err := setReadLease(old)
		if err == nil {
			break
		}
		if !isBusy(err) {
			return false, nil // no leases here: the documented window remains
		}
		if time.Now().After(deadline) {
			return false, fmt.Errorf("%s: %w (git-edit waited %v for it to close the file, as a shell's `>>` does at once; a program that keeps it open, such as a logger, would write past the edit into a copy no longer on disk); stop that program, or run the command again when it has closed the file", rel, ErrFileBusy, busyWait)
		}
		if !restoring {
			Pause("open-elsewhere", rel)
		}
		time.Sleep(wait)
		wait = min(wait*2, 5*time.Millisecond)
	}
	same, err := holds(old, expect.Content)
	switch {
	case err != nil:
		return true, err
	case !same:
		return true, changedError(rel, "it was written")
	}
	return true, nil
}

// leaseOurs opens git-edit's own new file, tmp in d (ours is its info), for
// reading and takes a read lease on it (see holdOffWriters); nil when it
// cannot (then a swap back cannot see a writer of it: the window that
// remains without leases).
func leaseOurs(d *workDir, tmp string, ours fileInfo) *os.File {
	f, err := openFileAt(d, tmp)
	if err != nil {
		return nil
	}
	if fi, err := fstat(f); err != nil || !fi.same(ours) {
		f.Close()
		return nil
	}
	if err := setReadLease(f); err != nil {
		f.Close()
		return nil
	}
	return f
}

// tempName is a new temporary name beside name: "." name ".git-edit-" and
// 12 hex digits (see isTempOf).
func tempName(name string) string {
	var suffix [6]byte
	rand.Read(suffix[:])
	return "." + name + ".git-edit-" + hex.EncodeToString(suffix[:])
}

// keepAside renames the temporary file tmp, which holds bytes that must not
// be lost, to a name that removeStaleTemps leaves alone, and returns it.
func keepAside(d *workDir, tmp, name string) string {
	kept := "." + name + ".git-edit-kept-" + strings.TrimPrefix(tmp, "."+name+".git-edit-")
	if err := renameNoReplace(d, tmp, kept); err != nil {
		return tmp
	}
	return kept
}

// isTempOf reports whether n is a temporary name of name (see tempName).
func isTempOf(n, name string) bool {
	rest, ok := strings.CutPrefix(n, "."+name+".git-edit-")
	if !ok || len(rest) != 12 {
		return false
	}
	_, err := hex.DecodeString(rest)
	return err == nil && strings.ToLower(rest) == rest
}

// openUnchanged checks that name in d still holds what expect says and
// returns the file, open for reading, so that it can be checked again
// after the swap (nil when expect says it does not exist, and it does not).
func openUnchanged(d *workDir, name, rel string, expect FileState) (*os.File, error) {
	if !expect.Exists {
		if _, err := lstatAt(d, name); err == nil {
			return nil, changedError(rel, "it was created")
		}
		return nil, nil
	}
	f, err := openFileAt(d, name)
	switch {
	case isNotExist(err):
		return nil, changedError(rel, "it was deleted")
	case isLinkErr(err):
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

// keepOwner gives the temporary file f the owner and group that are
// wanted (those of the file it replaces), so that an edit never changes who
// owns a file: it compares with what f got (in a setgid directory, the
// directory's group) and changes what differs. It needs git-edit to run as
// root, or as the owner and a member of the group; otherwise the write is
// refused.
func keepOwner(f *os.File, rel string, want fileInfo) error {
	got, err := fstat(f)
	if err != nil {
		return fmt.Errorf("inspect %s: %w", rel, err)
	}
	uid, gid := -1, -1
	if got.uid != want.uid {
		uid = int(want.uid)
	}
	if got.gid != want.gid {
		gid = int(want.gid)
	}
	if uid == -1 && gid == -1 {
		return nil
	}
	if err := f.Chown(uid, gid); err != nil {
		return fmt.Errorf("%w: %s is owned by uid %d, gid %d, and git-edit (uid %d) cannot give the rewritten file that owner and group; nothing was written; run git-edit as the file's owner: %w", ErrPermission, rel, want.uid, want.gid, os.Geteuid(), err)
	}
	return nil
}

// removeStaleTemps deletes temporary files of name left by a writer that
// crashed (see tempName): under the edit lock no other writer can own one.
// The journal (temps.go) clears what a dead process left wherever the next
// operation runs; this sweep is for what it misses (a journal line lost to
// a power cut, a temporary from before the journal). A directory is listed
// once per process (staleTemps), so that writing N files into one
// directory costs one listing, not N.
//
// While name itself is absent, a temporary may be the file itself, moved
// aside by a deletion or a swap without exchange just before a power cut
// that lost the journal's line: then each is kept (keepAside), never
// deleted.
func removeStaleTemps(d *workDir, name string) {
	temps := staleTemps.of(d, name)
	if len(temps) == 0 {
		return
	}
	_, err := lstatAt(d, name)
	absent := isNotExist(err)
	for _, n := range temps {
		if absent {
			keepAside(d, n, name)
			continue
		}
		unlinkAt(d, n)
	}
}

// staleTemps remembers, per directory (device and inode), the temporary
// names its one listing found and no write has swept yet.
var staleTemps = &tempListings{dirs: map[[2]uint64][]string{}}

type tempListings struct {
	mu   sync.Mutex
	dirs map[[2]uint64][]string
}

// of returns the temporary files of name that d held when this process
// first listed it, and forgets them.
func (t *tempListings) of(d *workDir, name string) []string {
	st, err := fstat(d.f)
	if err != nil {
		return nil
	}
	key := [2]uint64{st.dev, st.ino}
	t.mu.Lock()
	defer t.mu.Unlock()
	left, listed := t.dirs[key]
	if !listed {
		left = listTemps(d)
		if len(t.dirs) >= 1<<16 { // a long-lived server: start afresh
			clear(t.dirs)
		}
	}
	var found, rest []string
	for _, n := range left {
		if isTempOf(n, name) {
			found = append(found, n)
		} else {
			rest = append(rest, n)
		}
	}
	t.dirs[key] = rest
	return found
}

// listTemps lists the names in d that are git-edit's temporary files.
func listTemps(d *workDir) []string {
	names, _ := listNames(d)
	var temps []string
	for _, n := range names {
		if IsTemporary(n) {
			temps = append(temps, n)
		}
	}
	return temps
}
