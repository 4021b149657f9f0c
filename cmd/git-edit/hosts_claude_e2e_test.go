//go:build unix

package main

// Claude Code, offline, against the fake Anthropic model: one turn calls
// git-edit's MCP text_editor and then Claude Code's own Bash tool (sed -i),
// whose change the PreToolUse/PostToolUse hooks record; git then shows
// both on the session ref. The same turn without git-edit's MCP server is
// timed beside it (issue 23: no 27-second wait at start).

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo/gittest"
)

// claudeCodeVersion is the version tested: the newest npm served when the
// test was written (`npm view @anthropic-ai/claude-code version`).
const (
	claudeCodePackage = "@anthropic-ai/claude-code"
	claudeCodeVersion = "2.1.332"
)

// claudeCodeBin installs Claude Code (cached) and returns its command.
func claudeCodeBin(t *testing.T) string {
	t.Helper()
	dir := e2eInstallNPM(t, claudeCodePackage, claudeCodeVersion)
	// The package's postinstall puts the platform's native binary at
	// bin/claude.exe; where npm did not run it, the platform package's
	// binary is the same program.
	for _, p := range []string{
		filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe"),
		filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code-linux-x64", "claude"),
		filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code-linux-arm64", "claude"),
	} {
		if fi, err := os.Stat(p); err == nil && fi.Size() > 1<<20 {
			return p
		}
	}
	t.Fatalf("no Claude Code binary under %s", dir)
	return ""
}

// claudeInstallGitEdit configures git-edit in Claude Code for the project:
// the MCP server in .mcp.json and the Bash hooks that run record, in
// .claude/settings.json, as the README's "Shell and tool edits" shows,
// committed as a project would. (The lead switches this to `git edit
// install claude-code` when that lands.)
func claudeInstallGitEdit(t *testing.T, r *e2eRepo, session string) {
	t.Helper()
	mcp := map[string]any{"mcpServers": map[string]any{
		"git-edit": map[string]any{"command": "git-edit", "args": []string{"mcp", "--session", session}},
	}}
	hook := func(before string) []any {
		return []any{map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{
			"type":    "command",
			"command": `git -C "$CLAUDE_PROJECT_DIR" edit record` + before + ` --hook-input --session ` + session,
		}}}}
	}
	settings := map[string]any{
		"hooks": map[string]any{"PreToolUse": hook(" --before"), "PostToolUse": hook("")},
	}
	for path, v := range map[string]any{".mcp.json": mcp, ".claude/settings.json": settings} {
		raw, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		r.WriteFile(t, path, string(raw)+"\n")
	}
	gittest.Git(t, r.Dir, "add", ".mcp.json", ".claude/settings.json")
	gittest.Git(t, r.Dir, "commit", "-q", "-m", "configure git-edit for Claude Code")
	claudeApproveProjectServers(t, r)
}

// claudeApproveProjectServers is the person's approval of the project's
// MCP servers (Claude Code asks once, interactively, before it starts a
// server named in .mcp.json), given in the user's settings.
func claudeApproveProjectServers(t *testing.T, r *e2eRepo) {
	t.Helper()
	r.WriteFile(t, "~/.claude/settings.json", `{"enableAllProjectMcpServers": true}`+"\n")
}

// claudeEnv points Claude Code at the fake model and turns off what is
// not needed offline (telemetry, error reports, updates).
var claudeEnv = []string{
	"ANTHROPIC_BASE_URL=" + e2eModelURL,
	"ANTHROPIC_API_KEY=sk-ant-e2e-test",
	"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	"DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1", "DISABLE_AUTOUPDATER=1",
	"DISABLE_BUG_COMMAND=1", "DISABLE_COST_WARNINGS=1",
	"CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY=1",
	// In -p mode Claude Code starts the turn without waiting for MCP
	// servers unless told to wait, as its interactive start does; the
	// test waits, so the MCP tool is there and a slow start shows.
	"MCP_CONNECTION_NONBLOCKING=false", "MCP_CONNECT_TIMEOUT_MS=60000",
}

