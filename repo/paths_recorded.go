package repo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// symlinkBelow finds the first directory of abs below from (both clean
// and absolute) that is a symlink, with its destination. abs not lexically
// under from is no finding.
func symlinkBelow(from, abs string) (link, dest string, ok bool) {
	rel, err := filepath.Rel(from, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", "", false
	}
	parts := strings.Split(rel, string(filepath.Separator))
	for i := 1; i < len(parts); i++ {
		dir := filepath.Join(append([]string{from}, parts[:i]...)...)
		if fi, err := os.Lstat(dir); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			dest, _ := os.Readlink(dir)
			return filepath.ToSlash(filepath.Join(parts[:i]...)), dest, true
		}
	}
	return "", "", false
}

// ResolveRecorded turns a path argument that names a path as the session
// recorded it (undo PATH, redo PATH, the paths rollback returns) into a Path
// confined to root, without following a symlink in its final component: a
// recorded file that was replaced by a symlink stays that path (Abs ends in
// the link itself), so the operation reads the link and refuses it instead
// of acting on the file it points to. A directory on the way below root
// that is a symlink is refused too: through it the path would lead to
// another recorded path. Symlinks above root (where the repository lives)
// are resolved as Resolve resolves them. It refuses, wrapping ErrPathRefused, what
// Resolve refuses: an empty path, a path leaving root or the worktree, a
// path inside a ".git" directory or the git directory, the worktree's top
// directory, and (as *NestedRepoError) a path inside a nested repository or
// submodule.
func (r *Repo) ResolveRecorded(root, arg string) (Path, error) {
	if arg == "" {
		return Path{}, fmt.Errorf("%w: the path is empty; give a file path relative to %s or absolute", ErrPathRefused, root)
	}
	rootAbs, err := filepath.Abs(root)
	if err != nil {
		return Path{}, fmt.Errorf("resolve root %s: %w", root, err)
	}
	rootReal, err := filepath.EvalSymlinks(rootAbs)
	if err != nil {
		return Path{}, fmt.Errorf("resolve root %s: %w", root, err)
	}
	abs := arg
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(rootAbs, abs)
	}
	abs = filepath.Clean(abs)
	for _, from := range []string{rootAbs, rootReal} {
		if link, dest, ok := symlinkBelow(from, abs); ok {
			return Path{}, fmt.Errorf("%w: %s: the directory %s is now a symlink (to %s); a path recorded in history is not followed through it, so that the operation never acts on another file; put the directory back, or name the file by the path it has now",
				ErrPathRefused, arg, link, dest)
		}
	}
	// Only the directory part is resolved (symlinks above the root: the
	// root's own location); the final component is kept as named, whatever
	// it is now.
	dirReal, err := realPath(filepath.Dir(abs))
	if err != nil {
		return Path{}, fmt.Errorf("%w: %s: a directory on its way: %v", ErrPathRefused, arg, err)
	}
	real := filepath.Join(dirReal, filepath.Base(abs))
	if real == r.Top {
		return Path{}, fmt.Errorf("%w: %s is the worktree's top directory, not a file", ErrPathRefused, arg)
	}
	if !isUnder(real, rootReal) || !isUnder(real, r.Top) {
		return Path{}, fmt.Errorf("%w: %s resolves to %s, outside the root %s; edit only files inside it (or pass --root)", ErrPathRefused, arg, real, rootReal)
	}
	if isUnder(real, r.GitDir) || isUnder(real, r.CommonDir) {
		return Path{}, fmt.Errorf("%w: %s is inside the git directory; git-edit never writes there", ErrPathRefused, arg)
	}
	rel, err := filepath.Rel(r.Top, real)
	if err != nil {
		return Path{}, fmt.Errorf("%w: %s: %v", ErrPathRefused, arg, err)
	}
	parts := strings.Split(rel, string(filepath.Separator))
	for i, part := range parts {
		if strings.EqualFold(part, ".git") {
			return Path{}, fmt.Errorf("%w: %s is inside a .git directory; git-edit never writes there", ErrPathRefused, arg)
		}
		if i == len(parts)-1 {
			break
		}
		dir := filepath.Join(append([]string{r.Top}, parts[:i+1]...)...)
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return Path{}, &NestedRepoError{Arg: arg, Top: dir}
		}
	}
	return Path{Abs: real, Rel: filepath.ToSlash(rel)}, nil
}
