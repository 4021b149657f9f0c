package share

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/go-git/go-git/v5/plumbing"
)

// FetchOptions is what Fetch is asked to bring.
type FetchOptions struct {
	// Remote is the remote's name; "" is origin, or the current branch's
	// remote (see defaultFetchRemote).
	Remote string
	// Prompts lets git ask for credentials (see PushOptions.Prompts).
	Prompts bool
}

// FetchedSession is one fetched session that changed: its name here
// (<remote>/<owner>/<session>), what it named before (zero: new) and now
// (zero: gone from the server, so removed here).
type FetchedSession struct {
	Name     string
	Old, New plumbing.Hash
}

// FetchResult is what Fetch changed, by name; Kept counts the fetched
// sessions of the remote that did not change.
type FetchResult struct {
	Remote  string
	Changed []FetchedSession
	Kept    int
}

// Fetch brings the sessions on the remote (its refs/edits/*) into
// refs/edits-remote/<remote>/, with one `git fetch --prune` of the refspec
// +refs/edits/*:refs/edits-remote/<remote>/*: copies of sessions gone from
// the server are removed, and a copy follows its session when the server's
// ref was moved (the copies are read-only: nothing here writes them).
// Nothing else here changes: no branch, no tag, no remote-tracking ref, no
// own session. Errors wrap ErrNoRemote or ErrFetch.
func Fetch(ctx context.Context, r *repo.Repo, o FetchOptions) (FetchResult, error) {
	g := gitRunner{r: r, prompts: o.Prompts}
	res := FetchResult{Remote: o.Remote}
	if res.Remote == "" {
		res.Remote = defaultFetchRemote(ctx, g)
	}
	if err := session.ValidateName(res.Remote); err != nil || strings.HasPrefix(res.Remote, "-") {
		return res, fmt.Errorf("%w %q: give the name of a remote whose name is one ref component (`git remote -v` lists them); nothing was fetched", ErrNoRemote, res.Remote)
	}
	if out, _, err := g.runFull(ctx, nil, "remote", "get-url", "--", res.Remote); err != nil || strings.TrimSpace(string(out)) == "" {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		return res, fmt.Errorf("%w %q in this repository: `git remote -v` lists the remotes, `git remote add NAME URL` adds one; nothing was fetched", ErrNoRemote, res.Remote)
	}
	prefix := session.FetchedPrefix + res.Remote + "/"
	before, err := refsUnder(r, prefix)
	if err != nil {
		return res, err
	}
	// --refmap= keeps the remote's configured fetch refspecs from
	// updating other refs with what this fetch brings (a configured
	// +refs/*:refs/* would write refs/edits/ itself, the own sessions).
	if _, err := g.run(ctx, nil, "fetch", "--quiet", "--prune", "--no-tags", "--no-recurse-submodules", "--no-write-fetch-head", "--refmap=",
		res.Remote, "+refs/edits/*:"+prefix+"*"); err != nil {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		return res, fmt.Errorf("%w from %s: %w", ErrFetch, res.Remote, err)
	}
	after, err := refsUnder(r, prefix)
	if err != nil {
		return res, err
	}
	names := map[string]bool{}
	for n := range before {
		names[n] = true
	}
	for n := range after {
		names[n] = true
	}
	for _, n := range slices.Sorted(maps.Keys(names)) {
		name := res.Remote + "/" + n
		if before[n] == after[n] {
			res.Kept++
			continue
		}
		res.Changed = append(res.Changed, FetchedSession{Name: name, Old: before[n], New: after[n]})
	}
	return res, nil
}

// refsUnder is the refs under prefix, by their names after it.
func refsUnder(r *repo.Repo, prefix string) (map[string]plumbing.Hash, error) {
	refs, err := r.ListRefs(prefix)
	if err != nil {
		return nil, err
	}
	out := map[string]plumbing.Hash{}
	for _, ref := range refs {
		out[strings.TrimPrefix(ref.Name, prefix)] = ref.Hash
	}
	return out, nil
}
