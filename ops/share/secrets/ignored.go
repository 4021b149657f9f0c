package secrets

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
)

// Ignored returns which of paths (slash-separated, relative to the top of the
// worktree dir) the worktree's ignore rules (.gitignore files, .git/info/exclude,
// core.excludesFile) exclude, as `git check-ignore` decides, run in dir.
// A path that is tracked in the index is not ignored (git's own answer).
// Paths are passed literally: names with *, ?, [, :, leading '-' or ':(' are
// never read as pathspecs or options (feed them on stdin with -z; prefix "./"
// where needed; drop GIT_LITERAL_PATHSPECS/GIT_GLOB_PATHSPECS/GIT_NOGLOB_PATHSPECS/
// GIT_ICASE_PATHSPECS from the environment of the git it runs, and run it with LC_ALL=C).
// check-ignore exits 1 when nothing is ignored: that is not an error.
//
// The map holds only ignored paths (true); an empty path is never ignored.
//
// check-ignore reads its paths as pathspecs when it looks for tracked
// files, so that a name like "*.go" would count as tracked when any .go
// file is, and it refuses --literal-pathspecs. So Ignored asks it with
// --no-index (ignore rules only, each path matched literally), then asks
// `git --literal-pathspecs ls-files` which of the ignored paths are
// tracked: a path is tracked when the index has it, or has files under it
// (a directory), not counting skip-worktree entries, as check-ignore does.
// A path git refuses (outside the repository, beyond a symbolic link)
// fails the whole call.
func Ignored(ctx context.Context, dir string, paths []string) (map[string]bool, error) {
	ignored, err := checkIgnore(ctx, dir, paths)
	if err != nil || len(ignored) == 0 {
		return ignored, err
	}
	candidates := slices.Sorted(maps.Keys(ignored))
	for len(candidates) > 0 {
		batch := candidates[:min(len(candidates), argBatch)]
		candidates = candidates[len(batch):]
		tracked, err := trackedOf(ctx, dir, batch)
		if err != nil {
			return nil, err
		}
		for _, p := range tracked {
			delete(ignored, p)
		}
	}
	return ignored, nil
}

// argBatch is how many paths go on one git command line.
const argBatch = 500

// checkIgnore returns which of paths the ignore rules of the worktree at
// dir exclude, tracked or not (`git check-ignore --no-index`).
func checkIgnore(ctx context.Context, dir string, paths []string) (map[string]bool, error) {
	ignored := make(map[string]bool)
	var stdin bytes.Buffer
	sent := make(map[string]string) // what git is given, and prints -> path
	for _, p := range paths {
		if p == "" {
			continue
		}
		arg := p
		if strings.HasPrefix(p, ":") || strings.HasPrefix(p, "-") {
			arg = "./" + p // no pathspec magic, no option
		}
		if _, dup := sent[arg]; dup {
			continue
		}
		sent[arg] = p
		stdin.WriteString(arg)
		stdin.WriteByte(0)
	}
	if len(sent) == 0 {
		return ignored, nil
	}
	out, err := runGit(ctx, dir, &stdin, "check-ignore", "--no-index", "--stdin", "-z")
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 {
		return ignored, nil // nothing ignored
	}
	if err != nil {
		return nil, err
	}
	for _, o := range strings.Split(out, "\x00") {
		if o == "" {
			continue
		}
		p, ok := sent[o]
		if !ok {
			return nil, fmt.Errorf("secrets: git check-ignore in %s printed %q, a path it was not given", dir, o)
		}
		ignored[p] = true
	}
	return ignored, nil
}

// trackedOf returns which of paths the index of the repository at dir
// tracks: holds as a file, or holds files under, skip-worktree entries
// aside.
func trackedOf(ctx context.Context, dir string, paths []string) ([]string, error) {
	args := append([]string{"--literal-pathspecs", "ls-files", "-z", "-t", "--cached", "--"}, paths...)
	out, err := runGit(ctx, dir, nil, args...)
	if err != nil {
		return nil, err
	}
	var entries []string
	for _, e := range strings.Split(out, "\x00") {
		tag, name, ok := strings.Cut(e, " ")
		if ok && tag != "S" {
			entries = append(entries, name)
		}
	}
	var tracked []string
	for _, p := range paths {
		clean := strings.TrimSuffix(strings.TrimPrefix(p, "./"), "/")
		if slices.ContainsFunc(entries, func(e string) bool { return e == clean || strings.HasPrefix(e, clean+"/") }) {
			tracked = append(tracked, p)
		}
	}
	return tracked, nil
}

// runGit runs git with args in dir, stdin as its input, and returns its
// output. A cancelled ctx ends it with ctx.Err().
func runGit(ctx context.Context, dir string, stdin io.Reader, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctxErr := ctx.Err(); ctxErr != nil {
		return "", ctxErr
	}
	if err != nil {
		return "", fmt.Errorf("secrets: git %s in %s: %w: %s", args[0], dir, err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// gitEnv is the environment Ignored runs git with: this process's, less
// the variables that change how pathspecs are read (check-ignore refuses
// literal pathspecs, and they clash with --literal-pathspecs), and with LC_ALL=C.
func gitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GIT_LITERAL_PATHSPECS", "GIT_GLOB_PATHSPECS", "GIT_NOGLOB_PATHSPECS", "GIT_ICASE_PATHSPECS", "LC_ALL":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LC_ALL=C")
}
