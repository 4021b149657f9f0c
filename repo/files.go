package repo

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

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

// ReadWorkFile reads a worktree file for editing. A missing file is a
// FileState with Exists false and no error. Refused, without blocking or
// following links: directories (ErrIsDirectory), anything but a regular file
// such as a FIFO, device, socket or symlink (ErrNotRegular), files larger
// than maxSize (ErrTooLarge), unreadable files (ErrPermission).
func ReadWorkFile(p Path, maxSize int64) (FileState, error) {
	st := FileState{Path: p.Rel}
	fi, err := os.Lstat(p.Abs)
	switch {
	case errors.Is(err, os.ErrNotExist) || isNotDir(err):
		return st, nil
	case err != nil:
		return st, fmt.Errorf("inspect %s: %w", p.Rel, err)
	case fi.IsDir():
		return st, fmt.Errorf("%w: %s", ErrIsDirectory, p.Rel)
	case !fi.Mode().IsRegular():
		return st, fmt.Errorf("%w: %s is a %s", ErrNotRegular, p.Rel, kind(fi.Mode()))
	case fi.Mode().Perm()&0o400 == 0:
		// Honoured even as root, where the kernel would not refuse.
		return st, fmt.Errorf("%w: %s is not readable (mode %v); make it readable (chmod u+r) if it should be edited", ErrPermission, p.Rel, fi.Mode().Perm())
	case maxSize > 0 && fi.Size() > maxSize:
		return st, fmt.Errorf("%w: %s is %d bytes, over the limit of %d bytes; raise it with `git config edit.maxFileSize 64m` if the file should be edited", ErrTooLarge, p.Rel, fi.Size(), maxSize)
	}
	// O_NOFOLLOW and O_NONBLOCK: if the path was swapped for a link or a
	// FIFO since Lstat, fail instead of following or hanging.
	f, err := os.OpenFile(p.Abs, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return st, fmt.Errorf("open %s: %w", p.Rel, err)
	}
	defer f.Close()
	fi, err = f.Stat()
	if err != nil {
		return st, fmt.Errorf("inspect %s: %w", p.Rel, err)
	}
	if !fi.Mode().IsRegular() {
		return st, fmt.Errorf("%w: %s is a %s", ErrNotRegular, p.Rel, kind(fi.Mode()))
	}
	content := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, content); err != nil {
		return st, fmt.Errorf("read %s: %w", p.Rel, err)
	}
	st.Exists, st.Content, st.Mode = true, content, modeOf(fi.Mode())
	return st, nil
}

func modeOf(m fs.FileMode) filemode.FileMode {
	if m.Perm()&0o111 != 0 {
		return filemode.Executable
	}
	return filemode.Regular
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeDevice != 0:
		return "device"
	case m&fs.ModeSocket != 0:
		return "socket"
	}
	return "special file"
}

// writeFileAtomic replaces abs with content so that a reader (or a crash)
// sees either the old bytes or the new, never a mix: a temporary file in the
// same directory, fsync, rename, fsync of the directory. An existing file
// keeps its permission bits, with the executable bits set or cleared to
// match mode; a new file gets 0666 or 0777 less the umask, and its missing
// parent directories are created.
func writeFileAtomic(abs string, content []byte, mode filemode.FileMode) error {
	dir := filepath.Dir(abs)
	var perm fs.FileMode = 0o666
	if mode == filemode.Executable {
		perm = 0o777
	}
	fi, err := os.Lstat(abs)
	exists := err == nil
	if exists {
		perm = fi.Mode().Perm()
		if mode == filemode.Executable {
			perm |= (perm & 0o444) >> 2
		} else {
			perm &^= 0o111
		}
	} else if err := os.MkdirAll(dir, 0o777); err != nil {
		return fmt.Errorf("create directory %s: %w", dir, err)
	}
	// Temporary files of this path left by a writer that crashed: under the
	// edit lock no other writer can own one.
	prefix := "." + filepath.Base(abs) + ".git-edit-"
	if stale, _ := filepath.Glob(filepath.Join(dir, globEscape(prefix)+"*")); len(stale) > 0 {
		for _, f := range stale {
			os.Remove(f)
		}
	}
	var suffix [6]byte
	rand.Read(suffix[:])
	tmp := filepath.Join(dir, prefix+hex.EncodeToString(suffix[:]))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fmt.Errorf("create temporary file in %s: %w", dir, err)
	}
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if _, err := f.Write(content); err != nil {
		return fail(fmt.Errorf("write %s: %w", tmp, err))
	}
	crashPoint("temp-written")
	if exists {
		// The umask applied at creation; an existing file's bits win.
		if err := f.Chmod(perm); err != nil {
			return fail(fmt.Errorf("chmod %s: %w", tmp, err))
		}
	}
	if err := f.Sync(); err != nil {
		return fail(fmt.Errorf("sync %s: %w", tmp, err))
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("close %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, abs); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("replace %s: %w", abs, err)
	}
	return syncDir(dir)
}

// globEscape quotes the characters filepath.Match treats specially.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// removeFile deletes a file (undoing its creation). A file already gone is
// not an error.
func removeFile(abs string) error {
	if err := os.Remove(abs); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", abs, err)
	}
	return syncDir(filepath.Dir(abs))
}
