package repo

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// StatusPaths asks `git status` which paths of the worktree may differ from
// HEAD: modified, staged, deleted, unmerged and untracked (not ignored)
// files, each once, relative to the worktree top, in git's order. pathspecs
// narrow the question; none means the whole worktree. Each is a path
// relative to the top, slash-separated and taken literally (never a glob),
// cleaned first ("./u", "u/" and "u//" all mean u; "" and "." the whole
// worktree): a file, or a directory covering what is under it.
//
// It is the cheap question (git compares the index's stat data, and uses
// the untracked cache and fsmonitor where configured), so the caller reads
// and compares only what it names. It runs with --no-optional-locks: it
// never writes the index, so it cannot collide with the person's own git
// commands. Submodules are left out (their files belong to their own
// repository), and so is an untracked nested repository, which git names as
// a directory, and so are git-edit's own temporary files (IsTemporary).
//
// The untracked cache serves only the mode of untracked files it was made
// for (`status.showUntrackedFiles`, "normal" unless the person set "all");
// in any other mode git walks every directory of the worktree. So
// StatusPaths asks in the person's mode, and where "normal" names a whole
// untracked directory, or a tracked path that is now a directory (deleted,
// or unmerged: git names no file under it), asks again in "all" with those
// directories as pathspecs: a second, narrow question, asked only when
// there is such a directory (a nested repository is none: git names it,
// never its files; and in the "all" mode the first question named every
// file). Past maxUntrackedSpecs directories, or
// maxUntrackedSpecBytes of them, the second question is the caller's own in
// "all" (a walk of everything the caller asked about, without the cache),
// which costs less than a long list of pathspecs and always fits on a
// command line.
func (r *Repo) StatusPaths(ctx context.Context, pathspecs []string) ([]string, error) {
	pathspecs = cleanSpecs(pathspecs)
	mode := "normal"
	if v, ok, err := r.ConfigValue("status", "showUntrackedFiles"); err == nil && ok && strings.EqualFold(v, "all") {
		mode = "all"
	}
	out, err := r.runGitBounded(ctx, statusArgs(mode, pathspecs), "ask git status which files changed")
	if err != nil {
		return nil, err
	}
	paths, dirs, missing, err := parseStatusV2(out)
	if err != nil || mode == "all" {
		return paths, err // "all" named every file already
	}
	// A nested repository is named as a directory in every mode, and left
	// out: asking again about it would only name it again.
	dirs = slices.DeleteFunc(dirs, func(d string) bool { return isNestedRepository(filepath.Join(r.Top, filepath.FromSlash(d))) })
	// In the "normal" mode git names no untracked file under a directory
	// that took the place of a tracked file (c.txt deleted, or unmerged,
	// and c.txt/d.txt new): it names only c.txt. "all" names them.
	for _, p := range missing {
		if fi, err := os.Lstat(filepath.Join(r.Top, filepath.FromSlash(p))); err == nil && fi.IsDir() {
			dirs = append(dirs, p+"/")
		}
	}
	if len(dirs) == 0 {
		return paths, nil
	}
	specs := untrackedSpecs(dirs, pathspecs)
	if len(specs) == 0 {
		return paths, nil
	}
	if tooManySpecs(specs) {
		specs = pathspecs // the caller's question, in "all"
	}
	// Asked with --untracked-files=all, but only of those directories:
	// git walks no other. (`git ls-files --others` with a pathspec into
	// a directory that holds a .git names nothing; status names them.)
	if out, err = r.runGitBounded(ctx, statusArgs("all", specs), "ask git status which files are untracked"); err != nil {
		return nil, err
	}
	under, _, _, err := parseStatusV2(out)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(paths))
	for _, p := range paths {
		seen[p] = true
	}
	for _, p := range under {
		if !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	return paths, nil
}

// isNestedRepository reports whether dir holds a repository of its own as
// git recognises one when it walks untracked files: .git a directory
// holding HEAD, objects and refs. git names such a directory, never its
// files, in every mode. (A .git file naming a repository elsewhere is not
// looked into: it is asked about again, which costs a question, never a
// file.)
func isNestedRepository(dir string) bool {
	for _, part := range []string{"HEAD", "objects", "refs"} {
		if _, err := os.Lstat(filepath.Join(dir, ".git", part)); err != nil {
			return false
		}
	}
	return true
}

// The bounds of StatusPaths' second question: past this many untracked
// directories, or this many bytes of them, it asks the caller's question in
// "all" instead. A pathspec costs git a match against every path it walks,
// so thousands of them cost more than the walk they save (15,000 took 3.5
// s where the whole walk took 0.14 s), and 40,000 overflow the command
// line (E2BIG); 24 KiB leaves room under Windows' 32,767-character
// limit for git's own arguments and the quotes around names with spaces.
// (A variable only so that tests can make the bound small.)
var maxUntrackedSpecs = 100

