package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// gitEdit runs the built binary as git runs it, `git edit ARGS…`, in dir
// with stdin and extra environment, and returns what it printed.
func gitEdit(t *testing.T, dir, stdin string, env []string, args ...string) cliResult {
	t.Helper()
	bin := binDir(t)
	cmd := exec.Command("git", append([]string{"edit"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(gittest.Env(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "GIT_EDIT_SESSION=", "GIT_EDIT_MODEL=", "GIT_EDIT_AGENT=", "GIT_EDIT_LOG=", "NO_COLOR=", "COLUMNS=", "PAGER=", "GIT_PAGER="), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return cliResult{code, out.String(), errOut.String()}
}

// Item 1 of issue 15: the README's install line runs verbatim (its `go
// install` into a fresh GOPATH, its PATH, its `git edit -h`) and prints the
// help; it installs git-edit's companions too (issue 28); the test command
// the README gives is the one CI runs.
func TestReadmeSetUp(t *testing.T) {
	if testing.Short() {
		t.Skip("installs the binary")
	}
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	_, setUp, _ := strings.Cut(readme, "\n## Set up\n")
	setUp, _, _ = strings.Cut(setUp, "\n## ")
	install := strings.TrimSuffix(shBlockAfter(t, setUp, "<!-- setup: TestReadmeSetUp"), "\n")
	if strings.Contains(install, "\n") || !strings.HasPrefix(install, "go install ./cmd/...") || !strings.HasSuffix(install, "git edit -h") {
		t.Fatalf("the set-up install line is not one line ending in `git edit -h`:\n%s", install)
	}
	goEnv := func(name string) string {
		out, err := exec.Command("go", "env", name).Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	// A fresh GOPATH, so the git-edit found is the one this line installs;
	// the module and build caches are the machine's (no network).
	gopath := t.TempDir()
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", install)
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "GOPATH="+gopath, "GOMODCACHE="+goEnv("GOMODCACHE"), "GOCACHE="+goEnv("GOCACHE"), "GOFLAGS=-mod=readonly", "GOPROXY=off")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s\nfailed: %v\n%s", install, err, stderr.String())
	}
	for _, p := range gittest.Programs {
		if _, err := os.Stat(filepath.Join(gopath, "bin", exe(path.Base(p)))); err != nil {
			t.Fatalf("the line did not install %s into GOPATH/bin: %v", path.Base(p), err)
		}
	}
	if want := runCLI(t, "", "-h").stdout; string(out) != want || !strings.HasPrefix(want, "NAME:\n   git-edit - ") {
		t.Fatalf("%s printed\n%s\nwant the help\n%s", install, out, want)
	}

	tests := strings.TrimSuffix(shBlockAfter(t, setUp, "Run the tests:"), "\n")
	ci := regexp.MustCompile(`(?m)^go test.*$`).FindString(readme) // what .ci/run evaluates
	if tests != ci {
		t.Fatalf("Set up says to run %q, CI runs the README's first go test line %q", tests, ci)
	}
	script, err := os.ReadFile("../../.ci/run")
	if err != nil || !strings.Contains(string(script), `test_cmd=$(grep -m1 '^go test' README.md)`) {
		t.Fatalf(".ci/run no longer runs the README's test command: %v", err)
	}
}

// gitOrder itself: every command's options move before its operands.
func TestGitOrder(t *testing.T) {
	cmds := newApp(nil, nil, nil).Commands
	for _, tc := range []struct{ in, want, err string }{
		{in: "log strbuf.c -n 1 --session agent2", want: "log -n 1 --session agent2 -- strbuf.c"},
		{in: "undo --session a hex.c --force", want: "undo --session a --force -- hex.c"},
		{in: "log -n1 a b", want: "log -n=1 -- a b"},
		{in: "log a -3", want: "log -n=3 -- a"},
		{in: "log --session=x a -- -odd --json", want: "log --session=x -- a -odd --json"},
		{in: "log a --bogus b", want: "log --bogus -- a b"},
		{in: "call text_editor --require-read=false --root /r", want: "call --require-read=false --root /r -- text_editor"},
		{in: "call text_editor --undo-depth -1", want: "call --undo-depth -1 -- text_editor"},
		{in: "prune --session a --session b", want: "prune --session a --session b"},
		{in: "show abc1234 -h", want: "show --help"},
		{in: "log a --bogus -h", want: "log --help"},
		{in: "rollback x --to", err: "flag needs an argument: --to; see git-edit rollback --help"},
		{in: "frobnicate a --x", want: "frobnicate a --x"},
		{in: "log -", want: "log -- -"},
	} {
		got, err := clikit.GitOrder(cmds, append([]string{"git-edit"}, strings.Fields(tc.in)...))
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: error %v, want %s", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || strings.Join(got[1:], " ") != tc.want {
			t.Errorf("%s: got %q (%v), want %q", tc.in, strings.Join(got[1:], " "), err, tc.want)
		}
	}
}

// ageless matches a commit's age as log prints it when it is seconds old.
var ageless = regexp.MustCompile(`\b\d+ seconds? ago\b`)

// Item 2: options after paths mean what they mean before them, for the
// history commands and call alike, through the real binary; an unknown one
// is refused by name.
func TestOptionsAnywhere(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"hex.c": "int hex;\n", "strbuf.c": "int strbuf;\n"})
	edit := func(session, path, from, to string) {
		t.Helper()
		args := fmt.Sprintf(`{"command":"str_replace","path":%q,"old_str":%q,"new_str":%q}`, path, from, to)
		// Options after the tool name, as a person types them.
		if r := gitEdit(t, dir, args, nil, "call", "text_editor", "--session", session); r.code != 0 {
			t.Fatalf("call: %+v", r)
		}
	}
	edit("agent2", "strbuf.c", "strbuf", "strbuf2")
	edit("agent2", "strbuf.c", "strbuf2", "strbuf3")
	edit("a", "hex.c", "hex", "hex2")
	if gittest.Rev(t, dir, "refs/edits/default") != "" {
		t.Fatal("an option after the tool name was not used: the call went to session default")
	}
	newest := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "--short=7", "refs/edits/agent2"))

	for _, tc := range []struct{ given, canonical []string }{
		{[]string{"log", "strbuf.c", "-n", "1", "--session", "agent2"}, []string{"log", "-n", "1", "--session", "agent2", "strbuf.c"}},
		{[]string{"log", "strbuf.c", "-1", "--session=agent2"}, []string{"log", "-n", "1", "--session", "agent2", "strbuf.c"}},
		{[]string{"log", "--json", "strbuf.c", "--session", "agent2", "-n1"}, []string{"log", "--json", "-n", "1", "--session", "agent2", "strbuf.c"}},
		{[]string{"diff", "strbuf.c", "--session", "agent2"}, []string{"diff", "--session", "agent2", "strbuf.c"}},
	} {
		got, want := gitEdit(t, dir, "", nil, tc.given...), gitEdit(t, dir, "", nil, tc.canonical...)
		// The two runs may fall either side of a second: their ages may
		// differ ("0 seconds ago", "1 second ago"), nothing else.
		got.stdout, want.stdout = ageless.ReplaceAllString(got.stdout, "AGE"), ageless.ReplaceAllString(want.stdout, "AGE")
		if got != want || got.code != 0 || !strings.Contains(got.stdout, "strbuf") {
			t.Fatalf("git edit %s\n%+v\nwant what git edit %s prints\n%+v", strings.Join(tc.given, " "), got, strings.Join(tc.canonical, " "), want)
		}
		if tc.given[0] == "log" && !strings.Contains(got.stdout, newest) {
			t.Fatalf("git edit %s does not show agent2's newest edit %s:\n%s", strings.Join(tc.given, " "), newest, got.stdout)
		}
	}

	aTip := gittest.Rev(t, dir, "refs/edits/a")
	r := gitEdit(t, dir, "", nil, "undo", "--session", "a", "hex.c", "--force")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "Undid text_editor.str_replace ("+aTip[:7]+")") || r.stderr != "" {
		t.Fatalf("undo --session a hex.c --force: %+v", r)
	}
	if got := gittest.ReadFile(t, dir, "hex.c"); got != "int hex;\n" {
		t.Fatalf("hex.c = %q after the undo", got)
	}
	if gittest.Rev(t, dir, "refs/edits/a~1") != aTip || gittest.Rev(t, dir, "refs/edits/default") != "" {
		t.Fatal("the undo was not recorded on session a")
	}

	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"log", "strbuf.c", "--bogus"}, "git-edit: flag provided but not defined: -bogus; see git-edit log --help\n"},
		{[]string{"undo", "hex.c", "--session", "a", "--frce"}, "git-edit: flag provided but not defined: -frce; see git-edit undo --help\n"},
		{[]string{"rollback", "--session", "a", "--to"}, "git-edit: flag needs an argument: --to; see git-edit rollback --help\n"},
		{[]string{"call", "text_editor", "--root"}, "git-edit: flag needs an argument: --root; see git-edit call --help\n"},
	} {
		before := gittest.Git(t, dir, "for-each-ref")
		r := gitEdit(t, dir, `{"command":"view","path":"hex.c"}`, nil, tc.args...)
		if r.code != clikit.ExitMisuse || r.stdout != "" || r.stderr != tc.stderr {
			t.Fatalf("git edit %s: %+v, want exit 2 and stderr %q", strings.Join(tc.args, " "), r, tc.stderr)
		}
		if gittest.Git(t, dir, "for-each-ref") != before {
			t.Fatalf("git edit %s moved a ref", strings.Join(tc.args, " "))
		}
	}
	gittest.Fsck(t, dir)
}

