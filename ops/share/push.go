package share

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/git-edit/git-edit/ops/share/secrets"
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/go-git/go-git/v5/plumbing"
)

// PushOptions is what Push is asked to send.
type PushOptions struct {
	// Remote is the remote's name; "" is where `git push` goes from here
	// (see defaultPushRemote).
	Remote string
	// Sessions are the own sessions to push, each with edits.
	Sessions []string
	// DryRun checks and reports as Push would, and sends nothing.
	DryRun bool
	// AllowPaths are ignored paths to send knowingly; AllowSecrets the
	// fingerprints of findings to send knowingly (see Check).
	AllowPaths, AllowSecrets []string
	// Prompts lets git ask for credentials (a person at a terminal);
	// without it a missing credential fails the push instead of waiting.
	Prompts bool
}

// PushedSession is one session of a push: where it goes, what the server
// had, and what the push adds.
type PushedSession struct {
	Session   string
	ServerRef string
	Tip       plumbing.Hash
	// Old is what the server's ref named before (zero: a new ref).
	Old plumbing.Hash
	// UpToDate: the server has Tip already; nothing is sent for it.
	UpToDate bool
	// Commits and Bytes count the commits the server does not have that
	// the session reaches, and their size with the file versions they
	// add (uncompressed, as git stores them before packing).
	Commits int
	Bytes   int64
}

// PushResult is what Push did (or, with DryRun, would do).
type PushResult struct {
	Remote, Owner string
	Sessions      []PushedSession
	DryRun        bool
	// Atomic: the push was one transaction on the server (git push
	// --atomic); false when the server does not offer it.
	Atomic bool
}

// Push sends the sessions to the remote in one `git push`, one refspec
// per session, <tip>:refs/edits/<owner>/<session>, atomic where the
// server supports it. Before that, it reads each session's tip once and
// what every push URL of the remote has, refuses sessions the server has commits of that they do not
// (ErrNotFastForward), and checks every commit the push adds (see Check):
// an ignored path or a secret not allowed refuses the push
// (*CheckError, wrapping ErrSecrets). The tips sent are the ones checked,
// whatever the refs name by the time git sends them. A refusal sends
// nothing and changes nothing here; a push git or the server refuses
// wraps ErrPushRejected and says what git said.
func Push(ctx context.Context, r *repo.Repo, o PushOptions) (PushResult, error) {
	g := gitRunner{r: r, prompts: o.Prompts}
	res := PushResult{Remote: o.Remote, DryRun: o.DryRun}
	if len(o.Sessions) == 0 {
		return res, errors.New("push needs a session: name one with --session NAME, or --all; nothing was pushed")
	}
	var err error
	if res.Remote == "" {
		res.Remote = defaultPushRemote(ctx, g)
	}
	urls, err := pushURLs(ctx, g, res.Remote)
	if err != nil {
		return res, err
	}
	if res.Owner, err = Owner(r); err != nil {
		return res, err
	}
	// No lock: the tips are read once and sent by id, and the objects
	// they reach never change, so an edit may land meanwhile (it goes,
	// checked, with the next push); the check asks the server, which may
	// take seconds, and an agent's edit must not wait for it.
	secrets.Warm() // built while the server is asked what it has
	checked, err := prepare(ctx, g, res.Remote, res.Owner, urls, o)
	res.Sessions = checked
	if err != nil || o.DryRun {
		return res, err
	}
	var send []PushedSession
	for _, p := range checked {
		if !p.UpToDate {
			send = append(send, p)
		}
	}
	if len(send) == 0 {
		return res, nil
	}
	repo.Pause("share-checked", "")
	res.Atomic, err = gitPush(ctx, g, res.Remote, send)
	return res, err
}

// prepare reads the tips and what the server has, refuses what may not be
// pushed, and checks what would be sent.
func prepare(ctx context.Context, g gitRunner, remote, owner string, urls []string, o PushOptions) ([]PushedSession, error) {
	var out []PushedSession
	seen := map[string]bool{}
	for _, name := range o.Sessions {
		if seen[name] {
			continue
		}
		seen[name] = true
		s, err := session.New(g.r, name)
		if err != nil {
			return nil, err
		}
		if err := session.ValidateName(name); err != nil {
			return nil, fmt.Errorf("%w; nothing was pushed", err)
		}
		tip, err := s.Tip()
		if err != nil {
			return nil, err
		}
		if tip.IsZero() {
			return nil, fmt.Errorf("session %s has no edits to push (no ref %s); `git edit sessions` lists the sessions; nothing was pushed", name, s.Ref())
		}
		out = append(out, PushedSession{Session: name, ServerRef: ServerRef(owner, name), Tip: tip})
	}
	server, err := serverStateOf(ctx, g, urls)
	if err != nil {
		return nil, err
	}
	var behind []string
	for i := range out {
		p := &out[i]
		p.Old = server.refs[0][p.ServerRef]
		// Every push URL is checked: git pushes to each in turn, and one
		// that refuses after another took the session leaves them apart.
		p.UpToDate = true
		for u, refs := range server.refs {
			old := refs[p.ServerRef]
			if old == p.Tip {
				continue
			}
			p.UpToDate = false
			if old.IsZero() {
				continue
			}
			ok, err := isAncestor(ctx, g, old, p.Tip)
			if err != nil {
				return nil, err
			}
			if !ok {
				where := remote
				if len(urls) > 1 {
					where = urls[u]
				}
				behind = append(behind, fmt.Sprintf("%s (%s on %s names %s)", p.Session, p.ServerRef, where, old.String()[:12]))
			}
		}
	}
	if len(behind) > 0 {
		return out, fmt.Errorf("%w: %s; nothing was pushed. Another clone pushes sessions of the same names as owner %s (set a name of your own on each machine with `git config edit.owner NAME`), or the session was pruned and begun again: "+
			"see the server's copy with `git edit fetch %s` and `git edit log --session %s/%s/SESSION`, and delete it with `git edit prune --remote --session %s/%s/SESSION` if it may go",
			ErrNotFastForward, strings.Join(behind, ", "), owner, remote, remote, owner, remote, owner)
	}
	if !slices.ContainsFunc(out, func(p PushedSession) bool { return !p.UpToDate }) {
		return out, nil
	}
	adds, err := collect(ctx, g, out, server.haves)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Commits, out[i].Bytes = adds.commits[out[i].Session], adds.bytes[out[i].Session]
	}
	if err := check(ctx, g.r, adds, o.AllowPaths, o.AllowSecrets); err != nil {
		return out, err
	}
	return out, nil
}

