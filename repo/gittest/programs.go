package gittest

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// Programs are the import paths of every program a git-edit installation
// has: git-edit and its companions (see ops/companion), all of which
// `go install ./cmd/...` installs side by side.
var Programs = []string{
	"github.com/git-edit/git-edit/cmd/git-edit",
	"github.com/git-edit/git-edit/cmd/git-edit-mcp",
	"github.com/git-edit/git-edit/cmd/git-edit-secrets",
}

// BuildPrograms builds the programs pkgs (import paths of this module's
// commands; Programs when none are given) into dir with `go build -o`, as
// `go install` would lay them out: side by side, named for their folders.
// It runs inside this module, so tests of any of its packages can call it.
func BuildPrograms(dir string, pkgs ...string) error {
	if len(pkgs) == 0 {
		pkgs = Programs
	}
	cmd := exec.Command("go", append([]string{"build", "-o", dir + string(os.PathSeparator)}, pkgs...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %v: %w\n%s", pkgs, err, out)
	}
	return nil
}

// RunWithPrograms is a TestMain's body for tests that run companion
// programs: it builds pkgs into a new temporary directory, sets the
// environment variable env (such as GIT_EDIT_EXEC_PATH) to it, runs the
// tests and removes the directory, and returns the exit status for
// os.Exit: m.Run's, or 1 (with why on stderr) when the build failed.
func RunWithPrograms(m *testing.M, env string, pkgs ...string) int {
	dir, err := os.MkdirTemp("", "git-edit-programs")
	if err == nil {
		err = BuildPrograms(dir, pkgs...)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	os.Setenv(env, dir)
	return m.Run()
}
