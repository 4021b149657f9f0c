// Package repo is git-edit's plumbing: finding and opening the repository
// (ownership, format, config), storing and reading objects (one kept pack
// per operation), tree surgery, refs moved with git's lock protocol, the
// repository-wide edit lock, confined worktree paths and checked, atomic
// file writes.
//
// It never interprets text or history: callers hand it bytes and names and
// get bytes back. What a session is, how an operation becomes a commit and
// what its trailers say belong to the session layer above it (repo/session);
// the history questions (package undo) and the operations (package ops)
// sit above that.
package repo

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/git-edit/git-edit/repo/packidx"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// ErrNotRepository is returned by Open when no git repository contains the
// starting directory.
var ErrNotRepository = errors.New("not inside a git repository")

// Repo is an opened repository: its worktree and the two git directories a
// worktree has (they are the same directory except in linked worktrees).
type Repo struct {
	// Top is the absolute, symlink-free path of the worktree's top directory.
	Top string
	// GitDir holds this worktree's HEAD (".git", or ".git/worktrees/NAME").
	GitDir string
	// CommonDir holds what all worktrees share: objects, refs, config.
	CommonDir string

	// worktreeConfig is extensions.worktreeConfig: GitDir's
	// config.worktree is read after the common config.
	worktreeConfig bool

	// checkout caches the Checkout settings (see Repo.Checkout).
	checkoutOnce sync.Once
	checkout     Checkout
	checkoutErr  error

	objects objectStore
	// trees keeps decoded trees by id (see readTree).
	trees treeCache
	// commitTrees keeps each commit's root tree by commit id (see TreeOf).
	commitTrees hashCache
	// commitReads counts the commits decoded (see CommitReads).
	commitReads atomic.Int64
	// smudger is the long-running process of Conversions.Smudge.
	smudger *smudger
	// attrReads counts the attribute files Conversions read (see
	// AttributeReads).
	attrReads atomic.Int64
	// clearLocksOnce runs ClearDeadRefLocks once.
	clearLocksOnce sync.Once
	// packed caches packed-refs (see packedCache).
	packed packedCache
}

// objectStore is how repo reaches objects. Reads go through packidx, whose
// cold cost does not grow with the repository (go-git's reader decodes every
// pack index in full on its first packed read), or through go-git after
// UseGoGitReader(true) (kept for comparing the two; see
// cmd/git-edit-bench). go-git's filesystem storage stays embedded for the
// rest of the storer interface that go-git's object package expects.
//
// Either reader is made to survive an external `git gc`: it lists the packs
// once, so an object that gc moved into a new pack looks missing. On "not
// found" the reader rescans the packs and tries again, up to three times
// (cheap with packidx: a directory listing), since a concurrent repack may
// be between writing its pack and deleting the old ones.
//
// Read through objectStore's own EncodedObject and HasEncodedObject, never
// through the embedded Storage's: those are go-git's reader, whose first
// packed lookup (a miss included) decodes every pack index in full.
type objectStore struct {
	*filesystem.Storage
	read objectReader
	// pending holds the objects of the operation under way, not yet
	// written (see BeginBatch); reads look there first.
	pending *pendingObjects
}

// objectReader is the read side of an objectStore.
type objectReader interface {
	EncodedObject(plumbing.ObjectType, plumbing.Hash) (plumbing.EncodedObject, error)
	HasEncodedObject(plumbing.Hash) error
	// Reload makes the next lookup see the packs as they are now.
	Reload()
}

// goGitReader reads through go-git's own storage.
type goGitReader struct{ *filesystem.Storage }

func (g goGitReader) Reload() { g.Storage.Reindex() }

func (s objectStore) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	if obj, ok := s.pending.get(h); ok {
		if t != plumbing.AnyObject && obj.Type() != t {
			return nil, plumbing.ErrObjectNotFound
		}
		return obj, nil
	}
	obj, err := s.read.EncodedObject(t, h)
	for range 3 {
		if !errors.Is(err, plumbing.ErrObjectNotFound) {
			break
		}
		// A concurrent gc or repack may be between writing its new pack
		// and deleting the old ones: look again, a few times.
		s.read.Reload()
		obj, err = s.read.EncodedObject(t, h)
	}
	return obj, err
}

