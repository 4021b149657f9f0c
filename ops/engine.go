// Package ops runs one operation end to end: a tool call, in whichever
// dialect (the registry, one line per tool), and the history operations
// (undo, redo, rollback, checkpoint, record, log). The dialect parses and
// plans (its package under ops/, pure, against the contract in ops/dialect,
// with the text primitives of ops/text), the session layer (repo/session)
// applies the spans and records the commit, diffview renders what changed,
// and the dialect shapes the result. It is the only package that sees both
// the pure dialects and git, so the CLI's commands and its MCP server
// (`git-edit mcp`) share one path; they reach nothing below it but the
// session layer (see below.go for what it names of the layers under it).
package ops

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/git-edit/git-edit/ops/dialect"
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/git-edit/git-edit/undo"
)

// MaxArgsBytes bounds a call's JSON arguments; larger ones are refused
// before parsing.
const MaxArgsBytes = 64 << 20

// The settings' defaults, used when neither Options nor git config set
// them (edit.undoDepth, edit.maxFileSize, edit.requireRead).
const (
	DefaultUndoDepth   = undo.DefaultUndoDepth
	DefaultMaxFileSize = repo.DefaultMaxFileSize
	DefaultRequireRead = true
	// DefaultTimeout bounds one operation (edit.timeout): mostly the wait
	// for another process's edit lock and git's conversions (a clean or
	// smudge filter that never ends), so that nothing holds the lock, or
	// an agent, forever.
	DefaultTimeout = 2 * time.Minute
)

// ErrUnknownTool is returned by Call for a tool name no dialect provides.
var ErrUnknownTool = errors.New("unknown tool")

// Result is a tool call's answer (see dialect.Result).
type Result = dialect.Result

// Options say where and as which session calls run.
type Options struct {
	// Root is the directory relative paths resolve against; the repository
	// is found from there upward (or from GIT_DIR, as git finds it, with Root
	// as git's working directory). Edits stay inside it. Empty means the
	// whole worktree of the repository found from the current directory,
	// with relative paths resolved from the current directory, as git
	// commands work anywhere inside a worktree.
	Root string
	// Session names the session ref, refs/edits/<Session>.
	Session string
	// Settings given on the command line override git config when set.
	UndoDepth   *int
	MaxFileSize *int64
	RequireRead *bool
	// Timeout overrides edit.timeout: how long one operation may run (0:
	// no limit).
	Timeout *time.Duration
}

// Engine holds an opened repository and session; one Engine serves many
// calls, concurrently (the repository's edit lock orders them).
type Engine struct {
	// Root confines every path; Dir is where relative paths resolve from
	// (Root, or the current directory when Options.Root is empty).
	Root    string
	Dir     string
	Repo    *repo.Repo
	Session *session.Session
	// UndoDepth is how many edits of one file undo reaches back (0: no limit).
	UndoDepth int
	// RequireRead makes Edit and MultiEdit refuse files this session has
	// not seen as they are now (git config edit.requireRead, default true).
	RequireRead bool
	// Timeout is how long one operation may run, whichever entry point
	// started it (call, the MCP server's tool calls, the commands); 0 is
	// no limit. git config edit.timeout, else DefaultTimeout.
	Timeout time.Duration

	opts Options
	// nested caches the engines of nested repositories (submodules) by
	// their top directory: a file there is recorded in its own repository.
	nested   map[string]*Engine
	nestedMu sync.Mutex
	// others caches the other sessions an edit's overlap check reads.
	others session.Others
}

// Open validates the session name, finds the repository from opts.Root and
// reads git-edit's settings from git config (edit.undoDepth,
// edit.maxFileSize, edit.requireRead). Errors wrap session.ErrBadName,
// repo.ErrNotRepository or repo.ErrBadConfig.
func Open(opts Options) (*Engine, error) {
	if err := session.ValidateReadName(opts.Session); err != nil {
		return nil, err
	}
	dir, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("resolve root %s: %w", opts.Root, err)
	}
	r, err := repo.Open(dir)
	if err != nil {
		return nil, err
	}
	root := dir
	if opts.Root == "" {
		root = r.Top
	}
	return openIn(r, root, dir, opts)
}

