// Package mcpserver is git-edit's MCP server: the edit tools over the Model
// Context Protocol on stdin and stdout (the official Go SDK, behind a line
// reader that survives malformed input, frame.go), with roots, annotations
// and instructions from the tools' registrations. It is linked only into
// the companion git-edit-mcp, which `git edit mcp` runs in its place, so
// the SDK (and its HTTP side, oauth2 and JSON Schema packages) costs the
// other commands' start nothing.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/ops"
	gesession "github.com/git-edit/git-edit/repo/session"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v2"
)

// Run executes the command line args of git-edit-mcp, whose args[0] is the
// program and args[1] "mcp" (git-edit-mcp's main puts it there), and
// returns its exit status, as git-edit's own run does for its commands:
// options anywhere among the arguments, help and refusals on stderr, 0, 1
// (refused) or 2 (misuse). Streams are injected so tests serve in process.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := clikit.NewApp(stdin, stdout, stderr) // exit statuses are decided here
	app.Commands = []*cli.Command{Command()}
	for _, c := range app.Commands {
		clikit.QuietSwitches(c.Flags)
	}
	args, err := clikit.GitOrder(app.Commands, args)
	if err == nil {
		err = app.RunContext(ctx, args)
	}
	return clikit.Exit(err, stderr)
}

// Command is `git edit mcp`: the MCP server on stdin and stdout, with the
// options clikit.MCPFlags names. It runs in git-edit-mcp, which git-edit
// runs in its place; its help, refusals and exit statuses are the ones
// `git edit mcp` has always had.
func Command() *cli.Command {
	return &cli.Command{
		Name:         "mcp",
		Usage:        clikit.MCPUsage,
		Flags:        clikit.MCPFlags(),
		OnUsageError: clikit.UsageError,
		Action: func(c *cli.Context) error {
			origin, err := clikit.OriginOf(c)
			if err != nil {
				return err
			}
			session := clikit.NewSessionName(time.Now())
			// named: the person or host chose the session (--session or
			// GIT_EDIT_SESSION), so another process may go on with it.
			named := c.IsSet("session") && c.String("session") != ""
			if named {
				session = c.String("session")
			}
			var tools []string
			if list := c.String("tools"); list != "" {
				for _, t := range strings.Split(list, ",") {
					tools = append(tools, strings.TrimSpace(t))
				}
			}
			obs, closeLogs, err := clikit.Observer(c)
			if err != nil {
				return err
			}
			defer closeLogs()
			if err := gesession.ValidateName(session); err != nil {
				return clikit.Refused(err)
			}
			// Each tool call runs within the engine's time limit
			// (ops.Engine.Timeout), as call's does.
			opts := ops.Options{Root: c.String("root"), Session: session, Timeout: clikit.TimeoutOf(c)}
			// A host that does not expand ${workspaceFolder} passes it
			// literally: no one means a directory of that name, and
			// refusing to start shows the person only "Connection
			// closed". The client's roots name the workspace instead.
			unexpanded := c.IsSet("root") && unexpandedVariable.MatchString(opts.Root)
			if unexpanded {
				fmt.Fprintf(c.App.ErrWriter, "git-edit mcp: --root %s was not expanded by the host; using the client's roots\n", opts.Root)
				opts.Root = ""
			}
			var e *ops.Engine
			if !unexpanded {
				e, err = ops.Open(opts)
			}
			// Hosts start servers in the home directory (Cursor's global
			// mcp.json, VS Code, Cline): there, the repository is the
			// client's, found from its roots at the first call. A --root
			// or GIT_DIR that names no repository stays an error: the
			// person asked for that one.
			fromRoots := unexpanded || err != nil && errors.Is(err, gesession.ErrNotRepository) && !c.IsSet("root") && os.Getenv("GIT_DIR") == ""
			if err != nil && !fromRoots {
				return clikit.Refused(err)
			}
			var s *Server
			if fromRoots {
				dir, _ := filepath.Abs(opts.Root)
				s, err = NewFromRoots(opts, dir, tools, obs, c.App.ErrWriter)
				if err != nil {
					return err
				}
				if unexpanded {
					s.unexpandedRoot = c.String("root")
					fmt.Fprintf(c.App.ErrWriter, "git-edit mcp: session %s (refs/edits/%s): each call runs in the first of the client's roots that is in a git repository\n", session, session)
				} else {
					fmt.Fprintf(c.App.ErrWriter, "git-edit mcp: session %s (refs/edits/%s); %s is not in a git repository: each call runs in the first of the client's roots that is in one\n", session, session, dir)
				}
			} else {
				if s, err = New(e, tools, obs); err != nil {
					e.Close()
					return err
				}
				fmt.Fprintf(c.App.ErrWriter, "git-edit mcp: session %s (refs/edits/%s) in %s\n", session, session, e.Repo.Top)
			}
			s.Origin = origin
			// At shutdown, the conversion processes end with the server.
			defer s.Close()
			// Not mcp.StdioTransport: one malformed line would end it.
			err = s.Run(c.Context, &guardedStdio{in: c.App.Reader, out: c.App.Writer, limit: MaxLineBytes, notes: c.App.ErrWriter})
			if !named {
				// No other process can name this session: if it only
				// read files, its read records die with the server
				// instead of piling up in `git edit sessions`.
				s.forgetReadOnly(session, c.App.ErrWriter)
			}
			return err
		},
	}
}

