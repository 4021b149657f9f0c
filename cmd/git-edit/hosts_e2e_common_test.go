//go:build unix

package main

// End-to-end tests inside real agent hosts (Claude Code, Codex CLI, Gemini
// CLI), offline. The shared plumbing lives here; each host has its own test
// file (hosts_<host>_e2e_test.go) and its own fake model wire format
// (hosts_fakemodel_<wire>_test.go), which registers itself in e2eFakeModels.
//
// How one run goes: the test installs the host from npm into a cache
// directory (e2eInstallNPM), makes a temporary git repository and a
// temporary HOME (e2eNewRepo), writes the host's configuration, and calls
// e2eRun. e2eRun re-executes this test binary under `unshare -n` (a network
// namespace with only loopback, so nothing reaches the internet); inside,
// init() sees GIT_EDIT_E2E_NS, brings lo up, serves the fake model on
// e2eModelAddr and runs the host as a child. The fake model replies by
// step, deterministically, from the script the test gave, and records
// every request it received; e2eRun returns that record, the host's output
// and the time the host took. The test then checks with git that every
// change is on the session ref (e2eSessionLog, e2eAssertSessionHolds).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo/gittest"
)

// e2eModelAddr is where the fake model listens inside the namespace. The
// namespace is new for every run, so a fixed port is always free, and a
// host's configuration file can name it before the run starts.
const e2eModelAddr = "127.0.0.1:47123"

// e2eModelURL is e2eModelAddr as a base URL.
const e2eModelURL = "http://" + e2eModelAddr