// HasAsListed reports whether h is stored, as the packs stood when last
// listed: unlike HasEncodedObject it never rescans on a miss. It suits the
// write path, where a miss is the usual answer and a duplicate loose object
// is harmless. (Storage.HasEncodedObject, go-git's, answers the same but
// decodes every pack index on its first call.)
func (s objectStore) HasAsListed(h plumbing.Hash) bool { return s.read.HasEncodedObject(h) == nil }

func (s objectStore) HasEncodedObject(h plumbing.Hash) error {
	if _, ok := s.pending.get(h); ok {
		return nil
	}
	err := s.read.HasEncodedObject(h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		s.read.Reload()
		err = s.read.HasEncodedObject(h)
	}
	return err
}

// Open finds and opens the repository that dir belongs to, as `git -C dir`
// would (git's setup_git_directory), and refuses what git refuses:
//
//   - With GIT_DIR set, that is the git directory (relative to dir; a
//     ".git" file there is followed) and nothing is searched. Otherwise the
//     search goes upward from dir for a ".git" directory or file (following
//     the "gitdir:" of linked worktrees and submodules), stopping below any
//     GIT_CEILING_DIRECTORIES entry and, unless
//     GIT_DISCOVERY_ACROSS_FILESYSTEM is true, at a file system boundary.
//     GIT_COMMON_DIR, when set, replaces the common dir (objects, refs,
//     config) either way.
//   - The worktree top is GIT_WORK_TREE (relative to dir), else
//     core.worktree (relative to the git directory), else, with GIT_DIR,
//     dir itself, else the directory holding ".git". A bare repository
//     (core.bare, or GIT_DIR naming one) is refused: git-edit edits files
//     in a worktree.
//   - A discovered repository must be owned by the user git-edit runs as,
//     or be allowed by safe.directory (ErrDubiousOwnership). As in git, a
//     repository named by GIT_DIR is trusted without this check: setting
//     GIT_DIR is an explicit choice.
//   - The repository's format must be one git-edit can write
//     (ErrUnsupportedFormat): version 0 or 1, SHA-1 objects, loose refs, no
//     extension git-edit does not know.
//   - GIT_OBJECT_DIRECTORY is refused: git would write objects there, and
//     git-edit writes them to the common dir.
//
// Errors wrap ErrNotRepository, ErrDubiousOwnership, ErrUnsupportedFormat
// or ErrBadConfig. Open reads only: it creates, changes and locks nothing,
// refusal or not.
func Open(dir string) (*Repo, error) { return open(dir, os.LookupEnv) }

// OpenNested opens the repository whose worktree top is top, a submodule or
// nested repository of one already open, by its own ".git", as Open would
// with GIT_DIR, GIT_WORK_TREE and GIT_COMMON_DIR unset: those name the outer
// repository, and git unsets them too when it works in a submodule.
func OpenNested(top string) (*Repo, error) {
	return open(top, func(name string) (string, bool) {
		switch name {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR":
			return "", false
		}
		return os.LookupEnv(name)
	})
}

// open is Open with the environment read through getenv.
func open(dir string, getenv func(string) (string, bool)) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", dir, err)
	}
	start, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("root %s: %w", dir, err)
	}
	if v, ok := getenv("GIT_OBJECT_DIRECTORY"); ok && v != "" {
		return nil, fmt.Errorf("%w: GIT_OBJECT_DIRECTORY is set (%s), and git-edit writes objects only to the repository's own objects directory; unset it to use git-edit", ErrUnsupportedFormat, v)
	}
	commonEnv, hasCommonEnv := getenv("GIT_COMMON_DIR")
	if hasCommonEnv {
		commonEnv = resolveFrom(start, commonEnv)
	}
	var loc location
	if gd, ok := getenv("GIT_DIR"); ok {
		if loc, err = explicitGitDir(start, gd, commonEnv); err != nil {
			return nil, err
		}
	} else {
		if loc, err = discover(start, abs, getenv, commonEnv); err != nil {
			return nil, err
		}
		if err := checkOwnership(loc.top, loc.gitFile, loc.gitDir); err != nil {
			return nil, err
		}
	}
	common, linked, err := commonDirOf(loc.gitDir)
	if err != nil {
		return nil, err
	}
	if hasCommonEnv && !sameDir(commonEnv, common) {
		// git keeps refs where the git dir's own commondir says (its files
		// backend ignores GIT_COMMON_DIR) and objects and config where
		// GIT_COMMON_DIR says; git-edit keeps them together.
		return nil, fmt.Errorf("%w: GIT_COMMON_DIR is set (%s) to other than the common directory of %s (%s), so git would read refs and objects from different places; git-edit does not split them: unset GIT_COMMON_DIR to use git-edit", ErrUnsupportedFormat, commonEnv, loc.gitDir, common)
	}
	format, err := readFormat(common, loc.gitDir, linked)
	if err != nil {
		return nil, err
	}
	top, err := worktreeTop(start, loc, format, getenv)
	if err != nil {
		return nil, err
	}
	return openAt(top, loc.gitDir, common, format)
}

