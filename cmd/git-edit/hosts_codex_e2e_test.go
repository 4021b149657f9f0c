//go:build unix

package main

// Codex CLI, end to end and offline: `codex exec` in a network namespace
// with only loopback, against the fake Responses model. The fake model
// finds git-edit's text_editor through Codex's tool search (Codex defers
// MCP tools behind it), calls it, runs `sed -i` through Codex's shell tool
// (exec_command) and edits a third file with Codex's own apply_patch; the
// hooks record the shell and patch changes on the same session.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// codexVersion is the @openai/codex the test installs: the newest the npm
// registry served when the test was written.
const codexVersion = "0.171.0"

// codexModel is a model Codex knows from its own catalog, so that it offers
// the tools a real session has (the freeform apply_patch, tool search).
const codexModel = "gpt-5.5"

// e2eCodexHome writes CODEX_HOME/config.toml: the fake model as the
// provider, the project trusted (so its .codex/ layer loads), and no
// analytics, update checks or other traffic.
func e2eCodexHome(t *testing.T, r *e2eRepo) string {
	t.Helper()
	home := filepath.Join(r.Home, ".codex")
	config := fmt.Sprintf(`model = %q
model_provider = "fake"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = %q
wire_api = "responses"
env_key = "FAKE_MODEL_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[feedback]
enabled = false

[projects.%q]
trust_level = "trusted"
`, codexModel, e2eModelURL+"/v1", r.Dir)
	r.WriteFile(t, "~/.codex/config.toml", config)
	return home
}

// e2eCodexInstall configures git-edit for Codex in the project as a
// person does, with `git edit install codex --session SESSION`: the MCP
// server in .codex/config.toml and the PreToolUse/PostToolUse hooks on
// Codex's shell (Bash) and apply_patch in .codex/hooks.json, all on
// session. The configuration is committed: it is the person's, not the
// agent's work, so record does not take it for a change.
func e2eCodexInstall(t *testing.T, r *e2eRepo, session string) {
	t.Helper()
	e2eGitEdit(t, r, "install", "codex", "--session", session)
	for _, f := range []string{".codex/config.toml", ".codex/hooks.json"} {
		if _, err := os.Stat(filepath.Join(r.Dir, f)); err != nil {
			t.Fatalf("git edit install codex wrote no %s: %v", f, err)
		}
	}
	e2eCommitAll(t, r.Dir, "codex configuration")
}

// e2eGitEdit runs `git edit ARGS…` in the repository with the run's
// environment, failing the test on a non-zero exit.
func e2eGitEdit(t *testing.T, r *e2eRepo, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"edit"}, args...)...)
	cmd.Dir, cmd.Env = r.Dir, r.Env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git edit %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// e2eCommitAll commits everything in dir on its branch.
func e2eCommitAll(t *testing.T, dir, msg string) {
	t.Helper()
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", msg)
}