// claudeRun runs one Claude Code turn (claude -p) in r against the fake
// model's script. withMCP false runs it with no MCP server at all
// (--strict-mcp-config without --mcp-config). It returns the result and
// Claude Code's debug log.
func claudeRun(t *testing.T, claude string, r *e2eRepo, script []e2eStep, withMCP bool) (*e2eResult, string) {
	t.Helper()
	debug := filepath.Join(t.TempDir(), "claude-debug.log")
	args := []string{claude, "-p", "Change the files as the test's script says.",
		"--output-format", "stream-json", "--verbose",
		"--debug-file", debug,
		"--no-session-persistence",
		"--allowedTools", "Bash(sed:*)", "mcp__git-edit__text_editor",
	}
	if !withMCP {
		args = append(args, "--strict-mcp-config")
	}
	env := append(append([]string{}, r.Env...), claudeEnv...)
	res := e2eRun(t, e2eRunSpec{Wire: "anthropic", Script: script, Args: args, Dir: r.Dir, Env: env, Timeout: 3 * time.Minute})
	raw, _ := os.ReadFile(debug)
	if keep := os.Getenv("GIT_EDIT_E2E_KEEP"); keep != "" {
		// For a person looking into a failure: the debug log and the
		// fake model's record, kept.
		name := strings.NewReplacer("/", "_").Replace(t.Name())
		if withMCP {
			name += "-mcp"
		}
		os.WriteFile(filepath.Join(keep, name+".debug.log"), raw, 0o644)
		os.WriteFile(filepath.Join(keep, name+".run.txt"), []byte(res.Describe()), 0o644)
	}
	return res, string(raw)
}

// claudeListenTrouble finds, in Claude Code's debug log, the lines that
// show the 27-second wait of issue 23: an MCP request of git-edit's server
// timing out or cancelled, or git-edit answering under an id Claude Code
// never sent or no longer waits for (the subscriptions/listen
// acknowledgement under the wrong id, the late answer to the cancelled
// listen).
var claudeListenTrouble = regexp.MustCompile(`(?im)^.*"git-edit".*(unknown message id|request timed out|subscriptions/listen.*(timed? ?out|cancel)|notifications/cancelled).*$`)

// claudeConnected finds how long Claude Code took to connect to git-edit.
var claudeConnected = regexp.MustCompile(`MCP server "git-edit": Successfully connected \(transport: stdio\) in (\d+)ms`)

func TestE2EClaudeCode(t *testing.T) {
	e2eRequire(t)
	claude := claudeCodeBin(t)
	const session = "claude"
	files := map[string]string{"a.txt": "hello\nworld\n", "b.txt": "x marks\nthe spot\n"}
	want := map[string]string{"a.txt": "hello from git-edit\nworld\n", "b.txt": "y marks\nthe spot\n"}
	sed := e2eStep{Tool: "Bash", Input: json.RawMessage(`{"command":"sed -i 's/x/y/' b.txt","description":"Replace x by y in b.txt"}`)}
	edit := e2eStep{Tool: "mcp__git-edit__text_editor",
		Input: json.RawMessage(`{"command":"str_replace","path":"a.txt","old_str":"hello\n","new_str":"hello from git-edit\n"}`)}
	done := e2eStep{Text: "Done: a.txt through git-edit, b.txt through sed."}

	// The turn with git-edit's MCP server.
	r := e2eNewRepo(t, files)
	claudeInstallGitEdit(t, r, session)
	res, debug := claudeRun(t, claude, r, []e2eStep{edit, sed, done}, true)
	if res.ExitCode != 0 || res.TimedOut || res.Problems() != "" {
		t.Fatalf("Claude Code's turn failed: problems:\n%s\n%s\n--- debug log (tail)\n%s", res.Problems(), res.Describe(), e2eTail(debug, 8<<10))
	}
	main := res.Main()
	if len(main) != 3 {
		t.Fatalf("the model was asked %d times, want 3 (edit, sed, end):\n%s", len(main), res.Describe())
	}
	// What Claude Code handed back to the model: git-edit's answer to the
	// edit, then the shell's (empty) answer to sed.
	editRes := main[1].ToolResults
	var answer struct{ Status, Commit string }
	if len(editRes) != 1 || editRes[0].IsError || json.Unmarshal([]byte(editRes[0].Text), &answer) != nil || answer.Status != "success" {
		t.Fatalf("text_editor's result as the model saw it = %+v; want git-edit's success", editRes)
	}
	if sedRes := main[2].ToolResults; len(sedRes) != 1 || sedRes[0].IsError {
		t.Errorf("Bash's result as the model saw it = %+v; want no error", sedRes)
	}
	if m := claudeListenTrouble.FindAllString(debug, 5); len(m) > 0 {
		t.Errorf("Claude Code's debug log shows git-edit's MCP requests timing out or cancelled:\n%s", strings.Join(m, "\n"))
	}

	connect := "unknown"
	if m := claudeConnected.FindStringSubmatch(debug); m != nil {
		connect = m[1] + " ms"
	}
	log := e2eSessionLog(t, r.Dir, session)
	editCommit := e2eFindCommit(t, log, "edit", "a.txt")
	if editCommit.Tool != "text_editor.str_replace" || editCommit.Hash != answer.Commit {
		t.Errorf("the edit commit = %+v; want Edit-Tool text_editor.str_replace and the commit the tool answered, %s", editCommit, answer.Commit)
	}
	rec := e2eFindCommit(t, log, "record", "b.txt")
	if rec.Subject != "sed -i 's/x/y/' b.txt" || len(rec.Files) != 1 {
		t.Errorf("the hook's record commit = %+v; want subject the sed command and only b.txt", rec)
	}
	e2eAssertSessionHolds(t, r.Dir, session, want)
	if st := gittest.Status(t, r.Dir); !strings.Contains(st, "a.txt") || !strings.Contains(st, "b.txt") {
		t.Errorf("git status = %q; want a.txt and b.txt changed in the worktree", st)
	}
	t.Logf("Claude Code %s: the turn with git-edit's MCP server took %v (%d model requests, %d in all; connecting to git-edit took %s)\nsession log:\n%s",
		claudeCodeVersion, res.Elapsed.Round(time.Millisecond), len(main), len(res.Exchanges), connect, e2eFormatLog(log))

	// The same turn without git-edit's MCP server: the same files and
	// hooks, the script without the MCP step.
	r2 := e2eNewRepo(t, files)
	claudeInstallGitEdit(t, r2, session)
	res2, debug2 := claudeRun(t, claude, r2, []e2eStep{sed, done}, false)
	if res2.ExitCode != 0 || res2.TimedOut || res2.Problems() != "" {
		t.Fatalf("Claude Code's turn without the MCP server failed: problems:\n%s\n%s\n--- debug log (tail)\n%s", res2.Problems(), res2.Describe(), e2eTail(debug2, 8<<10))
	}
	e2eFindCommit(t, e2eSessionLog(t, r2.Dir, session), "record", "b.txt")
	e2eAssertSessionHolds(t, r2.Dir, session, map[string]string{"b.txt": want["b.txt"]})
	t.Logf("Claude Code %s: the same turn without git-edit's MCP server took %v; with it %v (difference %v)",
		claudeCodeVersion, res2.Elapsed.Round(time.Millisecond), res.Elapsed.Round(time.Millisecond),
		(res.Elapsed - res2.Elapsed).Round(time.Millisecond))
}