// openIn makes the engine of repository r: the session and the settings,
// from git config of r unless opts overrides them.
func openIn(r *repo.Repo, root, dir string, opts Options) (*Engine, error) {
	s, err := session.New(r, opts.Session)
	if err != nil {
		return nil, err
	}
	s.LineStat = lineStat
	e := &Engine{Root: root, Dir: dir, Repo: r, Session: s, opts: opts, nested: map[string]*Engine{}}
	depth := int64(DefaultUndoDepth)
	if opts.UndoDepth != nil {
		depth = int64(*opts.UndoDepth)
	} else if depth, err = r.ConfigInt("edit", "undoDepth", DefaultUndoDepth); err != nil {
		return nil, err
	}
	e.UndoDepth = int(min(max(depth, 0), 1<<30))
	if opts.MaxFileSize != nil {
		s.MaxFileSize = *opts.MaxFileSize
	} else if s.MaxFileSize, err = r.ConfigInt("edit", "maxFileSize", DefaultMaxFileSize); err != nil {
		return nil, err
	}
	if opts.RequireRead != nil {
		e.RequireRead = *opts.RequireRead
	} else if e.RequireRead, err = r.ConfigBool("edit", "requireRead", DefaultRequireRead); err != nil {
		return nil, err
	}
	if opts.Timeout != nil {
		e.Timeout = *opts.Timeout
	} else if e.Timeout, err = configTimeout(r); err != nil {
		return nil, err
	}
	return e, nil
}

// configTimeout reads edit.timeout: a Go duration ("90s", "5m") or whole
// seconds; 0 is no limit; unset is DefaultTimeout.
func configTimeout(r *repo.Repo) (time.Duration, error) {
	v, ok, err := r.ConfigValue("edit", "timeout")
	if err != nil || !ok {
		return DefaultTimeout, err
	}
	v = strings.TrimSpace(v)
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 && n <= math.MaxInt64/int64(time.Second) {
		return time.Duration(n) * time.Second, nil
	}
	if d, err := time.ParseDuration(v); err == nil && d >= 0 {
		return d, nil
	}
	return 0, fmt.Errorf("%w: edit.timeout = %q; set a duration such as 2m or 90s, or whole seconds (0: no limit), with `git config edit.timeout 2m`", repo.ErrBadConfig, v)
}

// bounded is ctx with the engine's deadline (Timeout) for one operation;
// call cancel when the operation is done.
func (e *Engine) bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	if e.Timeout <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, e.Timeout)
}

// timedOut words err when the operation was stopped at its deadline: what
// happened, that nothing changed, and what to do; any other err is
// returned as it is.
func (e *Engine) timedOut(what string, err error) error {
	if !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return worded(err, nil, "%s was stopped after %s, its time limit (git config edit.timeout, or --timeout), and nothing was changed; the lock is released. It was most likely waiting for another process's edit lock, or for a git filter (clean or smudge) that did not finish: `git add` of the file shows a filter's failure. Fix what hangs, or raise the limit (%v)",
		what, e.Timeout, err)
}

// Call runs tool with its JSON arguments. The only error is ErrUnknownTool;
// every other failure is a refused Result in the dialect's error shape.
func Call(ctx context.Context, opts Options, name string, args []byte) (Result, error) {
	t, err := lookup(name)
	if err != nil {
		return Result{}, err
	}
	if len(args) > MaxArgsBytes {
		return t.Refuse(fmt.Errorf("the arguments are more than %d MiB of JSON, over git-edit's limit; split the edit into smaller calls", MaxArgsBytes>>20)), nil
	}
	e, err := Open(opts)
	if err != nil {
		return t.Refuse(err), nil
	}
	// The answer is already made: a process that will not stop cannot
	// change it, and Close waits for it anyway.
	defer e.Close()
	return e.run(ctx, t, args), nil
}