func TestCodexE2E(t *testing.T) {
	e2eRequire(t)
	pkg := e2eInstallNPM(t, "@openai/codex", codexVersion)
	const session = "codex"
	r := e2eNewRepo(t, map[string]string{
		"a.txt": "alpha\nbeta\n",
		"b.txt": "x marks the spot\n",
		"c.txt": "one\ntwo\nthree\n",
	}, filepath.Join(pkg, "node_modules", ".bin"))
	codexHome := e2eCodexHome(t, r)
	e2eCodexInstall(t, r, session)

	script := []e2eStep{
		{Tool: "tool_search", Input: json.RawMessage(`{"query":"git-edit text_editor str_replace","limit":8}`)},
		{Tool: "mcp__git_edit text_editor", Input: json.RawMessage(`{"command":"str_replace","path":"a.txt","old_str":"beta","new_str":"BETA"}`)},
		{Tool: "exec_command", Input: json.RawMessage(`{"cmd":"sed -i 's/x/y/' b.txt"}`)},
		{Tool: "apply_patch", Input: json.RawMessage(`"*** Begin Patch\n*** Update File: c.txt\n@@\n one\n-two\n+TWO\n three\n*** End Patch\n"`)},
		{Text: "All three files are edited."},
	}
	res := e2eRun(t, e2eRunSpec{
		Wire:   "responses",
		Script: script,
		Args: []string{filepath.Join(pkg, "node_modules", ".bin", "codex"), "exec",
			// Codex's own sandbox, as --full-auto runs it: the shell
			// command in bubblewrap, writable in the workspace (it works
			// as root inside the network namespace).
			"-s", "workspace-write",
			// In a sandbox Codex asks before every MCP tool call, and exec
			// cannot ask: approve git-edit's tools (confined to the
			// worktree, every change recorded) as a person would.
			"-c", `mcp_servers.git-edit.default_tools_approval_mode="approve"`,
			// Codex runs hooks only after the person reviewed them (in its
			// TUI); exec cannot ask, so the run vouches for the ones
			// git edit install just wrote.
			"--dangerously-bypass-hook-trust",
			"-C", r.Dir, "Edit a.txt, b.txt and c.txt."},
		Dir: r.Dir,
		Env: append(r.Env, "CODEX_HOME="+codexHome, "FAKE_MODEL_API_KEY=e2e-test-key", "RUST_LOG=warn"),
	})
	t.Logf("codex exec turn (4 tool calls, 5 model requests): %v", res.Elapsed)
	if res.ExitCode != 0 || res.TimedOut || res.Problems() != "" {
		t.Fatalf("codex exec failed; problems:\n%s\n%s", res.Problems(), res.Describe())
	}
	main := res.Main()
	if len(main) != len(script) {
		t.Fatalf("%d model requests of the main loop, want %d\n%s", len(main), len(script), res.Describe())
	}
	for _, e := range main {
		t.Logf("model request %d at %s", e.Step, e.At)
	}
	result := func(step int) string {
		if rs := main[step].ToolResults; len(rs) == 1 {
			return rs[0].Text
		}
		t.Fatalf("step %d: tool results %+v, want one\n%s", step, main[step].ToolResults, res.Describe())
		return ""
	}
	// Codex found git-edit's tools by searching, in its MCP namespace.
	if found := result(1); !strings.Contains(found, `"mcp__git_edit"`) || !strings.Contains(found, `"text_editor"`) {
		t.Fatalf("tool search did not find git-edit's text_editor: %s", e2eCut(found, 2000))
	}
	var edit struct{ Status, Commit string }
	mcpOut := result(2)
	if i := strings.Index(mcpOut, "{"); i < 0 || json.Unmarshal([]byte(strings.TrimSpace(mcpOut[i:])), &edit) != nil || edit.Status != "success" {
		t.Fatalf("text_editor over MCP did not succeed: %q", mcpOut)
	}
	if !strings.Contains(result(3), "exited with code 0") {
		t.Errorf("sed through exec_command: %q", result(3))
	}
	if patched := result(4); !strings.Contains(patched, "Success") || !strings.Contains(patched, "c.txt") {
		t.Errorf("apply_patch: %q", patched)
	}

	log := e2eSessionLog(t, r.Dir, session)
	t.Logf("refs/edits/%s:\n%s", session, e2eFormatLog(log))
	mcpEdit := e2eFindCommit(t, log, "edit", "a.txt")
	if mcpEdit.Hash != edit.Commit || mcpEdit.Tool != "text_editor.str_replace" {
		t.Errorf("the MCP reply names commit %s; the session's edit of a.txt is %s (%s)", edit.Commit, mcpEdit.Hash, mcpEdit.Tool)
	}
	if sed := e2eFindCommit(t, log, "record", "b.txt"); sed.Subject != "sed -i 's/x/y/' b.txt" {
		t.Errorf("the shell hook recorded b.txt as %q, want the command", sed.Subject)
	}
	// The apply_patch hook: its subject says what the patch did, not the
	// patch's first line.
	if c := e2eFindCommit(t, log, "record", "c.txt"); c.Subject != "apply_patch: update c.txt" {
		t.Errorf("the patch's record is titled %q, want %q", c.Subject, "apply_patch: update c.txt")
	}
	for _, c := range log {
		if c.Op != "edit" && c.Op != "record" {
			t.Errorf("unexpected %s commit %q: the person changed nothing, so no sync", c.Op, c.Subject)
		}
	}
	e2eAssertSessionHolds(t, r.Dir, session, map[string]string{
		"a.txt": "alpha\nBETA\n",
		"b.txt": "y marks the spot\n",
		"c.txt": "one\nTWO\nthree\n",
	})
	if hooks := strings.Count(res.Stdout+res.Stderr, "PostToolUse Failed"); hooks > 0 {
		t.Errorf("Codex reports %d PostToolUse hook(s) failed:\n%s", hooks, res.Describe())
	}
}
