//go:build unix

package main

// Gemini CLI, end to end and offline: `gemini -p` in a network namespace
// with only loopback, against the fake Gemini API model. The fake model
// calls git-edit's text_editor over MCP, then `sed -i` through Gemini
// CLI's run_shell_command; the BeforeTool and AfterTool hooks record the
// shell change on the same session.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// geminiVersion is the @google/gemini-cli the test installs: the newest
// the npm registry served when the test was written.
const geminiVersion = "0.61.0"

// e2eGeminiUserSettings writes ~/.gemini/settings.json: the API key as the
// way in, and no telemetry, usage statistics or update checks.
func e2eGeminiUserSettings(t *testing.T, r *e2eRepo) {
	t.Helper()
	raw, err := json.MarshalIndent(map[string]any{
		"general":   map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"telemetry": map[string]any{"enabled": false},
		"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	r.WriteFile(t, "~/.gemini/settings.json", string(raw)+"\n")
}

// e2eGeminiInstall configures git-edit for Gemini CLI in the project as a
// person does, with `git edit install gemini --session SESSION`: the MCP
// server and the BeforeTool/AfterTool hooks on run_shell_command in
// .gemini/settings.json, all on session; committed, as the person's.
func e2eGeminiInstall(t *testing.T, r *e2eRepo, session string) {
	t.Helper()
	e2eGitEdit(t, r, "install", "gemini", "--session", session)
	if _, err := os.Stat(filepath.Join(r.Dir, ".gemini", "settings.json")); err != nil {
		t.Fatalf("git edit install gemini wrote no .gemini/settings.json: %v", err)
	}
	e2eCommitAll(t, r.Dir, "gemini configuration")
}

func TestGeminiE2E(t *testing.T) {
	e2eRequire(t)
	pkg := e2eInstallNPM(t, "@google/gemini-cli", geminiVersion)
	const session = "gemini"
	r := e2eNewRepo(t, map[string]string{
		"a.txt": "alpha\nbeta\n",
		"b.txt": "x marks the spot\n",
	}, filepath.Join(pkg, "node_modules", ".bin"))
	e2eGeminiUserSettings(t, r)
	e2eGeminiInstall(t, r, session)

	script := []e2eStep{
		{Tool: "mcp_git-edit_text_editor", Input: json.RawMessage(`{"command":"str_replace","path":"a.txt","old_str":"beta","new_str":"BETA"}`)},
		{Tool: "run_shell_command", Input: json.RawMessage(`{"command":"sed -i 's/x/y/' b.txt","description":"edit b.txt"}`)},
		{Text: "Both files are edited."},
	}
	res := e2eRun(t, e2eRunSpec{
		Wire:   "gemini",
		Script: script,
		Args: []string{filepath.Join(pkg, "node_modules", ".bin", "gemini"),
			"-p", "Edit a.txt and b.txt.", "--yolo", "-m", "gemini-2.5-flash", "--output-format", "text"},
		Dir: r.Dir,
		// GEMINI_CLI_NO_RELAUNCH: Gemini CLI otherwise starts itself a
		// second time (to raise node's heap limit), doubling its start-up
		// on a loaded machine; the turn is the same.
		Env: append(r.Env, "GEMINI_API_KEY=e2e-test-key", "GOOGLE_GEMINI_BASE_URL="+e2eModelURL,
			"GEMINI_CLI_TRUST_WORKSPACE=true", "GEMINI_CLI_NO_RELAUNCH=true", "GEMINI_TELEMETRY_ENABLED=false"),
	})
	t.Logf("gemini -p turn (2 tool calls, 3 model requests): %v", res.Elapsed)
	if res.ExitCode != 0 || res.TimedOut || res.Problems() != "" {
		t.Fatalf("gemini failed; problems:\n%s\n%s", res.Problems(), res.Describe())
	}
	main := res.Main()
	for _, e := range res.Exchanges {
		t.Logf("%s %s main=%v step=%d at %s", e.Method, e.Path, e.Main, e.Step, e.At)
	}
	if len(main) != len(script) {
		t.Fatalf("%d model requests of the main loop, want %d\n%s", len(main), len(script), res.Describe())
	}
	var first geminiRequest
	if err := json.Unmarshal([]byte(main[0].Body), &first); err != nil {
		t.Fatalf("first request: %v", err)
	}
	var declared []string
	for _, tool := range first.Tools {
		for _, d := range tool.FunctionDeclarations {
			declared = append(declared, d.Name)
		}
	}
	if !strings.Contains(" "+strings.Join(declared, " ")+" ", " mcp_git-edit_text_editor ") {
		t.Fatalf("Gemini CLI does not offer git-edit's text_editor; it declares %v", declared)
	}
	result := func(step int) string {
		if rs := main[step].ToolResults; len(rs) == 1 {
			return rs[0].Text
		}
		t.Fatalf("step %d: tool results %+v, want one\n%s", step, main[step].ToolResults, res.Describe())
		return ""
	}
	// Gemini CLI hands the model the MCP result's text content (not its
	// structured content, which holds the commit).
	if mcpOut := result(1); !strings.Contains(mcpOut, "The file a.txt has been edited") {
		t.Fatalf("text_editor over MCP did not succeed: %s", mcpOut)
	}
	if out := result(2); strings.Contains(out, "error") {
		t.Errorf("sed through run_shell_command: %s", out)
	}

	log := e2eSessionLog(t, r.Dir, session)
	t.Logf("refs/edits/%s:\n%s", session, e2eFormatLog(log))
	mcpEdit := e2eFindCommit(t, log, "edit", "a.txt")
	if mcpEdit.Tool != "text_editor.str_replace" {
		t.Errorf("the session's edit of a.txt is %s by %q, want text_editor.str_replace", mcpEdit.Hash, mcpEdit.Tool)
	}
	if sed := e2eFindCommit(t, log, "record", "b.txt"); sed.Subject != "sed -i 's/x/y/' b.txt" {
		t.Errorf("the shell hook recorded b.txt as %q, want the command", sed.Subject)
	}
	for _, c := range log {
		if c.Op != "edit" && c.Op != "record" {
			t.Errorf("unexpected %s commit %q: the person changed nothing, so no sync", c.Op, c.Subject)
		}
	}
	e2eAssertSessionHolds(t, r.Dir, session, map[string]string{
		"a.txt": "alpha\nBETA\n",
		"b.txt": "y marks the spot\n",
	})
}
