package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/repo/gittest"
)

// exe is the file name of program name on this system.
func exe(name string) string {
	if runtime.GOOS == "windows" {
		return name + ".exe"
	}
	return name
}

// copyProgram copies the built program name from bin into dir.
func copyProgram(t *testing.T, bin, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(bin, exe(name)))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, exe(name))
	if err := os.WriteFile(p, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// companionEnv is the tests' environment with PATH set to path and
// GIT_EDIT_EXEC_PATH to execPath ("": unset), so that only the places a
// case names hold the companions.
func companionEnv(path, execPath string) []string {
	var env []string
	for _, kv := range gittest.Env() {
		if !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "GIT_EDIT_EXEC_PATH=") && !strings.HasPrefix(kv, "GIT_EDIT_SESSION=") {
			env = append(env, kv)
		}
	}
	env = append(env, "PATH="+path)
	if execPath != "" {
		env = append(env, "GIT_EDIT_EXEC_PATH="+execPath)
	}
	return env
}

// gitDir is the directory holding git, for a PATH that has git but no
// git-edit program.
func gitDir(t *testing.T) string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git on PATH")
	}
	return filepath.Dir(git)
}

// serves reports whether `prog mcp` in dir answers an initialize request,
// and what it wrote on stderr.
func serves(t *testing.T, prog, dir string, env []string) (bool, string) {
	t.Helper()
	cmd := exec.Command(prog, "mcp", "--session", "companion")
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, _ := cmd.Output()
	line, _ := bufio.NewReader(bytes.NewReader(out)).ReadString('\n')
	return strings.HasPrefix(line, `{"jsonrpc":"2.0","id":1,"result":`), stderr.String()
}

// `git edit mcp` finds git-edit-mcp in $GIT_EDIT_EXEC_PATH, beside the
// real git-edit a symlink on PATH points to, or on PATH; without it, it
// refuses, naming the program and how to install it.
func TestCompanionMCPIsFoundOrNamed(t *testing.T) {
	bin := binDir(t)
	repo := gittest.NewWithCommit(t, map[string]string{"f.txt": "x\n"})
	alone := t.TempDir()
	lone := copyProgram(t, bin, alone, "git-edit")
	gitPath := gitDir(t)

	ok, stderr := serves(t, lone, repo, companionEnv(gitPath, ""))
	if ok {
		t.Fatal("git-edit alone served MCP")
	}
	for _, part := range []string{"git-edit-mcp is not installed", "beside git-edit in " + alone, "on PATH", "go install ./cmd/...", "GIT_EDIT_EXEC_PATH"} {
		if !strings.Contains(stderr, part) {
			t.Errorf("the refusal does not say %q:\n%s", part, stderr)
		}
	}
	cmd := exec.Command(lone, "mcp")
	cmd.Dir, cmd.Env = repo, companionEnv(gitPath, "")
	if err := cmd.Run(); err == nil || cmd.ProcessState.ExitCode() != 1 {
		t.Errorf("git-edit mcp without its companion: %v; want exit status 1 (refused)", err)
	}

	if ok, stderr := serves(t, lone, repo, companionEnv(gitPath, bin)); !ok {
		t.Errorf("with GIT_EDIT_EXEC_PATH=%s: no answer\n%s", bin, stderr)
	}
	if ok, stderr := serves(t, lone, repo, companionEnv(bin+string(os.PathListSeparator)+gitPath, "")); !ok {
		t.Errorf("with the companion on PATH: no answer\n%s", stderr)
	}
	// GIT_EDIT_EXEC_PATH, when set, is the only place looked in.
	if ok, _ := serves(t, lone, repo, companionEnv(bin+string(os.PathListSeparator)+gitPath, alone)); ok {
		t.Error("GIT_EDIT_EXEC_PATH names a directory without git-edit-mcp, yet the one on PATH served")
	}
	if runtime.GOOS != "windows" {
		// A symlink on PATH to the git-edit that has its companions
		// beside it, as package managers install programs.
		links := t.TempDir()
		if err := os.Symlink(filepath.Join(bin, "git-edit"), filepath.Join(links, "git-edit")); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("git", "edit", "mcp", "--session", "companion")
		cmd.Dir, cmd.Env = repo, companionEnv(links+string(os.PathListSeparator)+gitPath, "")
		cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n")
		out, err := cmd.Output()
		if err != nil || !strings.HasPrefix(string(out), `{"jsonrpc":"2.0","id":1,"result":`) {
			t.Errorf("git edit mcp through a symlink: %v\n%s", err, out)
		}
	}
}