// helpDefaults runs `git-edit CMD -h` for every command and returns each
// option's stated default, keyed "CMD --option".
func helpDefaults(t *testing.T) map[string]string {
	t.Helper()
	bin := binDir(t)
	// Every "default: …" on an option's line: urfave's "(default: …)" and
	// the ones in the usage text.
	flagLine := regexp.MustCompile(`^   (-{1,2}[a-z-]+)\b.*?\bdefault: ([^);]*)`)
	got := map[string]string{}
	for _, c := range newApp(nil, nil, nil).Commands {
		out, err := exec.Command(filepath.Join(bin, "git-edit"), c.Name, "-h").Output()
		if err != nil {
			t.Fatalf("git-edit %s -h: %v", c.Name, err)
		}
		_, opts, _ := strings.Cut(string(out), "\nOPTIONS:\n")
		for _, line := range strings.Split(opts, "\n") {
			if m := flagLine.FindStringSubmatch(line); m != nil {
				got[c.Name+" "+m[1]] = m[2]
			}
		}
	}
	return got
}

// Item 4: every default a help text states is the one the code applies,
// found by running that code: an engine opened with nothing set, the
// session a call records on, the name the MCP server picks, the tools and
// format offered when none is asked for.
func TestHelpDefaults(t *testing.T) {
	bin := binDir(t)
	dir := gittest.NewWithCommit(t, map[string]string{"top.txt": "top\n", "sub/low.txt": "low\n"})

	// The settings, from an engine opened with no option and no git config.
	e, err := ops.Open(ops.Options{Root: dir, Session: "probe"})
	if err != nil {
		t.Fatal(err)
	}
	undoDepth, maxFileSize, requireRead, timeout := e.UndoDepth, e.Session.MaxFileSize, e.RequireRead, e.Timeout
	e.Close()
	// And git config is what they fall back to, as the help says.
	gittest.Git(t, dir, "config", "edit.undoDepth", "3")
	if e, err = ops.Open(ops.Options{Root: dir, Session: "probe"}); err != nil || e.UndoDepth != 3 {
		t.Fatalf("edit.undoDepth=3 is not applied: %v", err)
	}
	e.Close()
	gittest.Git(t, dir, "config", "--unset", "edit.undoDepth")

	// No --root: the whole worktree, relative paths from the current directory.
	t.Chdir(filepath.Join(dir, "sub"))
	if e, err = ops.Open(ops.Options{Session: "probe"}); err != nil || e.Root != dir || e.Dir != filepath.Join(dir, "sub") {
		t.Fatalf("without a root the engine confines to %q and resolves from %q (%v)", e.Root, e.Dir, err)
	}
	e.Close()

	// The session a call records on when none is named.
	if r := gitEdit(t, dir, `{"command":"write","path":"top.txt","file_text":"TOP\n"}`, nil, "call", "text_editor"); r.code != 0 {
		t.Fatalf("call: %+v", r)
	}
	refs := strings.Fields(gittest.Git(t, dir, "for-each-ref", "--format=%(refname:lstrip=2)", "refs/edits/"))
	if len(refs) != 1 {
		t.Fatalf("one call made the sessions %v", refs)
	}
	callSession := fmt.Sprintf("%q", refs[0])

	// The session the MCP server makes when none is named (its stderr says).
	serverSession := regexp.MustCompile(`git-edit mcp: session (\S+) `).FindStringSubmatch(runServer(t, bin, dir, nil))

	// The tools offered when none are listed, and the format of `tools`.
	all, err := ops.Definitions()
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(all))
	for i, d := range all {
		names[i] = d.Name
	}
	toolsOut := gitEdit(t, dir, "", nil, "tools").stdout
	var listed struct{ Tools []struct{ Name string } }
	json.Unmarshal([]byte(toolsOut), &listed)
	if len(listed.Tools) != len(ops.Tools()) || toolsOut != gitEdit(t, dir, "", nil, "tools", "--format", "mcp").stdout {
		t.Fatalf("git-edit tools does not print every tool in MCP's shape:\n%s", toolsOut)
	}
	if !slices.Equal(names, ops.Tools()) {
		t.Fatalf("ops.Definitions() offers %v, not every tool %v", names, ops.Tools())
	}

	// `log` without -n: every commit of the session.
	var entries []json.RawMessage
	json.Unmarshal([]byte(gitEdit(t, dir, "", nil, "log", "--json", "--session", refs[0]).stdout), &entries)
	if count := strings.TrimSpace(gittest.Git(t, dir, "rev-list", "--count", "HEAD..refs/edits/"+refs[0])); fmt.Sprint(len(entries)) != count {
		t.Fatalf("log without -n lists %d commits of %s", len(entries), count)
	}

	// Logging of call without a flag: none (TestCallLogsOnlyWhenAsked).
	want := map[string]string{
		"call --undo-depth":    fmt.Sprintf("edit.undoDepth, else %d", undoDepth),
		"undo --undo-depth":    fmt.Sprintf("edit.undoDepth, else %d", undoDepth),
		"call --max-file-size": fmt.Sprintf("edit.maxFileSize, else %d", maxFileSize),
		"call --require-read":  fmt.Sprintf("edit.requireRead, else %t", requireRead),
		"call --timeout":       fmt.Sprintf("edit.timeout, else %v", timeout),
		"mcp --timeout":        fmt.Sprintf("edit.timeout, else %v", timeout),
		"call --log-file":      "no INFO lines",
		"call --id":            "generated", // TestCallLogsOnlyWhenAsked sees it: call-…
		"log -n":               "0",
		"mcp --tools":          "all",
		"tools --tools":        "all",
		"tools --format":       `"mcp"`,
	}
	for _, cmd := range []string{"call", "log", "show", "diff", "blame", "notes", "reject", "review", "undo", "redo", "rollback", "record", "checkpoint", "sessions", "prune", "push", "fetch", "mcp"} {
		want[cmd+" --root"] = "the whole worktree, relative paths from the current directory"
	}
	// Every command that works on one session follows the one rule
	// (issue 23); with no session yet, the first call makes default.
	if callSession != `"default"` {
		t.Fatalf("the first call without --session made session %s, want default", callSession)
	}
	want["call --session"] = sessionDefault
	// install and uninstall without --session: the host's name, in the
	// entries they write and remove.
	other := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	if r := gitEdit(t, other, "", nil, "install", "codex"); r.code != 0 || !strings.Contains(gittest.ReadFile(t, other, ".codex/config.toml"), `args = ["mcp", "--session", "codex"]`) {
		t.Fatalf("install codex without --session: %+v", r)
	}
	if r := gitEdit(t, other, "", nil, "uninstall", "codex"); r.code != 0 || r.stdout != "removed .codex/config.toml\nremoved .codex/hooks.json\n" {
		t.Fatalf("uninstall codex without --session: %+v", r)
	}
	for _, cmd := range []string{"install", "uninstall"} {
		want[cmd+" --root"] = "the whole worktree, relative paths from the current directory"
		want[cmd+" --session"] = "the host's name"
	}
	// record without --session or -m: the session a call records on, and
	// a subject naming the paths.
	gittest.WriteFile(t, dir, "top.txt", "BY HAND\n")
	if r := gitEdit(t, dir, "", nil, "record"); r.code != 0 {
		t.Fatalf("record: %+v", r)
	}
	recordSubject := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%s", "refs/edits/"+refs[0]))
	want["record --session"] = sessionDefault
	// checkpoint without --session marks the same session.
	if r := gitEdit(t, dir, "", nil, "checkpoint", "probe-mark"); r.code != 0 {
		t.Fatalf("checkpoint: %+v", r)
	}
	if op := gittest.Git(t, dir, "log", "-1", "--format=%(trailers:key=Edit-Op,valueonly)", "refs/edits/"+refs[0]); strings.TrimSpace(op) != "checkpoint" {
		t.Fatalf("checkpoint without --session did not mark session %s: its tip is a %q commit", refs[0], op)
	}
	want["checkpoint --session"] = sessionDefault
	want["record --message"] = fmt.Sprintf("%q", strings.Replace(recordSubject, "top.txt", "PATHS", 1))
	// The history commands without --session: the session last written in
	// this worktree (a second one, written later, is the one log picks).
	if r := gitEdit(t, dir, `{"command":"write","path":"top.txt","file_text":"LATER\n"}`, nil, "call", "--session", "zlater", "text_editor"); r.code != 0 {
		t.Fatalf("call: %+v", r)
	}
	if r := gitEdit(t, dir, "", nil, "log"); !strings.HasPrefix(r.stderr, "session zlater, the last written in this worktree; ") {
		t.Fatalf("log without --session did not pick the session last written:\n%+v", r)
	}
	// push picks by the same rule (chooseSession); TestPushPicksTheSessionOthersPick.
	for _, cmd := range []string{"log", "show", "diff", "reject", "review", "undo", "redo", "rollback", "push"} {
		want[cmd+" --session"] = sessionDefault
	}
	got := helpDefaults(t)
	// The server's default is a pattern; the name it made must match it.
	pattern := regexp.QuoteMeta(got["mcp --session"])
	for from, to := range map[string]string{"YYYYMMDD": `\d{8}`, "HHMMSS": `\d{6}`, "XXXX": `[0-9a-f]{4}`} {
		pattern = strings.ReplaceAll(pattern, from, to)
	}
	if serverSession == nil || !regexp.MustCompile(`^a new session, (mcp-`+strings.TrimPrefix(pattern, "a new session, mcp-")+`)$`).MatchString("a new session, "+serverSession[1]) {
		t.Fatalf("mcp -h says the session is %q; the server made %v", got["mcp --session"], serverSession)
	}
	delete(got, "mcp --session")
	for k, v := range got {
		if w, ok := want[k]; !ok {
			t.Errorf("git-edit %s -h states the default %q, which no check here derives; add one", k, v)
		} else if v != w {
			t.Errorf("git-edit %s -h states the default %q; the code applies %q", k, v, w)
		}
	}
	for k, w := range want {
		if _, ok := got[k]; !ok {
			t.Errorf("git-edit %s -h does not state its default %q", k, w)
		}
	}
}

