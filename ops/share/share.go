// Package share sends sessions to the team's git server and brings other
// people's back, with git itself: `git push` of one refspec per session
// into refs/edits/<owner>/<session> on the server, after checking that
// nothing the push adds is an ignored file or holds a secret, and
// `git fetch` of the server's refs/edits/* into the read-only namespace
// refs/edits-remote/<remote>/. The person's remotes, credentials,
// protocols and hooks all apply, as they do to their own pushes.
package share

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/session"
)

// Sentinel errors callers branch on.
var (
	// ErrNoRemote: the remote named (or the default one) is not
	// configured.
	ErrNoRemote = errors.New("no such remote")
	// ErrNoOwner: neither edit.owner nor user.email gives an owner.
	ErrNoOwner = errors.New("no owner for the pushed sessions")
	// ErrNotFastForward: the server's copy of a session has commits the
	// session does not.
	ErrNotFastForward = errors.New("the server's copy of a session has commits this session does not")
	// ErrSecrets: the push would send an ignored file or a secret.
	ErrSecrets = errors.New("the push would send ignored files or secrets")
	// ErrPushRejected: git push failed, or the server refused a ref.
	ErrPushRejected = errors.New("git push failed")
	// ErrFetch: git fetch failed.
	ErrFetch = errors.New("git fetch failed")
)

// ServerRef is where session name of owner lives on the server.
func ServerRef(owner, name string) string { return "refs/edits/" + owner + "/" + name }

// Owner is the namespace this person's sessions are pushed under: git
// config edit.owner, else user.email with every character a ref name
// cannot hold (or that would read as a path) replaced by '-'. Errors wrap
// ErrNoOwner (neither is set) or session.ErrBadName (edit.owner is no
// valid ref component).
func Owner(r *repo.Repo) (string, error) {
	if v, ok, err := r.ConfigValue("edit", "owner"); err != nil {
		return "", err
	} else if ok && v != "" {
		if err := session.ValidateName(v); err != nil {
			return "", fmt.Errorf("git config edit.owner: %w", err)
		}
		return v, nil
	}
	email, ok, err := r.ConfigValue("user", "email")
	if err != nil {
		return "", err
	}
	owner := ownerFromEmail(email)
	if !ok || session.ValidateName(owner) != nil {
		return "", fmt.Errorf("%w: set one with `git config --global edit.owner NAME` (your sessions are pushed to refs/edits/NAME/), or set user.email", ErrNoOwner)
	}
	return owner, nil
}

// ownerFromEmail keeps letters, digits and . _ + @ - of email, lower
// case, and turns every other character into '-'; "" when nothing is
// left.
func ownerFromEmail(email string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(strings.TrimSpace(email)) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', strings.ContainsRune("._+@-", c):
			b.WriteRune(c)
		default:
			b.WriteByte('-')
		}
	}
	return strings.Trim(strings.ReplaceAll(b.String(), "..", "-"), ".-")
}

// gitRunner runs git on one repository for this package: with LC_ALL=C
// (its messages are read), and without credential prompts unless Prompts
// (a person at a terminal can answer one; a hook or an agent cannot, and
// git would wait for ever).
type gitRunner struct {
	r       *repo.Repo
	prompts bool
}

// run runs git with stdin, and returns its stdout; on failure the error
// holds git's stderr, trimmed.
func (g gitRunner) run(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	out, stderr, err := g.runFull(ctx, stdin, args...)
	if err != nil {
		return out, gitError(args, stderr, err)
	}
	return out, nil
}

// runFull is run returning stderr too, and the bare error of git.
func (g gitRunner) runFull(ctx context.Context, stdin []byte, args ...string) (stdout, stderr []byte, err error) {
	cmd := g.r.GitCommand(ctx, args...)
	if !g.prompts {
		// git runs an askpass program (GIT_ASKPASS, core.askPass,
		// SSH_ASKPASS; editors set GIT_ASKPASS in their terminals) before
		// it looks at GIT_TERMINAL_PROMPT: an empty GIT_ASKPASS makes it
		// skip all three, and ssh is told never to ask either.
		cmd.Env = append(cmd.Env, "GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS_REQUIRE=never", "GCM_INTERACTIVE=never")
	}
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	err = cmd.Run()
	if ctx.Err() != nil {
		return o.Bytes(), e.Bytes(), ctx.Err()
	}
	return o.Bytes(), e.Bytes(), err
}

// gitError is a failed git command, with what git said.
func gitError(args []string, stderr []byte, err error) error {
	var exit *exec.ExitError
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("git %s: %w", args[0], err)
	case !errors.As(err, &exit):
		return fmt.Errorf("run git %s: %w (git must be on PATH)", args[0], err)
	}
	msg := strings.TrimSpace(string(stderr))
	if msg == "" {
		msg = err.Error()
	}
	return fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
}
