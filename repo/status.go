package repo

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path"
	"strings"
)

// StatusPaths asks `git status` which paths of the worktree may differ from
// HEAD: modified, staged, deleted, unmerged and untracked (not ignored)
// files, each once, relative to the worktree top, in git's order. pathspecs
// (relative to the top, taken literally; a directory covers what is under
// it) narrow the question; none means the whole worktree.
//
// It is the cheap question (git compares the index's stat data, and uses
// the untracked cache and fsmonitor where configured), so the caller reads
// and compares only what it names. It runs with --no-optional-locks: it
// never writes the index, so it cannot collide with the person's own git
// commands. Submodules are left out (their files belong to their own
// repository), and so is an untracked nested repository, which git names as
// a directory, and so are git-edit's own temporary files (IsTemporary).
func (r *Repo) StatusPaths(ctx context.Context, pathspecs []string) ([]string, error) {
	args := []string{"--no-optional-locks", "--literal-pathspecs", "-c", "core.quotePath=false",
		"status", "--porcelain=v2", "-z", "--untracked-files=all", "--no-renames", "--ignore-submodules=all", "--"}
	cmd := r.gitEnv(exec.CommandContext(ctx, "git", append(args, pathspecs...)...))
	// git status runs clean filters (a file whose stat changed): one that
	// hangs ends with git at ctx's deadline, not when it pleases.
	boundBy(cmd)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("ask git status which files changed: %w: %s (git-edit asks git, so git must be on PATH and `git status` must work here)", err, strings.TrimSpace(stderr.String()))
	}
	return parseStatusV2(stdout.Bytes())
}

// parseStatusV2 reads the paths of `git status --porcelain=v2 -z` output.
func parseStatusV2(out []byte) ([]string, error) {
	var paths []string
	seen := map[string]bool{}
	add := func(p string) {
		// A trailing slash names a directory git does not descend into:
		// an untracked nested repository.
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
			return nil, fmt.Errorf("read git status output: unknown entry %q", rec)
		}
		parts := strings.SplitN(rec, " ", fields+1)
		if len(parts) != fields+1 {
			return nil, fmt.Errorf("read git status output: short entry %q", rec)
		}
		if rec[0] != '?' && parts[2][0] == 'S' {
			continue // a submodule
		}
		if rec[0] == '?' && IsTemporary(path.Base(parts[fields])) {
			// git-edit's own temporary file (of a running or a killed
			// process): never the work of the agent being recorded.
			continue
		}
		add(parts[fields])
		if rec[0] == '2' && i+1 < len(recs) {
			i++
			add(string(recs[i])) // the rename's source
		}
	}
	return paths, nil
}