const maxUntrackedSpecBytes = 24 << 10

// tooManySpecs reports whether specs are past either bound.
func tooManySpecs(specs []string) bool {
	if len(specs) > maxUntrackedSpecs {
		return true
	}
	n := 0
	for _, s := range specs {
		n += len(s) + 1
	}
	return n > maxUntrackedSpecBytes
}

// cleanSpecs returns pathspecs cleaned (path.Clean), and none when one of
// them is the whole worktree ("" or ".").
func cleanSpecs(pathspecs []string) []string {
	clean := make([]string, 0, len(pathspecs))
	for _, p := range pathspecs {
		c := path.Clean(p)
		if c == "." {
			return nil
		}
		clean = append(clean, c)
	}
	return clean
}

// statusArgs is the git command line of StatusPaths' questions: untracked
// files in mode, of pathspecs (literal; none: the whole worktree).
func statusArgs(mode string, pathspecs []string) []string {
	args := []string{"--no-optional-locks", "--literal-pathspecs", "-c", "core.quotePath=false",
		"status", "--porcelain=v2", "-z", "--untracked-files=" + mode, "--no-renames", "--ignore-submodules=all", "--"}
	return append(args, pathspecs...)
}

// runGitBounded runs git with args in the worktree's top and returns its
// standard output. git may run clean filters (a file whose stat changed):
// one that hangs ends with git at ctx's deadline (ctx.Err() is returned),
// not when it pleases. Any other failure is wrapped with what, git's
// message and what to check.
func (r *Repo) runGitBounded(ctx context.Context, args []string, what string) ([]byte, error) {
	cmd := r.gitEnv(exec.CommandContext(ctx, "git", args...))
	boundBy(cmd)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%s: %w: %s (git-edit asks git, so git must be on PATH and `git status` must work here)", what, err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}

// untrackedSpecs is what of the untracked directories dirs (each ending in
// "/") the pathspecs (clean, see cleanSpecs) cover: a directory under a
// pathspec (or every one, without pathspecs) whole, and a pathspec under a
// directory itself.
func untrackedSpecs(dirs, pathspecs []string) []string {
	if len(pathspecs) == 0 {
		return dirs
	}
	var specs []string
	for _, d := range dirs {
		for _, p := range pathspecs {
			if strings.HasPrefix(d, p+"/") {
				specs = append(specs, d) // the whole directory: nothing more to add for d
				break
			}
			if strings.HasPrefix(p, d) {
				specs = append(specs, p)
			}
		}
	}
	return specs
}

// parseStatusV2 reads the paths of `git status --porcelain=v2 -z` output,
// and apart from them the untracked directories it names whole (each
// ending in "/": an untracked directory in the "normal" mode, or a nested
// repository), and which of the paths may be missing from the worktree:
// deleted, or unmerged (git says nothing of an unmerged path's worktree).
func parseStatusV2(out []byte) (paths, dirs, missing []string, err error) {
	seen := map[string]bool{}
	add := func(p string) {
		if p != "" && !strings.HasSuffix(p, "/") && !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	recs := bytes.Split(out, []byte{0})
	for i := 0; i < len(recs); i++ {
		rec := string(recs[i])
		if rec == "" {
			continue
		}
		// Fields before the path, per kind: "1 XY sub mH mI mW hH hI
		// path", "2 ... X<score> path\0orig", "u XY sub m1 m2 m3 mW h1 h2
		// h3 path", "? path", "! path".
		var fields int
		switch rec[0] {
		case '1':
			fields = 8
		case '2':
			fields = 9
		case 'u':
			fields = 10
		case '?':
			fields = 1
		case '!', '#':
			continue
		default:
			return nil, nil, nil, fmt.Errorf("read git status output: unknown entry %q", rec)
		}
		parts := strings.SplitN(rec, " ", fields+1)
		if len(parts) != fields+1 {
			return nil, nil, nil, fmt.Errorf("read git status output: short entry %q", rec)
		}
		if rec[0] != '?' && parts[2][0] == 'S' {
			continue // a submodule
		}
		if rec[0] == '?' && strings.HasSuffix(parts[fields], "/") {
			dirs = append(dirs, parts[fields])
			continue
		}
		if base := path.Base(parts[fields]); rec[0] == '?' && (IsTemporary(base) || IsKept(base)) {
			// git-edit's own temporary file (of a running or a killed
			// process), or a version it kept after a crash: never the
			// work of the agent being recorded.
			continue
		}
		add(parts[fields])
		if rec[0] == 'u' || rec[0] != '?' && parts[1][1] == 'D' {
			missing = append(missing, parts[fields])
		}
		if rec[0] == '2' && i+1 < len(recs) {
			i++
			add(string(recs[i])) // the rename's source
		}
	}
	return paths, dirs, missing, nil
}
