package share

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/go-git/go-git/v5/plumbing"
)

// FetchedCopy is a fetched session's copy here and the ref it copies on
// its server.
type FetchedCopy struct {
	Name      string // <remote>/<owner>/<session>
	Remote    string
	ServerRef string // refs/edits/<owner>/<session> on Remote
	Ref       string // refs/edits-remote/<remote>/<owner>/<session> here
	Tip       plumbing.Hash
}

// ReadFetched is the fetched session name (<remote>/<owner>/<session>).
// A name of no fetched session here is refused, saying how to fetch.
func ReadFetched(r *repo.Repo, name string) (FetchedCopy, error) {
	if err := session.ValidateReadName(name); err != nil || !session.IsFetched(name) {
		return FetchedCopy{}, fmt.Errorf("%w %q: a fetched session is named <remote>/<owner>/<session>; `git edit sessions` lists them", session.ErrBadName, name)
	}
	parts := strings.SplitN(name, "/", 3)
	c := FetchedCopy{Name: name, Remote: parts[0], ServerRef: ServerRef(parts[1], parts[2]), Ref: session.RefName(name)}
	tip, err := r.ReadRef(c.Ref)
	if err != nil {
		return c, err
	}
	if tip.IsZero() {
		return c, fmt.Errorf("no fetched session %s here (no ref %s): `git edit fetch %s` brings the sessions on %s; `git edit sessions` lists them", name, c.Ref, c.Remote, c.Remote)
	}
	c.Tip = tip
	return c, nil
}

// PruneRemote deletes the session c copies on its server, only if the
// server's ref still names c.Tip (git push --force-with-lease: a session
// its owner pushed to since is not deleted), then the copy here. The
// server may refuse (its hooks, its permissions): then nothing is
// deleted, here or there, and the error wraps ErrPushRejected.
func PruneRemote(ctx context.Context, r *repo.Repo, c FetchedCopy, prompts bool) error {
	g := gitRunner{r: r, prompts: prompts}
	_, stderr, err := g.runFull(ctx, nil, "push", "--porcelain", "--no-follow-tags", "--recurse-submodules=no",
		"--force-with-lease="+c.ServerRef+":"+c.Tip.String(), c.Remote, ":"+c.ServerRef)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		msg := strings.TrimSpace(string(stderr))
		if strings.Contains(msg, "stale info") {
			msg = "the server's " + c.ServerRef + " no longer names " + c.Tip.String()[:12] + " (its owner pushed since): `git edit fetch " + c.Remote + "` and look again"
		}
		return fmt.Errorf("%w: delete %s on %s: %s; nothing was deleted", ErrPushRejected, c.ServerRef, c.Remote, msg)
	}
	if err := r.DeleteRef(c.Ref, c.Tip); err != nil && !errors.Is(err, repo.ErrRefChanged) {
		return fmt.Errorf("%s was deleted on %s, but deleting the copy %s here failed: %w", c.ServerRef, c.Remote, c.Ref, err)
	}
	return nil
}

// PruneCopy deletes the copy here only; the server keeps its session,
// and the next fetch brings it back.
func PruneCopy(r *repo.Repo, c FetchedCopy) error {
	return r.DeleteRef(c.Ref, c.Tip)
}