// location is where discovery (or GIT_DIR) found the git directory.
type location struct {
	gitDir string
	// gitFile is the ".git" file that named gitDir, or "".
	gitFile string
	// top is the directory holding ".git" when discovered; "" with GIT_DIR.
	top string
}

// resolveFrom makes p absolute against base, as git resolves the paths of
// GIT_DIR, GIT_WORK_TREE and GIT_COMMON_DIR against its working directory.
func resolveFrom(base, p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	return filepath.Clean(p)
}

// explicitGitDir is the git directory GIT_DIR names (git's
// setup_explicit_git_dir): a git directory, or a ".git" file naming one.
func explicitGitDir(start, gitDirEnv, commonEnv string) (location, error) {
	p := resolveFrom(start, gitDirEnv)
	loc := location{gitDir: p}
	if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
		target, err := readGitFile(p)
		if err != nil {
			return loc, err
		}
		loc.gitDir, loc.gitFile = target, p
	}
	if err := isGitDirectory(loc.gitDir, commonEnv); err != nil {
		return loc, fmt.Errorf("%w: '%s' (from GIT_DIR): %v; point GIT_DIR at a repository's git directory, or unset it", ErrNotRepository, gitDirEnv, err)
	}
	return loc, nil
}

// discover searches upward from start for a directory holding a ".git" that
// is a git directory, or a ".git" file (git's
// setup_git_directory_gently_1). A ".git" directory that is not a git
// directory is passed over, as git passes over it; a ".git" file that does
// not name one is an error, as in git. abs is start as given, for messages.
func discover(start, abs string, getenv func(string) (string, bool), commonEnv string) (location, error) {
	ceilings := ceilingDirs(getenv)
	acrossFS := false
	if v, ok := getenv("GIT_DISCOVERY_ACROSS_FILESYSTEM"); ok {
		acrossFS, _ = parseBool(v)
	}
	startDev, haveDev := deviceOf(start)
	for d := start; ; d = filepath.Dir(d) {
		if d != start && ceilings[d] {
			return location{}, fmt.Errorf("%w: %s (stopped at the ceiling %s from GIT_CEILING_DIRECTORIES; run git init there, or pass --root inside a repository)", ErrNotRepository, abs, d)
		}
		if !acrossFS && haveDev {
			if dev, ok := deviceOf(d); ok && dev != startDev {
				return location{}, fmt.Errorf("%w: %s (stopped at the file system boundary at %s, as git does unless GIT_DISCOVERY_ACROSS_FILESYSTEM is set; run git init there, or pass --root inside a repository)", ErrNotRepository, abs, d)
			}
		}
		loc, found, err := dotGit(d, commonEnv)
		if err != nil {
			return location{}, err
		}
		if found {
			return loc, nil
		}
		if filepath.Dir(d) == d {
			return location{}, fmt.Errorf("%w: %s (run git init there, or pass --root inside a repository)", ErrNotRepository, abs)
		}
	}
}