// runServer starts `git-edit mcp` in dir as a host does, makes one call
// through the SDK client, and returns what the server wrote on stderr.
func runServer(t *testing.T, bin, dir string, args []string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "git-edit"), append([]string{"mcp"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(gittest.Env(), "GIT_EDIT_SESSION=")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, isErr := callTool(t, cs, "text_editor", map[string]any{"command": "view", "path": "top.txt"}); isErr {
		t.Fatal("the server's view failed")
	}
	cs.Close()
	cmd.Wait()
	return stderr.String()
}

// Item 4: --version and version say which git-edit (the module version
// the go command stamped), which Go and which git, as `go version -m` and
// `git version` say them; a bad top-level flag names git-edit once.
func TestVersion(t *testing.T) {
	bin := binDir(t)
	out, err := exec.Command("go", "version", "-m", filepath.Join(bin, "git-edit")).Output()
	if err != nil {
		t.Fatal(err)
	}
	info := string(out)
	field := func(re string) string {
		m := regexp.MustCompile(re).FindStringSubmatch(info)
		if m == nil {
			t.Fatalf("go version -m says no %s:\n%s", re, info)
		}
		return m[1]
	}
	gitVersion, err := exec.Command("git", "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("git-edit version %s\ngo version %s %s/%s\n%s",
		field(`(?m)^\tmod\tgithub.com/git-edit/git-edit\t(\S+)`), field(`^\S+: (\S+)\n`),
		field(`(?m)^\tbuild\tGOOS=(\S+)$`), field(`(?m)^\tbuild\tGOARCH=(\S+)$`), gitVersion)
	dir := gittest.New(t)
	for _, args := range [][]string{{"--version"}, {"version"}} {
		if r := gitEdit(t, dir, "", nil, args...); r != (cliResult{0, want, ""}) {
			t.Fatalf("git edit %s: %+v\nwant\n%s", args[0], r, want)
		}
	}
	if r := gitEdit(t, dir, "", nil, "--bogus"); r != (cliResult{clikit.ExitMisuse, "", "git-edit: flag provided but not defined: -bogus; see git-edit --help\n"}) {
		t.Fatalf("git edit --bogus: %+v", r)
	}
}

// Item 8: call prints its result and nothing else unless logging is asked
// for; the MCP server logs to stderr as seed 001 describes.
func TestCallLogsOnlyWhenAsked(t *testing.T) {
	bin := binDir(t)
	dir := gittest.NewWithCommit(t, map[string]string{"top.txt": "top\n"})
	view := `{"command":"view","path":"top.txt"}`
	result := "{\"status\":\"success\",\"message\":\"Here is top.txt (1 line):\",\"content\":\"```text\\ntop\\n```\"}\n"
	infoLines := regexp.MustCompile(`^time=\S+ level=INFO msg="\[tool\] Execution started" tool=text_editor id=(call-\S+)\ntime=\S+ level=INFO msg="\[tool\] Execution completed" tool=text_editor id=(call-\S+) duration_ms=\d+ success=true\n$`)
	logFile := filepath.Join(t.TempDir(), "calls.log")

	for _, tc := range []struct {
		name     string
		env      []string
		args     []string
		stderr   string // exact, or "INFO" for the two lines
		fileINFO bool   // the two lines were appended to logFile
	}{
		{name: "nothing asked", stderr: ""},
		{name: "GIT_EDIT_LOG=0", env: []string{"GIT_EDIT_LOG=0"}, stderr: ""},
		{name: "--verbose", args: []string{"--verbose"}, stderr: "INFO"},
		{name: "GIT_EDIT_LOG=1", env: []string{"GIT_EDIT_LOG=1"}, stderr: "INFO"},
		{name: "GIT_EDIT_LOG=true", env: []string{"GIT_EDIT_LOG=true"}, stderr: "INFO"},
		{name: "--log-file", args: []string{"--log-file", logFile}, stderr: "", fileINFO: true},
		{name: "GIT_EDIT_LOG=/path", env: []string{"GIT_EDIT_LOG=" + logFile}, stderr: "", fileINFO: true},
		{name: "GIT_EDIT_LOG=debug", env: []string{"GIT_EDIT_LOG=debug"},
			stderr: "warning: GIT_EDIT_LOG=\"debug\" is neither 1 (log to stderr) nor an absolute file path; not logging\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(logFile)
			r := gitEdit(t, dir, view, tc.env, append([]string{"call", "text_editor"}, tc.args...)...)
			if r.code != 0 || r.stdout != result {
				t.Fatalf("exit %d, stdout %q, want %q", r.code, r.stdout, result)
			}
			if tc.stderr == "INFO" {
				if m := infoLines.FindStringSubmatch(r.stderr); m == nil || m[1] != m[2] {
					t.Fatalf("stderr %q, want the two INFO lines of one call", r.stderr)
				}
			} else if r.stderr != tc.stderr {
				t.Fatalf("stderr %q, want %q", r.stderr, tc.stderr)
			}
			b, _ := os.ReadFile(logFile)
			if tc.fileINFO != infoLines.Match(b) {
				t.Fatalf("log file %q; want the INFO lines: %t", b, tc.fileINFO)
			}
		})
	}

	stderr := runServer(t, bin, dir, nil)
	server := regexp.MustCompile(`^git-edit mcp: session mcp-\S+ \(refs/edits/mcp-\S+\) in ` + regexp.QuoteMeta(dir) + `\ntime=\S+ level=INFO msg="\[tool\] Execution started" tool=text_editor id=mcp-0001\ntime=\S+ level=INFO msg="\[tool\] Execution completed" tool=text_editor id=mcp-0001 duration_ms=\d+ success=true\n$`)
	if !server.MatchString(stderr) {
		t.Fatalf("the MCP server's stderr:\n%s", stderr)
	}
}