// e2eStep is one reply of the fake model. A step with Tool makes the host
// call that tool with Input (a JSON object); a step without ends the turn
// with Text. The model's step is the number of model turns already in the
// request's history, so a retried request gets the same reply.
type e2eStep struct {
	Tool  string          `json:"tool,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	Text  string          `json:"text,omitempty"`
}

// e2eExchange is one request the fake model received and what it did.
type e2eExchange struct {
	Method string `json:"method"`
	Path   string `json:"path"` // with the query
	// Main is true for a request of the host's main agent loop (the one
	// the script answers); false for side requests (titles, token counts).
	Main bool `json:"main"`
	// Step is the script step answered (Main only).
	Step int `json:"step"`
	// ToolResults are the texts of the tool results the request carries in
	// its newest message (Main only), in order.
	ToolResults []e2eToolResult `json:"tool_results,omitempty"`
	// Problem is set when the request was not what the script expected.
	Problem string `json:"problem,omitempty"`
	Status  int    `json:"status"`
	Body    string `json:"body"` // the request body, cut at 64 KiB
	At      string `json:"at"`   // time since the server started
}

// e2eToolResult is one tool result a host sent back to the model.
type e2eToolResult struct {
	ID      string `json:"id,omitempty"`
	Name    string `json:"name,omitempty"`
	IsError bool   `json:"is_error,omitempty"`
	Text    string `json:"text"`
}

// e2eRecorder collects the exchanges of one run; handlers call Add.
type e2eRecorder struct {
	mu    sync.Mutex
	start time.Time
	ex    []e2eExchange
}

// Add records one exchange, stamping its time, and cuts its body.
func (r *e2eRecorder) Add(e e2eExchange) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(e.Body) > 64<<10 {
		e.Body = e.Body[:64<<10] + " [cut]"
	}
	e.At = time.Since(r.start).Round(time.Millisecond).String()
	r.ex = append(r.ex, e)
}

func (r *e2eRecorder) list() []e2eExchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]e2eExchange(nil), r.ex...)
}

// e2eFakeModels maps a wire format ("anthropic", "responses", "gemini") to
// the constructor of its fake model handler.
var e2eFakeModels = map[string]func(script []e2eStep, rec *e2eRecorder) http.Handler{}

// e2eRegisterModel registers a wire format's fake model. Each wire file
// calls it in a package-level variable's initializer (`var _ =
// e2eRegisterModel(…)`), not in init(): variables are initialized before
// any init runs, and the namespace runner starts in this file's init.
func e2eRegisterModel(wire string, newModel func(script []e2eStep, rec *e2eRecorder) http.Handler) bool {
	e2eFakeModels[wire] = newModel
	return true
}

// e2eRunSpec is one host run.
type e2eRunSpec struct {
	Wire   string    `json:"wire"`
	Script []e2eStep `json:"script"`
	Args   []string  `json:"args"` // the host's command line, Args[0] a path
	Dir    string    `json:"dir"`
	Env    []string  `json:"env"`
	Stdin  string    `json:"stdin,omitempty"`
	// Timeout bounds the host's run inside the namespace (default 3 min).
	Timeout time.Duration `json:"timeout"`
	// Out is where the namespace side writes its e2eResult (set by e2eRun).
	Out string `json:"out"`
}

// e2eResult is what one run did.
type e2eResult struct {
	ExitCode  int           `json:"exit_code"`
	TimedOut  bool          `json:"timed_out"`
	Err       string        `json:"err,omitempty"`
	Elapsed   time.Duration `json:"elapsed"` // the host's run, start to exit
	Stdout    string        `json:"stdout"`
	Stderr    string        `json:"stderr"`
	Exchanges []e2eExchange `json:"exchanges"`
}

// Main returns the exchanges of the host's main loop, in order.
func (r *e2eResult) Main() []e2eExchange {
	var out []e2eExchange
	for _, e := range r.Exchanges {
		if e.Main {
			out = append(out, e)
		}
	}
	return out
}

// Problems returns the problems the fake model recorded, one per line.
func (r *e2eResult) Problems() string {
	var b strings.Builder
	for _, e := range r.Exchanges {
		if e.Problem != "" {
			fmt.Fprintf(&b, "%s %s (step %d): %s\n", e.Method, e.Path, e.Step, e.Problem)
		}
	}
	return b.String()
}

// Describe is the run's output and requests for a failure message.
func (r *e2eResult) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "exit %d, timed out %v, err %q, %v\n--- stdout\n%s\n--- stderr\n%s\n--- requests\n",
		r.ExitCode, r.TimedOut, r.Err, r.Elapsed, e2eCut(r.Stdout, 8<<10), e2eCut(r.Stderr, 8<<10))
	for _, e := range r.Exchanges {
		fmt.Fprintf(&b, "%s %s %s main=%v step=%d status=%d problem=%q results=%+v\n",
			e.At, e.Method, e.Path, e.Main, e.Step, e.Status, e.Problem, e.ToolResults)
	}
	return b.String()
}

func e2eCut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf(" [… %d bytes cut]", len(s)-n)
}

// The namespace side: when this test binary runs as the runner, it does
// only that and exits before any test (init runs before TestMain).
func init() {
	if os.Getenv("GIT_EDIT_E2E_NS") != "1" {
		return
	}
	if err := e2eNamespaceMain(os.Getenv("GIT_EDIT_E2E_SPEC")); err != nil {
		fmt.Fprintln(os.Stderr, "e2e runner:", err)
		os.Exit(3)
	}
	os.Exit(0)
}