// Close stops the processes the engine keeps running for git's
// conversions between worktree and object store (the long-running `git
// cat-file --batch --filters` of its repository, and of every nested
// repository it opened; see repo.Repo.Close), and waits for them to exit.
// Call it when done with the engine: the CLI after its call, the MCP
// server when it shuts down.
//
// The engine stays usable after Close: a later call that converts a file
// starts a new process, which a later Close stops again. Calls running
// while Close runs are not refused; Close waits for a conversion in flight
// to finish.
func (e *Engine) Close() error {
	e.nestedMu.Lock()
	subs := make([]*Engine, 0, len(e.nested))
	for _, sub := range e.nested {
		subs = append(subs, sub)
	}
	e.nestedMu.Unlock()
	errs := []error{e.Repo.Close()}
	for _, sub := range subs {
		errs = append(errs, sub.Close())
	}
	return errors.Join(errs...)
}

// Call runs tool on an opened engine, as the package-level Call does,
// within the engine's Timeout.
func (e *Engine) Call(ctx context.Context, name string, args []byte) (Result, error) {
	t, err := lookup(name)
	if err != nil {
		return Result{}, err
	}
	return e.run(ctx, t, args), nil
}

// locate confines a path argument to the root and finds the engine of the
// repository that owns it: this one, or, for a file inside a submodule or
// nested repository, that repository's (same session name, its own config),
// so the edit is recorded where the file is versioned.
func (e *Engine) locate(arg string) (*Engine, repo.Path, error) {
	return e.locateBy(arg, (*repo.Repo).ResolveFrom)
}

// locateBy is locate and locateRecorded: resolve confines arg in one
// repository; a path inside a nested repository is resolved again, the
// same way, by that repository's engine.
func (e *Engine) locateBy(arg string, resolve func(r *repo.Repo, root, dir, arg string) (repo.Path, error)) (*Engine, repo.Path, error) {
	p, err := resolve(e.Repo, e.Root, e.Dir, arg)
	var nested *repo.NestedRepoError
	if !errors.As(err, &nested) {
		return e, p, err
	}
	sub, err := e.nestedEngine(nested.Top)
	if err != nil {
		return nil, repo.Path{}, err
	}
	return sub.locateBy(arg, resolve)
}

// nestedEngine returns the engine of the nested repository or submodule
// at top (opened by its own .git, whatever GIT_DIR says; see
// repo.OpenNested), from the cache or newly opened: one per repository, so
// locate and locateRecorded share it.
func (e *Engine) nestedEngine(top string) (*Engine, error) {
	e.nestedMu.Lock()
	sub, ok := e.nested[top]
	e.nestedMu.Unlock()
	if ok {
		return sub, nil
	}
	r, err := repo.OpenNested(top)
	if err != nil {
		return nil, err
	}
	if sub, err = openIn(r, e.Root, e.Dir, e.opts); err != nil {
		return nil, err
	}
	e.nestedMu.Lock()
	defer e.nestedMu.Unlock()
	if cached, ok := e.nested[top]; ok {
		return cached, nil
	}
	e.nested[top] = sub
	return sub, nil
}

// apply runs one operation on the session (see session.Session.Apply) and
// then records every file it wrote as seen by the session: the agent knows
// what it just wrote, so an Edit right after needs no new Read.
func (e *Engine) apply(ctx context.Context, paths []repo.Path, policy session.OutsidePolicy, plan func(*session.Tx) (session.Plan, error)) (session.Outcome, error) {
	out, err := e.Session.Apply(ctx, paths, policy, plan)
	if err != nil {
		return out, err
	}
	for path, f := range out.After {
		if f.Exists {
			// The record is advisory: if it cannot be written, the
			// worst case is that Edit asks the agent to read again.
			_ = e.Session.RecordSeen(path, f.Blob)
		}
	}
	return out, nil
}