// unexpandedVariable matches a ${name} a host left in an argument unexpanded.
var unexpandedVariable = regexp.MustCompile(`\$\{[^}]*\}`)

// Server is the MCP server and the engine its calls run in: one given
// at start (a server started in a repository), or, for a server started
// outside one, the engine of the first of the client's roots that is in a
// repository, found at the first call and again after the client says its
// roots changed.
type Server struct {
	*mcp.Server
	obs *ops.Observer
	seq atomic.Int64
	// Origin is --model and --agent: the model and agent of every call's
	// edit, unless the call's _meta names them (see withOrigin).
	Origin gesession.Origin
	// calls runs one call at a time within the process (the repository's
	// lock orders them against other processes), so concurrent requests
	// never lose an edit.
	calls sync.Mutex

	// For a server started outside a repository: the session (Root unset),
	// the directory it started in (for messages), where to say which root
	// it took.
	opts     ops.Options
	startDir string
	notes    io.Writer
	// unexpandedRoot is the --root the host left unexpanded (such as
	// ${workspaceFolder}), which is why the server uses the client's roots.
	unexpandedRoot string

	// stale says the client's roots changed since e was found. Atomic, not
	// under mu: the notification must never wait for a roots/list that
	// engineFor, holding mu, waits for in turn.
	stale atomic.Bool

	mu      sync.Mutex // guards the fields below
	e       *ops.Engine
	eRoot   string // the directory e was opened on, when it came from a root
	fixed   bool   // e was given at start and never changes
	engines []*ops.Engine
	// named holds the engines of sessions calls name in their _meta
	// (metaSession), by the engine they stand in for.
	named map[namedKey]*ops.Engine
}

// namedKey is a session a call names, in the repository of the engine
// the call would otherwise run in.
type namedKey struct {
	base *ops.Engine
	name string
}

// mcpInstructions is what the server tells the agent at initialization
// (MCP's instructions): that every edit is recorded, what the offered tools
// say of themselves (ops.ServerInstructions, from their registrations), and
// how the person looks back and undoes.
func mcpInstructions(session string, tools []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "git-edit records every change these tools make as a git commit on the hidden ref refs/edits/%s (this server's session), apart from the branches, index and HEAD, so every edit can be reviewed and undone.", session)
	for _, sentence := range ops.ServerInstructions(tools) {
		b.WriteString(" " + sentence)
	}
	fmt.Fprintf(&b, " The person reviews and reverts with git edit log, git edit diff, git edit undo PATH and git edit rollback, each with%s.", gesession.HintFlag(session))
	b.WriteString(" Change files through these tools rather than other file-writing tools: a change made another way is recorded only later, as a sync commit that does not say which tool made it or why.")
	return b.String()
}

// New offers the named tools (all when empty), served by e. A
// refused call is a tool error (isError) whose text says what to do, never
// a protocol error.
func New(e *ops.Engine, tools []string, obs *ops.Observer) (*Server, error) {
	session := ""
	if e != nil {
		session = e.Session.Name
	}
	s := &Server{obs: obs, e: e, fixed: true}
	if e != nil {
		s.engines = []*ops.Engine{e}
	}
	return s, s.build(session, tools)
}

// NewFromRoots is a server started in dir, outside any repository:
// its calls run in the first of the client's roots that is in one, as
// session opts.Session.
func NewFromRoots(opts ops.Options, dir string, tools []string, obs *ops.Observer, notes io.Writer) (*Server, error) {
	s := &Server{obs: obs, opts: opts, startDir: dir, notes: notes}
	return s, s.build(opts.Session, tools)
}