// e2eNamespaceMain runs inside the network namespace: lo up, fake model
// on e2eModelAddr, the host as a child bounded by the spec's timeout, the
// result written to spec.Out.
func e2eNamespaceMain(specPath string) error {
	raw, err := os.ReadFile(specPath)
	if err != nil {
		return err
	}
	var spec e2eRunSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return fmt.Errorf("spec: %w", err)
	}
	if out, err := exec.Command("ip", "link", "set", "lo", "up").CombinedOutput(); err != nil {
		return fmt.Errorf("ip link set lo up: %w: %s", err, out)
	}
	newModel, ok := e2eFakeModels[spec.Wire]
	if !ok {
		return fmt.Errorf("no fake model for wire %q", spec.Wire)
	}
	rec := &e2eRecorder{start: time.Now()}
	ln, err := net.Listen("tcp", e2eModelAddr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: newModel(spec.Script, rec), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()

	if spec.Timeout <= 0 {
		spec.Timeout = 3 * time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), spec.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, spec.Args[0], spec.Args[1:]...)
	cmd.Dir = spec.Dir
	cmd.Env = spec.Env
	cmd.Stdin = strings.NewReader(spec.Stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// The host and everything it starts (MCP servers, hooks, shells) form
	// one process group, killed whole on timeout.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	res := e2eResult{}
	begin := time.Now()
	runErr := cmd.Run()
	res.Elapsed = time.Since(begin)
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // leftovers of the host
	}
	res.TimedOut = ctx.Err() != nil
	var exit *exec.ExitError
	switch {
	case errors.As(runErr, &exit):
		res.ExitCode = exit.ExitCode()
	case runErr != nil:
		res.ExitCode = -1
		res.Err = runErr.Error()
	}
	res.Stdout, res.Stderr = stdout.String(), stderr.String()
	res.Exchanges = rec.list()
	out, err := json.Marshal(res)
	if err != nil {
		return err
	}
	return os.WriteFile(spec.Out, out, 0o600)
}

// e2eUnshare is the command prefix that makes a network namespace with
// only loopback: `unshare -n` as root, `unshare -rn` (a user namespace
// mapping us to root) otherwise.
func e2eUnshare() []string {
	if os.Geteuid() == 0 {
		return []string{"unshare", "-n"}
	}
	return []string{"unshare", "-rn"}
}

var e2eNamespaceProbe = sync.OnceValue(func() error {
	for _, tool := range []string{"unshare", "ip"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%s not found (util-linux and iproute2 provide unshare and ip)", tool)
		}
	}
	args := append(e2eUnshare(), "ip", "link", "set", "lo", "up")
	if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %v: %s", strings.Join(args, " "), err, bytes.TrimSpace(out))
	}
	return nil
})

// e2eRequire skips the test, saying why, where the end-to-end tests cannot
// run: -short, GIT_EDIT_E2E=0, no npm, or no network namespace.
func e2eRequire(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end host test: installs and runs an agent host")
	}
	if os.Getenv("GIT_EDIT_E2E") == "0" {
		t.Skip("GIT_EDIT_E2E=0")
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm not found: the end-to-end host tests install the hosts with npm")
	}
	if err := e2eNamespaceProbe(); err != nil {
		t.Skipf("no network namespace to run the host offline: %v", err)
	}
}