// ceilingDirs is the set of GIT_CEILING_DIRECTORIES entries: absolute
// paths, symlinks resolved where they resolve; relative entries are
// ignored, as git ignores them.
func ceilingDirs(getenv func(string) (string, bool)) map[string]bool {
	v, _ := getenv("GIT_CEILING_DIRECTORIES")
	set := map[string]bool{}
	for _, c := range filepath.SplitList(v) {
		if filepath.IsAbs(c) {
			set[normalizePath(c)] = true
		}
	}
	return set
}

// deviceOf is the device number of the file system holding path.
func deviceOf(path string) (uint64, bool) {
	fi, err := statPath(path) // on Windows: the volume serial number
	if err != nil {
		return 0, false
	}
	return fi.dev, true
}

// dotGit reports the git directory named by top/.git, which is either the
// directory itself or a file holding "gitdir: PATH". found is false when
// there is no ".git", or it is a directory but not a git directory.
func dotGit(top, commonEnv string) (loc location, found bool, err error) {
	p := filepath.Join(top, ".git")
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return location{}, false, nil
	case err != nil:
		return location{}, false, fmt.Errorf("inspect %s: %w", p, err)
	case fi.IsDir():
		if isGitDirectory(p, commonEnv) != nil {
			return location{}, false, nil
		}
		return location{gitDir: p, top: top}, true, nil
	}
	target, err := readGitFile(p)
	if err != nil {
		return location{}, false, err
	}
	if err := isGitDirectory(target, commonEnv); err != nil {
		return location{}, false, fmt.Errorf("%w: %s names %s, which is not a git directory: %v; fix or remove the .git file", ErrNotRepository, p, target, err)
	}
	return location{gitDir: target, gitFile: p, top: top}, true, nil
}

// readGitFile reads a ".git" file, "gitdir: PATH", and returns PATH made
// absolute against the file's directory.
func readGitFile(p string) (string, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", p, err)
	}
	line := strings.TrimSpace(string(b))
	target, ok := strings.CutPrefix(line, "gitdir:")
	if !ok {
		return "", fmt.Errorf("%w: %s is not a gitdir file (it should read \"gitdir: PATH\")", ErrNotRepository, p)
	}
	dir := resolveFrom(filepath.Dir(p), strings.TrimSpace(target))
	// As git (read_gitfile_gently takes the real path): the git dir whose
	// owner is checked is the one the links lead to.
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return dir, nil
}

// isGitDirectory is git's is_git_directory: HEAD is a symbolic ref into
// refs/ or an object name, and the common dir (commonEnv when set) has
// objects and refs directories. It says what is missing.
func isGitDirectory(dir, commonEnv string) error {
	head := filepath.Join(dir, "HEAD")
	if target, err := os.Readlink(head); err == nil {
		if !strings.HasPrefix(target, "refs/") {
			return fmt.Errorf("its HEAD is a symlink outside refs/")
		}
	} else {
		b, err := os.ReadFile(head)
		if err != nil {
			return fmt.Errorf("it has no readable HEAD: %w", err)
		}
		s := strings.TrimRight(string(b), "\r\n")
		if ref, ok := strings.CutPrefix(s, "ref:"); ok {
			if !strings.HasPrefix(strings.TrimLeft(ref, " \t"), "refs/") {
				return fmt.Errorf("its HEAD does not point into refs/")
			}
		} else if !isHexID(s) {
			return fmt.Errorf("its HEAD is neither a ref nor an object name")
		}
	}
	common := commonEnv
	if common == "" {
		var err error
		if common, _, err = commonDirOf(dir); err != nil {
			return err
		}
	}
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(common, sub)); err != nil || !fi.IsDir() {
			return fmt.Errorf("%s has no %s directory", common, sub)
		}
	}
	return nil
}

// isHexID reports whether s is a full SHA-1 or SHA-256 object name.
func isHexID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return false
		}
	}
	return true
}

// sameDir reports whether two paths name the same directory.
func sameDir(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA != nil || errB != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return os.SameFile(fa, fb)
}

// commonDirOf is the common dir of gitDir: what its "commondir" file names
// (relative to gitDir), or gitDir itself. linked is true when a commondir
// file exists, i.e. gitDir is a linked worktree's.
func commonDirOf(gitDir string) (common string, linked bool, err error) {
	b, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if errors.Is(err, os.ErrNotExist) {
		return gitDir, false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read %s: %w", filepath.Join(gitDir, "commondir"), err)
	}
	return resolveFrom(gitDir, strings.TrimRight(string(b), "\r\n")), true, nil
}