func (s *Server) build(session string, tools []string) error {
	defs, err := ops.Definitions(tools...)
	if err != nil {
		return fmt.Errorf("--tools: %w", err)
	}
	s.Server = mcp.NewServer(&mcp.Implementation{Name: "git-edit", Title: "git-edit", Version: clikit.Version}, &mcp.ServerOptions{
		Instructions:            mcpInstructions(session, tools),
		RootsListChangedHandler: func(context.Context, *mcp.RootsListChangedRequest) { s.stale.Store(true) },
	})
	for _, d := range defs {
		name := d.Name
		destructive, openWorld := d.Annotations.DestructiveHint, d.Annotations.OpenWorldHint
		s.AddTool(&mcp.Tool{
			Name:        d.Name,
			Title:       d.Title,
			Description: d.Description,
			InputSchema: d.InputSchema,
			Annotations: &mcp.ToolAnnotations{
				Title:           d.Annotations.Title,
				ReadOnlyHint:    d.Annotations.ReadOnlyHint,
				DestructiveHint: &destructive,
				IdempotentHint:  d.Annotations.IdempotentHint,
				OpenWorldHint:   &openWorld,
			},
		}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return s.call(ctx, name, req)
		})
	}
	return nil
}

// call serves one tool call.
func (s *Server) call(ctx context.Context, name string, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	e, ask, noRepo := s.engineFor(ctx, req)
	if ask != nil {
		return ask, nil
	}
	if name, ok := req.Params.GetMeta()[metaSession].(string); ok && e != nil && noRepo == nil {
		e, noRepo = s.sessionEngine(e, name)
	}
	id := fmt.Sprintf("mcp-%04d", s.seq.Add(1))
	args := []byte(req.Params.Arguments)
	res, err := s.obs.Call(name, id, args, func() (ops.Result, error) {
		if noRepo != nil {
			return ops.Refuse(name, noRepo)
		}
		s.calls.Lock()
		defer s.calls.Unlock()
		return e.Call(withOrigin(withMetaTurn(ctx, req), req, s.Origin), name, args)
	})
	if err != nil {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}, IsError: true}, nil
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: res.Text}},
		StructuredContent: res.Value,
		IsError:           !res.OK,
	}, nil
}

// metaSession is the key, in a tools/call request's _meta, of the session
// the call runs in instead of the server's: a client that starts a server
// per call (the MCP Inspector's CLI, scripts) names one session for all
// its calls, so a Read in one process counts for the Edit in the next.
const metaSession = "git-edit/session"