// e2eInstallNPM installs pkg@version with npm into a cache directory
// reused between runs ($GIT_EDIT_E2E_CACHE, else
// $HOME/.cache/git-edit-e2e; one directory per package and version) and
// returns it (its node_modules/.bin holds the host's commands). The install
// goes to a temporary sibling renamed into place when complete, so a
// half-finished install is never used; a file lock serializes concurrent
// test processes. Without the registry (offline), the test is skipped.
func e2eInstallNPM(t *testing.T, pkg, version string) string {
	t.Helper()
	root := os.Getenv("GIT_EDIT_E2E_CACHE")
	if root == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Fatalf("no cache directory: %v (set GIT_EDIT_E2E_CACHE)", err)
		}
		root = filepath.Join(home, ".cache", "git-edit-e2e")
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, strings.ReplaceAll(pkg, "/", "+")+"@"+version)
	done := filepath.Join(dir, ".git-edit-e2e-installed")
	if _, err := os.Stat(done); err == nil {
		return dir
	}
	lock, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if _, err := os.Stat(done); err == nil {
		return dir // another process installed it while we waited
	}
	tmp, err := os.MkdirTemp(root, ".install-*")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "install", "--prefix", tmp, "--no-audit", "--no-fund",
		"--no-update-notifier", pkg+"@"+version)
	cmd.Dir = tmp
	out, err := cmd.CombinedOutput()
	if err != nil {
		for _, offline := range []string{"ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ETIMEDOUT", "ENETUNREACH"} {
			if bytes.Contains(out, []byte(offline)) {
				t.Skipf("npm cannot reach the registry to install %s@%s (%s)", pkg, version, offline)
			}
		}
		t.Fatalf("npm install %s@%s: %v\n%s", pkg, version, err, out)
	}
	if err := os.WriteFile(filepath.Join(tmp, filepath.Base(done)), []byte(pkg+"@"+version+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(dir) // a half-finished directory of an older layout
	if err := os.Rename(tmp, dir); err != nil {
		t.Fatal(err)
	}
	t.Logf("installed %s@%s into %s", pkg, version, dir)
	return dir
}

// e2eRepo is a temporary git repository for one host run, with its own
// HOME (hosts write their state there) and the environment the host runs
// in: git-edit's binary on PATH as git-edit, git's test identity, no
// telemetry, and none of the caller's host variables.
type e2eRepo struct {
	Dir  string // the worktree, symlink-free
	Home string
	Bin  string // the directory holding the built git-edit and its companions
	Env  []string
}

// e2eHostVarPrefixes are variables of the host the tests themselves may run
// under; none may leak into the host under test.
var e2eHostVarPrefixes = []string{"ANTHROPIC_", "CLAUDE", "OPENAI_", "CODEX_", "GEMINI_", "GOOGLE_",
	"MCP_", "GIT_EDIT_", "HTTP_PROXY=", "HTTPS_PROXY=", "http_proxy=", "https_proxy=", "NO_PROXY=", "no_proxy=",
	"HOME=", "PATH=", "XDG_", "NODE_OPTIONS="}

// e2eNewRepo makes the repository (files committed on main) and the
// environment. extraPath directories come first on PATH (a host's
// node_modules/.bin).
func e2eNewRepo(t *testing.T, files map[string]string, extraPath ...string) *e2eRepo {
	t.Helper()
	bin := binDir(t)
	dir := gittest.NewWithCommit(t, files)
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range gittest.Env() {
		keep := true
		for _, p := range e2eHostVarPrefixes {
			if strings.HasPrefix(kv, p) {
				keep = false
				break
			}
		}
		if keep {
			env = append(env, kv)
		}
	}
	path := append(append([]string{}, extraPath...), bin, filepath.Dir(e2eLook(t, "git")), filepath.Dir(e2eLook(t, "node")),
		"/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin")
	env = append(env,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"XDG_STATE_HOME="+filepath.Join(home, ".local", "state"),
		"PATH="+strings.Join(path, string(os.PathListSeparator)),
		"TERM=dumb", "NO_COLOR=1", "CI=1",
		"DO_NOT_TRACK=1",
		"NO_UPDATE_NOTIFIER=1", "NPM_CONFIG_UPDATE_NOTIFIER=false",
	)
	return &e2eRepo{Dir: dir, Home: home, Bin: bin, Env: env}
}

func e2eLook(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not found: %v", name, err)
	}
	return p
}

