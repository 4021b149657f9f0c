// Package companion finds git-edit's companion programs: the parts of
// git-edit that live in programs of their own, as git keeps its helpers
// (git-upload-pack, git-remote-https), so that the git-edit binary a host
// starts for every call does not load and initialize what only one command
// needs. git-edit-mcp is the MCP server (`git edit mcp` runs it in its
// place); git-edit-secrets is the secret scan of `git edit push`.
//
// A companion is looked for, in this order and only there:
//
//   - in the directory $GIT_EDIT_EXEC_PATH names, when it is set and not
//     empty (and nowhere else: the person chose that directory);
//   - beside the running program (os.Executable, symlinks resolved), where
//     `go install ./cmd/...` and the release archives put it;
//   - on PATH.
//
// This package touches no repository; it only looks at the disk.
package companion

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// The companion programs.
const (
	MCP     = "git-edit-mcp"
	Secrets = "git-edit-secrets"
)

// EnvExecPath is the environment variable naming the directory companions
// are taken from, as GIT_EXEC_PATH names git's.
const EnvExecPath = "GIT_EDIT_EXEC_PATH"

// Install is how a person installs every program of git-edit, said in a
// refusal that a companion is missing.
const Install = "go install ./cmd/... in the top directory of the git-edit checkout installs git-edit with its companions git-edit-mcp and git-edit-secrets"

// MissingError is a companion that was not found: which, and where it was
// looked for.
type MissingError struct {
	Name   string
	Looked []string // the places looked in, in order, for the message
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("%s is not installed: it was looked for %s; %s (or set %s to the directory that holds it)",
		e.Name, strings.Join(e.Looked, ", then "), Install, EnvExecPath)
}

// Find returns the absolute path of the companion program name (MCP,
// Secrets), found as the package documentation says, or a *MissingError
// naming it and where it was looked for. A relative $GIT_EDIT_EXEC_PATH is
// taken from the current directory. A directory that cannot be read counts
// as not holding it.
func Find(name string) (string, error) {
	file := name
	if runtime.GOOS == "windows" {
		file += ".exe"
	}
	if dir := os.Getenv(EnvExecPath); dir != "" {
		// Made absolute here, against the directory the person is in: the
		// path returned must name the program checked wherever it is run
		// from. Relative, "." would join to the bare name, which exec
		// looks up on PATH, and "bin/..." would be taken relative to the
		// exec.Cmd's Dir when it has one.
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", fmt.Errorf("%s=%s: making it an absolute path: %w", EnvExecPath, dir, err)
		}
		p := filepath.Join(abs, file)
		if isProgram(p) {
			return p, nil
		}
		where := abs
		if abs != dir {
			where = fmt.Sprintf("%s, that is %s", dir, abs)
		}
		return "", &MissingError{Name: name, Looked: []string{fmt.Sprintf("in %s (%s)", where, EnvExecPath)}}
	}
	var looked []string
	if self, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(self); err == nil {
			self = real
		}
		dir := filepath.Dir(self)
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs // os.Executable does not promise an absolute path
		}
		p := filepath.Join(dir, file)
		if isProgram(p) {
			return p, nil
		}
		looked = append(looked, fmt.Sprintf("beside %s in %s", filepath.Base(self), dir))
	}
	p, err := exec.LookPath(file)
	if err == nil {
		if abs, aerr := filepath.Abs(p); aerr == nil {
			p = abs
		}
		return p, nil
	}
	if !errors.Is(err, exec.ErrNotFound) && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, exec.ErrDot) {
		return "", fmt.Errorf("looking for %s on PATH: %w", name, err)
	}
	looked = append(looked, "on PATH")
	return "", &MissingError{Name: name, Looked: looked}
}

// isProgram reports whether p is a regular file the process may run: on
// unix one with an execute bit, on Windows any (its name ends in .exe).
func isProgram(p string) bool {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	return runtime.GOOS == "windows" || fi.Mode().Perm()&0o111 != 0
}
