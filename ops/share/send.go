package share

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// gitPush runs the one git push of the sessions, <tip>:<server ref> each
// (the tip checked, not the ref's name, so that an edit made since is not
// sent unchecked), never forced: the server refuses what is not a fast
// forward. It asks for --atomic, and pushes without it when the server
// does not offer atomic pushes. Options the person's config may set that
// would send more than the refspecs name are turned off: mirror
// (remote.<name>.mirror), tags (push.followTags), submodules
// (push.recurseSubmodules).
func gitPush(ctx context.Context, g gitRunner, remote string, send []PushedSession) (atomic bool, err error) {
	args := func(atomic bool) []string {
		a := []string{"-c", "remote." + remote + ".mirror=false", "push", "--porcelain", "--no-follow-tags", "--recurse-submodules=no"}
		if atomic {
			a = append(a, "--atomic")
		}
		a = append(a, remote)
		for _, p := range send {
			a = append(a, p.Tip.String()+":"+p.ServerRef)
		}
		return a
	}
	atomic = true
	stdout, stderr, err := g.runFull(ctx, nil, args(true)...)
	if err != nil && strings.Contains(string(stderr), "does not support --atomic push") {
		atomic = false
		stdout, stderr, err = g.runFull(ctx, nil, args(false)...)
	}
	if err == nil {
		return atomic, nil
	}
	if ctx.Err() != nil {
		return atomic, fmt.Errorf("%w: %w; the server may have taken some sessions: `git ls-remote %s 'refs/edits/*'` lists what it has", ErrPushRejected, ctx.Err(), remote)
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return atomic, fmt.Errorf("%w: run git: %w (git must be on PATH); nothing was pushed", ErrPushRejected, err)
	}
	return atomic, pushError(remote, atomic, stdout, stderr)
}

// pushError says why git push failed: each ref a server refused, with
// its reason, what the remote's hooks said, git's own error, and which
// sessions a server took anyway: one that does not offer atomic pushes,
// or, where the remote has several push URLs (git pushes to each in
// turn), a URL before the one that refused.
func pushError(remote string, atomic bool, stdout, stderr []byte) error {
	var refused []string
	var taken []string // "dst" or, with several URLs, "dst at URL"
	urls := 0
	url := ""
	type result struct{ url, dst string }
	var took []result
	for _, line := range strings.Split(string(stdout), "\n") {
		if u, ok := strings.CutPrefix(line, "To "); ok {
			url = u
			urls++
			continue
		}
		f := strings.SplitN(line, "\t", 3)
		if len(f) < 3 || len(f[0]) != 1 {
			continue
		}
		_, dst, _ := strings.Cut(f[1], ":")
		switch f[0] {
		case "!":
			refused = append(refused, dst+" "+f[2])
		case " ", "*", "+":
			took = append(took, result{url, dst})
		}
	}
	for _, r := range took {
		if urls > 1 {
			taken = append(taken, r.dst+" at "+r.url)
		} else {
			taken = append(taken, r.dst)
		}
	}
	var said []string
	for _, line := range strings.Split(string(stderr), "\n") {
		line = strings.TrimRight(line, " \r")
		if line != "" && !strings.HasPrefix(line, "To ") {
			said = append(said, line)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, " to %s", remote)
	if len(refused) > 0 {
		fmt.Fprintf(&b, "; refused: %s", strings.Join(refused, ", "))
	}
	if len(said) > 0 {
		fmt.Fprintf(&b, "; git said: %s", strings.Join(said, " | "))
	}
	switch {
	case len(taken) > 0 && !atomic:
		fmt.Fprintf(&b, "; the server does not offer atomic pushes, and took these: %s", strings.Join(taken, ", "))
	case len(taken) > 0:
		fmt.Fprintf(&b, "; %s pushes to several URLs, and these took their refs before one refused: %s", remote, strings.Join(taken, ", "))
	default:
		b.WriteString("; the server took nothing")
	}
	if strings.Contains(string(stderr), "terminal prompts disabled") || strings.Contains(string(stderr), "could not read Username") {
		b.WriteString(". git needs credentials it could not ask for: set up a credential helper (`git config credential.helper`) or an SSH key, or run git edit push from a terminal")
	} else {
		b.WriteString(". Nothing changed in this repository; fix what the server or git says, then push again")
	}
	return fmt.Errorf("%w%s", ErrPushRejected, b.String())
}

// code is the exit status of a git that ran and failed; -1 otherwise.
func code(err error) int {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	return -1
}