// worktreeTop decides the worktree's top directory (git's
// setup_explicit_git_dir and setup_discovered_git_dir, in their order):
// GIT_WORK_TREE, then a bare repository is refused, then core.worktree,
// then start when GIT_DIR was given, else the directory holding ".git".
// The top must exist; it is returned symlink-free.
func worktreeTop(start string, loc location, f repoFormat, getenv func(string) (string, bool)) (string, error) {
	var top, from string
	if wt, ok := getenv("GIT_WORK_TREE"); ok {
		top, from = resolveFrom(start, wt), "GIT_WORK_TREE"
	} else if f.bareSet && f.bare {
		msg := "it is a bare repository (core.bare = true), and git-edit edits files in a worktree"
		if f.worktree != "" {
			msg = "core.bare = true and core.worktree are both set, which git refuses too (\"core.bare and core.worktree do not make sense\")"
		}
		return "", fmt.Errorf("%w: %s: %s; use a worktree of it (git worktree add), or set GIT_WORK_TREE", ErrNotRepository, loc.gitDir, msg)
	} else if f.worktree != "" {
		top, from = resolveFrom(loc.gitDir, f.worktree), "core.worktree"
	} else if loc.top == "" {
		top, from = start, "GIT_DIR without GIT_WORK_TREE: the working directory"
	} else {
		return loc.top, nil
	}
	real, err := filepath.EvalSymlinks(top)
	if err == nil {
		var fi os.FileInfo
		if fi, err = os.Stat(real); err == nil && !fi.IsDir() {
			err = errors.New("not a directory")
		}
	}
	if err != nil {
		return "", fmt.Errorf("%w: the worktree %s (from %s) is unusable: %v; point it at the worktree's top directory", ErrNotRepository, top, from, err)
	}
	return real, nil
}

// openAt opens the repository whose worktree top, git dir and common dir
// are known and checked.
func openAt(top, gitDir, common string, format repoFormat) (*Repo, error) {
	st := filesystem.NewStorageWithOptions(osfs.New(common), cache.NewObjectLRUDefault(), filesystem.Options{
		// Objects/info/alternates paths are absolute or relative to the
		// objects directory; a root filesystem resolves both.
		AlternatesFS: osfs.New("/"),
	})
	var read objectReader = packidx.New(filepath.Join(common, "objects"))
	if useGoGitReader.Load() {
		read = goGitReader{st}
	}
	return &Repo{Top: top, GitDir: gitDir, CommonDir: common, worktreeConfig: format.worktreeConfig, objects: objectStore{st, read, &pendingObjects{}}, smudger: &smudger{}}, nil
}

// useGoGitReader makes repositories opened from now on read objects
// through go-git's own reader (see objectStore).
var useGoGitReader atomic.Bool

// UseGoGitReader makes repositories opened from now on read objects
// through go-git's reader instead of packidx (on), or through packidx
// again (off, the default). It exists to compare the two: the command
// sets it when GIT_EDIT_PACKIDX is "off" (see cmd/git-edit-bench); this
// package never reads the environment for it.
func UseGoGitReader(on bool) { useGoGitReader.Store(on) }

// StateDir is where git-edit keeps its own files: the edit lock, the ref
// lock records, and per-session state kept by package session. It lives in
// the common dir so that every worktree of a repository shares one lock,
// as they share one set of refs. It may not exist yet.
func (r *Repo) StateDir() string { return filepath.Join(r.CommonDir, "git-edit") }

// isUnder reports whether path is dir or inside it (both cleaned, absolute).
func isUnder(path, dir string) bool {
	if path == dir {
		return true
	}
	if dir == string(filepath.Separator) {
		return true
	}
	return strings.HasPrefix(path, dir+string(filepath.Separator))
}

// trimLine returns b without one trailing "\n" (and "\r\n").
func trimLine(b []byte) []byte {
	return bytes.TrimRight(b, "\r\n")
}