// WriteFile writes a file under the worktree or, for a path starting with
// "~/", under the run's HOME, making directories.
func (r *e2eRepo) WriteFile(t *testing.T, rel, content string) {
	t.Helper()
	path := filepath.Join(r.Dir, rel)
	if rest, ok := strings.CutPrefix(rel, "~/"); ok {
		path = filepath.Join(r.Home, rest)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// e2eRun runs spec in a new network namespace with only loopback and
// returns what happened. It fails the test only if the runner itself
// failed; the host's exit status and the fake model's record are the
// caller's to check.
func e2eRun(t *testing.T, spec e2eRunSpec) *e2eResult {
	t.Helper()
	if spec.Timeout <= 0 {
		spec.Timeout = 3 * time.Minute
	}
	tmp := t.TempDir()
	spec.Out = filepath.Join(tmp, "result.json")
	raw, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	specPath := filepath.Join(tmp, "spec.json")
	if err := os.WriteFile(specPath, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	args := append(e2eUnshare(), self)
	ctx, cancel := context.WithTimeout(context.Background(), spec.Timeout+30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Env = append(os.Environ(), "GIT_EDIT_E2E_NS=1", "GIT_EDIT_E2E_SPEC="+specPath)
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("namespace runner: %v\n%s", err, out)
	}
	raw, err = os.ReadFile(spec.Out)
	if err != nil {
		t.Fatalf("namespace runner wrote no result: %v\n%s", err, out)
	}
	var res e2eResult
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	return &res
}

// e2eCommit is one commit of a session ref, newest first in e2eSessionLog.
type e2eCommit struct {
	Hash, Op, Tool, Subject string
	Files                   []string
}

// e2eSessionLog lists the commits of refs/edits/<session> not on HEAD,
// newest first, with their Edit-Op and Edit-Tool trailers and files,
// failing the test if the ref does not exist.
func e2eSessionLog(t *testing.T, dir, session string) []e2eCommit {
	t.Helper()
	ref := "refs/edits/" + session
	if _, err := gittest.GitErr(dir, "rev-parse", "--verify", "-q", ref); err != nil {
		refs, _ := gittest.GitErr(dir, "for-each-ref", "refs/edits/")
		t.Fatalf("no session ref %s; the refs are:\n%s", ref, refs)
	}
	out := gittest.Git(t, dir, "log", "--format=%x00%H%x1f%(trailers:key=Edit-Op,valueonly,separator=%x2c)%x1f%(trailers:key=Edit-Tool,valueonly,separator=%x2c)%x1f%s%x1f",
		"--name-only", "HEAD.."+ref)
	var log []e2eCommit
	for _, rec := range strings.Split(out, "\x00")[1:] {
		f := strings.SplitN(rec, "\x1f", 5)
		if len(f) < 5 {
			t.Fatalf("git log record %q", rec)
		}
		c := e2eCommit{Hash: f[0], Op: strings.TrimSpace(f[1]), Tool: strings.TrimSpace(f[2]), Subject: f[3]}
		for _, name := range strings.Split(f[4], "\n") {
			if name = strings.TrimSpace(name); name != "" {
				c.Files = append(c.Files, name)
			}
		}
		log = append(log, c)
	}
	return log
}

// e2eAssertSessionHolds checks with git that the worktree's paths equal
// the session's tip (`git diff refs/edits/<session> -- paths` is empty),
// that each path is as want says, and that `git fsck --strict` is clean.
func e2eAssertSessionHolds(t *testing.T, dir, session string, want map[string]string) {
	t.Helper()
	var paths []string
	for p, content := range want {
		paths = append(paths, p)
		if got := gittest.ReadFile(t, dir, p); got != content {
			t.Errorf("%s on disk = %q, want %q", p, got, content)
		}
		if got := gittest.Git(t, dir, "show", "refs/edits/"+session+":"+p); got != content {
			t.Errorf("%s in refs/edits/%s = %q, want %q", p, session, got, content)
		}
	}
	if diff := gittest.Git(t, dir, append([]string{"diff", "refs/edits/" + session, "--"}, paths...)...); diff != "" {
		t.Errorf("the worktree differs from refs/edits/%s:\n%s", session, diff)
	}
	gittest.Fsck(t, dir)
}

// e2eFindCommit returns the newest commit of log with the op that changed
// path, or fails the test listing the log.
func e2eFindCommit(t *testing.T, log []e2eCommit, op, path string) e2eCommit {
	t.Helper()
	for _, c := range log {
		if c.Op != op {
			continue
		}
		for _, f := range c.Files {
			if f == path {
				return c
			}
		}
	}
	t.Fatalf("no %s commit of %s on the session; log:\n%s", op, path, e2eFormatLog(log))
	return e2eCommit{}
}

func e2eFormatLog(log []e2eCommit) string {
	var b strings.Builder
	for _, c := range log {
		fmt.Fprintf(&b, "%.12s op=%s tool=%s %q %v\n", c.Hash, c.Op, c.Tool, c.Subject, c.Files)
	}
	return b.String()
}

// e2eReadAll reads a request body, bounded (a fake model never needs more).
func e2eReadAll(r io.Reader) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r, 32<<20))
}
