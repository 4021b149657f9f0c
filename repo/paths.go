package repo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrPathRefused wraps every refusal of a path argument: outside the root,
// inside .git, inside a nested repository, an unresolvable symlink.
var ErrPathRefused = errors.New("path refused")

// ErrOutsideRoot wraps, with ErrPathRefused, the refusal of a path that
// resolves outside the root: callers that act on recorded paths (undo,
// rollback) word it for what they were about to change.
var ErrOutsideRoot = errors.New("outside the root")

// outsideRootError is a path outside the root: ErrPathRefused and
// ErrOutsideRoot, with the message Resolve has always given.
type outsideRootError struct{ msg string }

func (e *outsideRootError) Error() string   { return e.msg }
func (e *outsideRootError) Unwrap() []error { return []error{ErrPathRefused, ErrOutsideRoot} }

// NestedRepoError refuses a path inside a nested repository or submodule
// of this one: the file belongs to the repository at Top, which should
// record its edits.
type NestedRepoError struct {
	Arg string
	Top string
}

func (e *NestedRepoError) Error() string {
	return fmt.Sprintf("%v: %s is inside the nested repository or submodule %s; run git-edit with --root %s to edit it in its own repository", ErrPathRefused, e.Arg, e.Top, e.Top)
}

func (e *NestedRepoError) Unwrap() error { return ErrPathRefused }

// Path is a file argument resolved against the repository.
type Path struct {
	// Abs is the absolute path on disk, symlinks in its directories resolved.
	Abs string
	// Rel is the path relative to the worktree top, slash-separated: the
	// path the session's trees and trailers use.
	Rel string
	// worktree is the worktree top every file operation starts from.
	worktree string
	// state is the repository's git-edit state directory, where writes
	// note their temporary files (see temps.go); "" for a Path made by
	// hand.
	state string
}

// Resolve turns a path argument (absolute, or relative to root) into a Path
// confined to root: after resolving symlinks it must lie inside root and the
// worktree, not inside any ".git" directory, and not inside a nested
// repository or submodule (*NestedRepoError). The file itself need not
// exist (write creates it), but a symlink that cannot be resolved is
// refused, and so is a path ending in "/", "/." or "/.." (it names a
// directory). Resolving is a check of names only: the operation itself
// reaches the file through directory handles that never follow a symlink
// (see workDir), so a directory swapped for a symlink afterwards is refused
// then.
func (r *Repo) Resolve(root, arg string) (Path, error) {
	return r.resolve(root, root, arg, false)
}

// ResolveFrom is Resolve with a relative arg taken from dir rather than
// root: a command run in a subdirectory names files from there, as git
// does, while root still confines them.
func (r *Repo) ResolveFrom(root, dir, arg string) (Path, error) {
	return r.resolve(root, dir, arg, false)
}

// ResolveRecorded turns a path argument that names a path as the session
// recorded it (undo PATH, redo PATH, the paths rollback returns) into a Path
// confined to root, without following a symlink in its final component: a
// recorded file that was replaced by a symlink stays that path (Abs ends in
// the link itself), so the operation reads the link and refuses it instead
// of acting on the file it points to. A directory on the way below root
// that is a symlink is refused too: through it the path would lead to
// another recorded path. Symlinks above root (where the repository lives)
// are resolved as Resolve resolves them. Otherwise it refuses what Resolve
// refuses.
func (r *Repo) ResolveRecorded(root, arg string) (Path, error) {
	return r.resolve(root, root, arg, true)
}

// ResolveRecordedFrom is ResolveRecorded with a relative arg taken from dir
// (see ResolveFrom).
func (r *Repo) ResolveRecordedFrom(root, dir, arg string) (Path, error) {
	return r.resolve(root, dir, arg, true)
}