// sessionEngine is the engine of session name in base's repository, with
// the server's other options (--root, the time limit): base itself when
// it is that session's, else one opened at the first call naming it and
// kept. A name git-edit does not accept is the call's refusal.
func (s *Server) sessionEngine(base *ops.Engine, name string) (*ops.Engine, error) {
	if name == base.Session.Name {
		return base, nil
	}
	if err := gesession.ValidateName(name); err != nil {
		return nil, fmt.Errorf("_meta %q: %w; name the session with letters, digits, '.', '_' or '-', or leave it out to use the server's session %s", metaSession, err, base.Session.Name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	key := namedKey{base, name}
	if e, ok := s.named[key]; ok {
		return e, nil
	}
	e, err := base.WithSession(name)
	if err != nil {
		return nil, err
	}
	if s.named == nil {
		s.named = map[namedKey]*ops.Engine{}
	}
	s.named[key] = e
	s.engines = append(s.engines, e)
	return e, nil
}

// forgetReadOnly removes, in each repository the server worked in, the
// state of its own session if that session made no edit (see
// gesession.ForgetIfReadOnly). A failure is told on notes and is harmless:
// the session is then listed as read-only until pruned.
func (s *Server) forgetReadOnly(session string, notes io.Writer) {
	s.mu.Lock()
	engines := slices.Clone(s.engines)
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, e := range engines {
		if e.Session.Name != session {
			continue
		}
		if _, err := gesession.ForgetIfReadOnly(ctx, e.Session); err != nil {
			fmt.Fprintf(notes, "git-edit mcp: %v\n", err)
		}
	}
}

// metaTurn is the key, in a tools/call request's _meta, of the turn (the
// person's prompt) the call's edit belongs to: a host that knows its turns
// sends it with every call, without the model having to.
const metaTurn = "git-edit/turn"

// withMetaTurn is ctx carrying the turn the request's _meta names, if it
// names one (a string; a number is taken as its decimal text). The engine
// validates it, and a "turn" argument of the call wins over it.
func withMetaTurn(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	var turn string
	switch v := req.Params.GetMeta()[metaTurn].(type) {
	case string:
		turn = v
	case float64:
		turn = strconv.FormatFloat(v, 'f', -1, 64)
	default:
		return ctx
	}
	return gesession.WithTurn(ctx, turn)
}

// rootsRequest names the server's request for the client's roots in a
// call that needs them (MCP's multi-round-trip input requests).
const rootsRequest = "roots"

// engineFor finds the engine a call runs in. A server started outside a
// repository asks the client for its roots when it has no engine yet or
// the roots changed: on protocol versions before 2026-07-28 by a
// roots/list request of its own, after that by answering the call with an
// input request for them (ask), which the client answers by calling again
// with its roots. The first root in a repository gives the engine; with
// none, noRepo says why, and how to pass --root.
func (s *Server) engineFor(ctx context.Context, req *mcp.CallToolRequest) (e *ops.Engine, ask *mcp.CallToolResult, noRepo error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	roots, answered := req.Params.InputResponses[rootsRequest].(*mcp.ListRootsResult)
	answered = answered && roots != nil
	if s.fixed || (!answered && s.e != nil && !s.stale.Load()) {
		return s.e, nil, nil
	}
	if !answered {
		if caps := req.ClientCapabilities(); caps == nil || caps.RootsV2 == nil {
			s.e = nil
			return nil, nil, s.noRepo("the client offers no roots to find one in")
		}
		if p := req.Session.InitializeParams(); p == nil || p.ProtocolVersion >= "2026-07-28" {
			return nil, &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{rootsRequest: &mcp.ListRootsParams{}}}, nil
		}
		// A change notified from here on makes the answer stale again.
		s.stale.Store(false)
		var err error
		if roots, err = req.Session.ListRoots(ctx, nil); err != nil {
			s.e = nil
			return nil, nil, s.noRepo(fmt.Sprintf("asking the client for its roots failed (%v)", err))
		}
	} else {
		s.stale.Store(false)
	}
	e, noRepo = s.openRoot(roots.Roots)
	return e, nil, noRepo
}

// openRoot makes the engine of the first root in a repository the
// server's, keeping the one it has when that root is the same. With none,
// the server has no engine: its calls are refused until a root is found,
// never run in a repository the client no longer offers.
func (s *Server) openRoot(roots []*mcp.Root) (*ops.Engine, error) {
	var why []string
	for _, r := range roots {
		dir, err := rootDir(r.URI)
		if err == nil && s.e != nil && dir == s.eRoot {
			return s.e, nil
		}
		var e *ops.Engine
		if err == nil {
			opts := s.opts
			opts.Root = dir
			e, err = ops.Open(opts)
		}
		if err != nil {
			why = append(why, fmt.Sprintf("%s: %v", r.URI, err))
			continue
		}
		// The engine it replaces may still serve a call in flight; it is
		// closed with the server.
		s.e, s.eRoot = e, dir
		s.engines = append(s.engines, e)
		if s.notes != nil {
			fmt.Fprintf(s.notes, "git-edit mcp: session %s (refs/edits/%s) in %s, the client's root %s\n", s.opts.Session, s.opts.Session, e.Repo.Top, r.URI)
		}
		return e, nil
	}
	s.e = nil
	if len(roots) == 0 {
		return nil, s.noRepo("the client's list of roots is empty")
	}
	return nil, s.noRepo("none of the client's roots is in one: " + strings.Join(why, "; "))
}

// noRepo is the refusal of every call of a server that has no repository:
// why, and how to give it one.
func (s *Server) noRepo(why string) error {
	if s.unexpandedRoot != "" {
		return fmt.Errorf("git-edit mcp was started with --root %s, which the host did not expand, and %s; give --root the repository's path itself, or start the server with the repository as its working directory", s.unexpandedRoot, why)
	}
	return fmt.Errorf("git-edit mcp started outside a git repository (in %s), and %s; start the server with the arguments mcp --root /path/to/repository (\"--root\", \"${workspaceFolder}\" in hosts that expand it), or with the repository as its working directory", s.startDir, why)
}

// rootDir is the directory of a file:// root URI.
func rootDir(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") || u.Path == "" {
		return "", fmt.Errorf("not a file:// URI of a local directory")
	}
	return filepath.Clean(filepath.FromSlash(u.Path)), nil
}

// Close stops the conversion processes of every engine the server used.
func (s *Server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, e := range s.engines {
		errs = append(errs, e.Close())
	}
	return errors.Join(errs...)
}
