package main

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/urfave/cli/v2"
)

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:         "version",
		Usage:        "print the versions of git-edit, the Go it was built with, and git (as --version does)",
		OnUsageError: clikit.UsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fmt.Errorf("version takes no arguments, got %q", c.Args().First())
			}
			return runVersion(c.Context, c.App.Writer)
		},
	}
}

// runVersion prints three lines, in the words of `git version` and `go
// version`:
//
//	git-edit version v0.0.0-20261121153000-0123456789ab+dirty
//	go version go1.26.0 linux/amd64
//	git version 2.47.3
//
// git-edit's version is its module's, as the go command stamped it at
// build ("(devel)" when it could not: go run, tests). The git line is what
// the git on PATH says, since that git is the one git-edit runs; a missing
// git is said, not an error: the version is what one asks when something
// is wrong.
func runVersion(ctx context.Context, w io.Writer) error {
	mod := "(unknown)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		mod = bi.Main.Version
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	git := "git: not found on PATH; git-edit needs it"
	if out, err := exec.CommandContext(ctx, "git", "version").Output(); err == nil {
		git = strings.TrimSpace(string(out))
	} else if _, lookErr := exec.LookPath("git"); lookErr == nil {
		git = fmt.Sprintf("git: `git version` failed: %v", err)
	}
	_, err := fmt.Fprintf(w, "git-edit version %s\ngo version %s %s/%s\n%s\n", mod, runtime.Version(), runtime.GOOS, runtime.GOARCH, git)
	return err
}