func (r *Repo) resolve(root, dir, arg string, recorded bool) (Path, error) {
	if arg == "" {
		return Path{}, fmt.Errorf("%w: the path is empty; give a file path relative to %s or absolute", ErrPathRefused, dir)
	}
	if i := strings.LastIndexByte(arg, '/'); i > 0 {
		// "app.txt/" and "app.txt/." name a directory; Clean would drop
		// the hint and edit the file.
		if last := arg[i+1:]; last == "" || last == "." || last == ".." {
			return Path{}, fmt.Errorf("%w: %s is not a directory (a path ending in %q names one); give the file's path without it", ErrPathRefused, arg, "/"+last)
		}
	}
	goos := pathOS()
	if err := checkArgForm(arg, goos); err != nil {
		return Path{}, err
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
		dirAbs, err := filepath.Abs(dir)
		if err != nil {
			return Path{}, fmt.Errorf("resolve directory %s: %w", dir, err)
		}
		abs = filepath.Join(dirAbs, abs)
	}
	abs = filepath.Clean(abs)
	var real string
	if recorded {
		for _, from := range []string{rootAbs, rootReal} {
			if link, dest, ok := symlinkBelow(from, abs); ok {
				return Path{}, fmt.Errorf("%w: %s: the directory %s is now a symlink (to %s); a path recorded in history is not followed through it, so that the operation never acts on another file; put the directory back, or name the file by the path it has now",
					ErrPathRefused, arg, link, dest)
			}
		}
		// Only the directory part is resolved (symlinks above the root:
		// the root's own location); the final component is kept as named,
		// whatever it is now.
		dirReal, err := realPath(filepath.Dir(abs))
		if err != nil {
			return Path{}, fmt.Errorf("%w: %s: a directory on its way: %w", ErrPathRefused, arg, err)
		}
		real = filepath.Join(dirReal, filepath.Base(abs))
	} else if real, err = realPath(abs); err != nil {
		return Path{}, fmt.Errorf("%w: %s: %w", ErrPathRefused, arg, err)
	}
	if !isUnder(real, rootReal) || !isUnder(real, r.Top) {
		return Path{}, &outsideRootError{fmt.Sprintf("%v: %s resolves to %s, outside the root %s; edit only files inside it (or pass --root)", ErrPathRefused, arg, real, rootReal)}
	}
	if isUnder(real, r.GitDir) || isUnder(real, r.CommonDir) {
		return Path{}, fmt.Errorf("%w: %s is inside the git directory; git-edit never writes there", ErrPathRefused, arg)
	}
	rel, err := filepath.Rel(r.Top, real)
	if err != nil || rel == "." {
		return Path{}, &topDirError{arg}
	}
	// Spelled first, so that every check below sees the path git-edit
	// will act on and record (a bad setting is reported by the
	// operation, which reads it too).
	if c, err := r.Checkout(); err == nil {
		if goos != "darwin" {
			c.PrecomposeUnicode = false // git honours it only on macOS
		}
		if spelled := gitSpelling(r.Top, filepath.ToSlash(rel), c); spelled != filepath.ToSlash(rel) {
			rel, real = filepath.FromSlash(spelled), filepath.Join(r.Top, filepath.FromSlash(spelled))
		}
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
	slashRel := filepath.ToSlash(rel)
	windows, err := r.nameRules(goos)
	if err != nil {
		return Path{}, err
	}
	if err := checkPathNames(arg, slashRel, windows); err != nil {
		return Path{}, err
	}
	if reached, gitDir := r.gitDirOnPath(slashRel); reached != "" {
		return Path{}, fmt.Errorf("%w: %s is inside the git directory (%s is %s under another name: the file system ignores case, or a link above the worktree leads there); git-edit never writes there", ErrPathRefused, arg, reached, gitDir)
	}
	return Path{Abs: real, Rel: slashRel, worktree: r.Top, state: r.StateDir()}, nil
}

// realPath resolves symlinks in abs. Trailing components that do not exist
// yet are kept as they are, so a file about to be created can be resolved.
func realPath(abs string) (string, error) {
	existing, rest := abs, ""
	for {
		if _, err := os.Lstat(existing); err == nil {
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			break
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
	real, err := filepath.EvalSymlinks(existing)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("it is a symlink whose target does not exist")
		}
		return "", fmt.Errorf("cannot resolve its symlinks: %w", err)
	}
	return filepath.Join(real, rest), nil
}

// topDirError refuses the worktree's top directory as a file path. It is
// both a refused path and a directory, so that callers worded after either
// (edit_lines answers seed 001's "path is a directory: {path}") find it.
type topDirError struct{ arg string }

func (e *topDirError) Error() string {
	return fmt.Sprintf("%v: %s is the worktree's top directory, not a file", ErrPathRefused, e.arg)
}

func (e *topDirError) Unwrap() []error { return []error{ErrPathRefused, ErrIsDirectory} }
