package repo

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrDubiousOwnership is returned by Open for a repository that another
// user owns and that no safe.directory entry allows, as git refuses it:
// editing it would leave files and object directories the owner cannot
// write.
var ErrDubiousOwnership = errors.New("detected dubious ownership in repository")

// checkOwnership is git's ensure_valid_ownership (setup.c) for a
// repository found by discovery: the worktree top, the ".git" file when
// there is one, and the git directory must all be owned by the user
// git-edit runs as (for root, also by the user sudo ran it for). Otherwise
// the repository is allowed only by a safe.directory entry in the
// protected config (system, global, command line), never the repository's
// own. gitFile is "" when .git is a directory.
func checkOwnership(top, gitFile, gitDir string) error {
	var notOwned, owner string
	for _, p := range []string{gitFile, top, gitDir} {
		if p == "" {
			continue
		}
		who, ok, err := ownedByCurrentUser(p) // owner_<os>.go
		if err != nil {
			return err
		}
		if !ok {
			notOwned, owner = p, who
			break
		}
	}
	if notOwned == "" {
		return nil
	}
	safe, err := safeDirectory(top)
	if err != nil {
		return err
	}
	if safe {
		return nil
	}
	return fmt.Errorf("%w at '%s': %s is owned by %s, but git-edit runs as %s, and git refuses such a repository too. To add an exception for this directory, call: git config --global --add safe.directory %s",
		ErrDubiousOwnership, top, notOwned, owner, currentUser(), shellQuote(top))
}

// safeDirectory reports whether the protected config's safe.directory list
// allows the worktree top, as git's safe_directory_cb decides: "*" allows
// everything; an empty value clears what came before; an absolute path
// (after "~/" and "%(prefix)/" expansion and symlink resolution) allows
// exactly that directory, or with a trailing "/*" everything below it (git
// 2.46 and later). Relative values are ignored, as git ignores them with a
// warning.
func safeDirectory(top string) (bool, error) {
	values, err := configValues(protectedConfigFiles(), "safe", "directory")
	if err != nil {
		return false, err
	}
	path := top
	if real, err := filepath.EvalSymlinks(top); err == nil {
		path = real
	}
	safe := false
	for _, v := range values {
		switch {
		case v == "":
			safe = false
		case v == "*":
			safe = true
		default:
			allowed, ok := expandConfigPath(v)
			if !ok || !filepath.IsAbs(allowed) {
				continue
			}
			if dir, isGlob := strings.CutSuffix(allowed, "/*"); isGlob {
				if dir == "" { // "/*": everything below the root
					safe = true
					continue
				}
				if isUnder(path, normalizePath(dir)) && path != normalizePath(dir) {
					safe = true
				}
				continue
			}
			if normalizePath(allowed) == path {
				safe = true
			}
		}
	}
	return safe, nil
}

// normalizePath is the absolute, symlink-free form of p when it can be
// resolved, else p cleaned: git compares safe.directory entries with the
// repository's real path the same way.
func normalizePath(p string) string {
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return filepath.Clean(p)
}

// expandConfigPath expands a pathname config value as git's
// interpolate_path does: "~/" and "~user/" to home directories, and
// "%(prefix)/" to git's installation prefix (found from `git --exec-path`
// being PREFIX/lib/git-core or PREFIX/libexec/git-core). ok is false when an
// expansion is impossible; git skips such an entry too.
func expandConfigPath(v string) (string, bool) {
	switch {
	case v == "~" || strings.HasPrefix(v, "~/"):
		home, err := os.UserHomeDir()
		if err != nil || home == "" {
			return "", false
		}
		return home + v[1:], true
	case strings.HasPrefix(v, "~"):
		return gitUserPath(v)
	case strings.HasPrefix(v, "%(prefix)/"):
		prefix, ok := gitPrefix()
		if !ok {
			return "", false
		}
		return filepath.Join(prefix, v[len("%(prefix)/"):]), true
	}
	return v, true
}

// gitUserPath expands "~user/..." as git does, by asking git (only when
// such an entry exists): git looks the user up in the system's user
// database (getpwnam). Reading that database from Go (os/user) would link
// the C library into every git-edit program, whose dynamic loading costs
// each command's start more than this rare entry would ever save. ok is
// false when git cannot expand it (no such user).
func gitUserPath(v string) (string, bool) {
	const key = "gitedit.expand"
	out, err := exec.Command("git", "-c", key+"="+v, "config", "--type=path", "--get", key).Output()
	if err != nil {
		return "", false
	}
	p := strings.TrimSuffix(string(out), "\n")
	if p == "" {
		return "", false
	}
	return filepath.Clean(p), true
}

// shellQuote quotes s for a POSIX shell when it needs quoting, as git's
// sq_quote_buf_pretty does for the command in its dubious-ownership advice.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:,@%=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// gitPrefix is the installation prefix of the git on PATH, which
// "%(prefix)/" in a path setting stands for. It asks git itself (only when
// such an entry exists), since the prefix is compiled into git.
func gitPrefix() (string, bool) {
	out, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		return "", false
	}
	execPath := filepath.Clean(strings.TrimSpace(string(out)))
	for _, suffix := range []string{"/libexec/git-core", "/lib/git-core"} {
		if prefix, ok := strings.CutSuffix(execPath, suffix); ok && prefix != "" {
			return prefix, true
		}
	}
	return "", false
}