// Item 9: from a subdirectory, call reaches the whole worktree with paths
// relative to where it runs, as git does; --root narrows it, and so do
// the history commands take their paths.
func TestCallFromSubdirectory(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"top.txt": "top\n", "sub/low.txt": "low\n", "other/o.txt": "o\n"})
	sub := filepath.Join(dir, "sub")
	replace := func(path, from, to string) string {
		return fmt.Sprintf(`{"command":"str_replace","path":%q,"old_str":%q,"new_str":%q}`, path, from, to)
	}
	for _, tc := range []struct {
		name, stdin string
		args        []string
		code        int
		stdout      string // exact; "…" stands for the commit id
	}{
		{"a path up the tree", replace("../top.txt", "top", "TOP"), []string{"call", "text_editor"}, 0,
			`{"status":"success","message":"The file ../top.txt has been edited: old_str replaced at line 1.","snippet":"@@ -1 +1 @@\n-top\n+TOP\n","commit":"…"}`},
		{"a path from here", replace("low.txt", "low", "LOW"), []string{"call", "text_editor"}, 0,
			`{"status":"success","message":"The file low.txt has been edited: old_str replaced at line 1.","snippet":"@@ -1 +1 @@\n-low\n+LOW\n","commit":"…"}`},
		{"an absolute path elsewhere in the worktree", replace(filepath.Join(dir, "other/o.txt"), "o", "O"), []string{"call", "text_editor"}, 0,
			`{"status":"success","message":"The file ` + filepath.Join(dir, "other/o.txt") + ` has been edited: old_str replaced at line 1.","snippet":"@@ -1 +1 @@\n-o\n+O\n","commit":"…"}`},
		{"--root . narrows to here", replace("../top.txt", "TOP", "x"), []string{"call", "--root", ".", "text_editor"}, 1,
			`{"status":"error","message":"path refused: ../top.txt resolves to ` + filepath.Join(dir, "top.txt") + `, outside the root ` + sub + `; edit only files inside it (or pass --root)"}`},
		{"--root elsewhere resolves from there", replace("o.txt", "O", "0"), []string{"call", "--root", "../other", "text_editor"}, 0,
			`{"status":"success","message":"The file o.txt has been edited: old_str replaced at line 1.","snippet":"@@ -1 +1 @@\n-O\n+0\n","commit":"…"}`},
	} {
		r := gitEdit(t, sub, tc.stdin, nil, tc.args...)
		got := regexp.MustCompile(`"commit":"[0-9a-f]{40}"`).ReplaceAllString(strings.TrimSuffix(r.stdout, "\n"), `"commit":"…"`)
		if r.code != tc.code || got != tc.stdout || r.stderr != "" {
			t.Fatalf("%s: exit %d, stdout\n%s\nwant exit %d,\n%s\nstderr %q", tc.name, r.code, got, tc.code, tc.stdout, r.stderr)
		}
	}
	for path, want := range map[string]string{"top.txt": "TOP\n", "sub/low.txt": "LOW\n", "other/o.txt": "0\n"} {
		if got := gittest.ReadFile(t, dir, path); got != want {
			t.Fatalf("%s = %q, want %q", path, got, want)
		}
	}
	// The session recorded the paths from the worktree's top, as git does.
	if got := gittest.Git(t, dir, "diff", "--name-only", "HEAD", "refs/edits/default"); got != "other/o.txt\nsub/low.txt\ntop.txt\n" {
		t.Fatalf("the session changed %q", got)
	}
	// The history commands take paths from here too: undo ../top.txt.
	if r := gitEdit(t, sub, "", nil, "undo", "../top.txt"); r.code != 0 || !strings.Contains(r.stdout, "  changed    top.txt (+1 -1)\n") {
		t.Fatalf("undo ../top.txt from sub: %+v", r)
	}
	if got := gittest.ReadFile(t, dir, "top.txt"); got != "top\n" {
		t.Fatalf("top.txt = %q after undo", got)
	}
	gittest.Fsck(t, dir)
}

// The help spellings the README gives all print the help, through git as
// through the binary itself.
func TestHelpSpellings(t *testing.T) {
	dir := gittest.New(t)
	bin := binDir(t)
	direct := func(args ...string) string {
		out, err := exec.Command(filepath.Join(bin, "git-edit"), args...).Output()
		if err != nil {
			t.Fatalf("git-edit %v: %v", args, err)
		}
		return string(out)
	}
	app, log := direct("--help"), direct("log", "--help")
	if !strings.HasPrefix(app, "NAME:\n   git-edit - ") || !strings.HasPrefix(log, "NAME:\n   git-edit log - ") {
		t.Fatalf("git-edit --help:\n%s\ngit-edit log --help:\n%s", app, log)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-h"}, app},
		{[]string{"help"}, app},
		{[]string{"help", "log"}, log},
		{[]string{"log", "-h"}, log},
		{[]string{"log", "strbuf.c", "-h"}, log},
	} {
		if r := gitEdit(t, dir, "", nil, tc.args...); r != (cliResult{0, tc.want, ""}) {
			t.Errorf("git edit %s: %+v\nwant\n%s", strings.Join(tc.args, " "), r, tc.want)
		}
	}
}