// e2eTail is the last n bytes of s.
func e2eTail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "[…] " + s[len(s)-n:]
}

// `claude mcp list` connects to every configured server and says whether
// it answered; issue 23 found it waiting the same 27 seconds as the start.
func TestE2EClaudeCodeMCPList(t *testing.T) {
	e2eRequire(t)
	claude := claudeCodeBin(t)
	r := e2eNewRepo(t, map[string]string{"a.txt": "a\n"})
	claudeInstallGitEdit(t, r, "claude")
	debugDir := t.TempDir()
	env := append(append([]string{}, r.Env...), claudeEnv...)
	res := e2eRun(t, e2eRunSpec{Wire: "anthropic", Args: []string{claude, "--debug-file", debugDir + "/d.log", "mcp", "list"}, Dir: r.Dir, Env: env, Timeout: 2 * time.Minute})
	if res.ExitCode != 0 || res.TimedOut || !regexp.MustCompile(`(?m)^git-edit: .*git-edit mcp --session claude.*Connected`).MatchString(res.Stdout) {
		t.Fatalf("claude mcp list does not show git-edit connected:\n%s", res.Describe())
	}
	raw, err := os.ReadFile(filepath.Join(debugDir, "d.log"))
	if err != nil {
		t.Fatalf("Claude Code wrote no debug log: %v", err)
	}
	if m := claudeListenTrouble.FindAllString(string(raw), 5); len(m) > 0 {
		t.Errorf("Claude Code's debug log shows git-edit's MCP requests timing out, cancelled or answered under an unknown id:\n%s", strings.Join(m, "\n"))
	}
	connect := "unknown"
	if m := claudeConnected.FindStringSubmatch(string(raw)); m != nil {
		connect = m[1] + " ms"
	}
	t.Logf("Claude Code %s: claude mcp list took %v (connecting to git-edit %s):\n%s", claudeCodeVersion, res.Elapsed.Round(time.Millisecond), connect, res.Stdout)
}
