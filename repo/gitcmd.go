package repo

import (
	"context"
	"os/exec"
)

// GitCommand prepares `git args...` on this repository for the layers
// above, with the environment of every git git-edit runs (see gitEnv: the
// variables that would point git elsewhere dropped, GIT_DIR set, LC_ALL=C
// so that its messages can be read), ended with ctx.
func (r *Repo) GitCommand(ctx context.Context, args ...string) *exec.Cmd {
	return r.gitEnv(exec.CommandContext(ctx, "git", args...))
}