// `git edit push` without git-edit-secrets refuses before sending
// anything, naming the program and how to install it.
func TestCompanionSecretsIsNamedWhenMissing(t *testing.T) {
	bin := binDir(t)
	alone := t.TempDir()
	lone := copyProgram(t, bin, alone, "git-edit")
	gitPath := gitDir(t)
	server := filepath.Join(t.TempDir(), "server.git")
	gittest.Git(t, t.TempDir(), "init", "-q", "--bare", server)
	repo := gittest.NewWithCommit(t, map[string]string{"f.txt": "x\n"})
	gittest.Git(t, repo, "remote", "add", "origin", server)
	gittest.Git(t, repo, "config", "edit.owner", "person")
	env := companionEnv(gitPath, "")
	call := exec.Command(lone, "call", "--session", "s", "text_editor")
	call.Dir, call.Env = repo, env
	call.Stdin = strings.NewReader(`{"command":"write","path":"f.txt","file_text":"y\n"}`)
	if out, err := call.CombinedOutput(); err != nil {
		t.Fatalf("call: %v\n%s", err, out)
	}
	push := exec.Command(lone, "push", "--session", "s")
	push.Dir, push.Env = repo, env
	out, err := push.CombinedOutput()
	if err == nil || push.ProcessState.ExitCode() != 1 {
		t.Fatalf("push without git-edit-secrets: %v; want exit status 1\n%s", err, out)
	}
	for _, part := range []string{"git-edit-secrets is not installed", "go install ./cmd/..."} {
		if !strings.Contains(string(out), part) {
			t.Errorf("the refusal does not say %q:\n%s", part, out)
		}
	}
	if refs := gittest.Git(t, server, "for-each-ref"); refs != "" {
		t.Fatalf("a push refused for want of its scan sent refs:\n%s", refs)
	}
	// With the companion beside it, the same push goes through.
	copyProgram(t, bin, alone, "git-edit-secrets")
	push = exec.Command(lone, "push", "--session", "s")
	push.Dir, push.Env = repo, env
	if out, err := push.CombinedOutput(); err != nil {
		t.Fatalf("push with git-edit-secrets beside git-edit: %v\n%s", err, out)
	}
}

// On Windows `git edit mcp` runs the companion as a child and returns its
// exit status (runCompanion); the same path serves any system, so it is
// tested here with the real companion: a refusal is 1, misuse 2, and what
// the companion says reaches the streams given.
func TestRunCompanionReturnsItsExitStatus(t *testing.T) {
	bin := binDir(t)
	mcp := filepath.Join(bin, exe("git-edit-mcp"))
	cases := []struct {
		args   []string
		status int
		says   string
	}{
		{[]string{"--root", filepath.Join(t.TempDir(), "nosuch")}, 1, "git-edit: "},
		{[]string{"--bogus"}, 2, "flag provided but not defined: -bogus; see git-edit mcp --help"},
	}
	for _, tc := range cases {
		var stdout, stderr bytes.Buffer
		err := runCompanion(mcp, tc.args, strings.NewReader(""), &stdout, &stderr)
		var status clikit.ExitStatus
		if !errors.As(err, &status) || int(status) != tc.status || !strings.Contains(stderr.String(), tc.says) {
			t.Errorf("%v: %v, stderr %q; want exit status %d saying %q", tc.args, err, stderr.String(), tc.status, tc.says)
		}
		if clikit.Exit(err, io.Discard) != tc.status {
			t.Errorf("%v: git-edit would exit %d, want %d", tc.args, clikit.Exit(err, io.Discard), tc.status)
		}
	}
	var stdout bytes.Buffer
	if err := runCompanion(mcp, []string{"--help"}, strings.NewReader(""), &stdout, io.Discard); err != nil || !strings.Contains(stdout.String(), "git-edit mcp - "+clikit.MCPUsage) {
		t.Errorf("--help: %v\n%s", err, stdout.String())
	}
}
