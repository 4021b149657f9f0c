package repo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ResolveRecorded turns a path argument that names a path as the session
// recorded it (undo PATH, redo PATH, the paths rollback returns) into a Path
// confined to root, without following a symlink in its final component: a
// recorded file that was replaced by a symlink stays that path (Abs ends in
// the link itself), so the operation reads the link and refuses it instead
// of acting on the file it points to. Directories on the way are resolved
// as Resolve resolves them. It refuses, wrapping ErrPathRefused, what
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
	// Only the directory part is resolved; the final component is kept as
	// named, whatever it is now.
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