// isAncestor reports whether old is an ancestor of tip here; an old this
// repository does not have is not.
func isAncestor(ctx context.Context, g gitRunner, old, tip plumbing.Hash) (bool, error) {
	if g.r.HasObject(old) != nil {
		return false, nil
	}
	_, stderr, err := g.runFull(ctx, nil, "merge-base", "--is-ancestor", old.String(), tip.String())
	if err == nil {
		return true, nil
	}
	if code(err) == 1 {
		return false, nil
	}
	return false, gitError([]string{"merge-base"}, stderr, err)
}

// defaultPushRemote is the remote `git push` pushes to from here: the
// current branch's branch.<b>.pushRemote, else remote.pushDefault, else
// the branch's branch.<b>.remote, else origin.
func defaultPushRemote(ctx context.Context, g gitRunner) string {
	keys := []string{"remote.pushDefault"}
	if b := currentBranch(ctx, g); b != "" {
		keys = []string{"branch." + b + ".pushRemote", "remote.pushDefault", "branch." + b + ".remote"}
	}
	return firstRemote(ctx, g, keys)
}

// defaultFetchRemote is the current branch's remote, else origin.
func defaultFetchRemote(ctx context.Context, g gitRunner) string {
	var keys []string
	if b := currentBranch(ctx, g); b != "" {
		keys = []string{"branch." + b + ".remote"}
	}
	return firstRemote(ctx, g, keys)
}

// currentBranch is the short name of the branch HEAD names; "" when HEAD
// is detached.
func currentBranch(ctx context.Context, g gitRunner) string {
	out, _, err := g.runFull(ctx, nil, "symbolic-ref", "--quiet", "--short", "HEAD")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// firstRemote is the value of the first of the config keys that names a
// remote ("." names this repository, which is none), else origin.
func firstRemote(ctx context.Context, g gitRunner, keys []string) string {
	for _, k := range keys {
		out, _, err := g.runFull(ctx, nil, "config", "--get", k)
		if v := strings.TrimSpace(string(out)); err == nil && v != "" && v != "." {
			return v
		}
	}
	return "origin"
}

// pushURLs is where a push to remote goes: its push URLs, as
// `git remote get-url --push --all` lists them.
func pushURLs(ctx context.Context, g gitRunner, remote string) ([]string, error) {
	if err := session.ValidateName(remote); err != nil || strings.HasPrefix(remote, "-") {
		return nil, fmt.Errorf("%w %q: give the name of a remote (`git remote -v` lists them); nothing was pushed", ErrNoRemote, remote)
	}
	out, _, err := g.runFull(ctx, nil, "remote", "get-url", "--push", "--all", "--", remote)
	urls := strings.Fields(strings.TrimSpace(string(out)))
	if err != nil || len(urls) == 0 {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w %q in this repository: `git remote -v` lists the remotes, `git remote add NAME URL` adds one; nothing was pushed", ErrNoRemote, remote)
	}
	return urls, nil
}

// serverState is what the remote's push URLs advertise: refs, the ref
// values of each URL, in the order of the URLs; haves, the commits every
// URL has that this repository has too (what a push need not send nor
// check).
type serverState struct {
	refs  []map[string]plumbing.Hash
	haves []plumbing.Hash
}

// serverState asks every push URL what it has now, with `git ls-remote`:
// not this clone's remote-tracking refs, which may be old, and not the
// fetch URL, which may be another server.
func serverStateOf(ctx context.Context, g gitRunner, urls []string) (serverState, error) {
	st := serverState{}
	count := map[plumbing.Hash]int{}
	for _, url := range urls {
		out, err := g.run(ctx, nil, "ls-remote", "--", url)
		if err != nil {
			return st, fmt.Errorf("%w: %w; nothing was pushed", ErrPushRejected, err)
		}
		refs := map[string]plumbing.Hash{}
		for _, line := range strings.Split(string(out), "\n") {
			id, name, ok := strings.Cut(line, "\t")
			if !ok || !plumbing.IsHash(id) {
				continue
			}
			refs[name] = plumbing.NewHash(id)
		}
		st.refs = append(st.refs, refs)
		once := map[plumbing.Hash]bool{}
		for _, h := range refs {
			if !once[h] {
				once[h] = true
				count[h]++
			}
		}
	}
	for h, n := range count {
		if n == len(urls) && g.r.HasObject(h) == nil {
			st.haves = append(st.haves, h)
		}
	}
	slices.SortFunc(st.haves, func(a, b plumbing.Hash) int { return strings.Compare(a.String(), b.String()) })
	return st, nil
}
