package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

type cliResult struct {
	code           int
	stdout, stderr string
}

func runCLI(t *testing.T, stdin string, args ...string) cliResult {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), append([]string{"git-edit"}, args...), strings.NewReader(stdin), &out, &errOut)
	return cliResult{code, out.String(), errOut.String()}
}

func TestCallContract(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"src/a.txt": "alpha\n"})
	sub := filepath.Join(dir, "src")
	cases := []struct {
		name       string
		stdin      string
		args       []string
		code       int
		stdout     string // exact JSON line, or "" for none
		stderrHas  string
		fileAfter  string
		sessionRef string // a ref that must exist afterwards
	}{
		{
			name:  "success prints the result and exits 0",
			stdin: `{"command":"str_replace","path":"a.txt","old_str":"alpha","new_str":"beta"}`,
			args:  []string{"call", "--root", sub, "--session", "s1", "text_editor"},
			code:  0, fileAfter: "beta\n", sessionRef: "refs/edits/s1",
		},
		{
			name:      "refusal prints JSON and exits 1",
			stdin:     `{"command":"str_replace","path":"a.txt","old_str":"gamma","new_str":"x"}`,
			args:      []string{"call", "--root", sub, "--session", "s1", "text_editor"},
			code:      1,
			stdout:    `{"status":"error","message":"old_str not found in a.txt; view the file and copy the exact text to replace, including whitespace, indentation and line breaks"}` + "\n",
			fileAfter: "beta\n",
		},
		{
			name:      "invalid JSON is a refusal",
			stdin:     `{"command":`,
			args:      []string{"call", "--root", dir, "text_editor"},
			code:      1,
			stdout:    `{"status":"error","message":"invalid arguments: the arguments are not valid JSON: the object is cut off; send one complete JSON object"}` + "\n",
			fileAfter: "beta\n",
		},
		{
			name: "unknown tool is misuse",
			args: []string{"call", "--root", dir, "sed"},
			code: 2, stderrHas: `unknown tool "sed"; the tools are: ` + strings.Join(ops.Tools(), ", "), fileAfter: "beta\n",
		},
		{
			name: "unknown flag is misuse, stdout stays clean",
			args: []string{"call", "--frobnicate", "text_editor"},
			code: 2, stderrHas: "flag provided but not defined: -frobnicate; see git-edit call --help", fileAfter: "beta\n",
		},
		{
			name: "missing tool name is misuse",
			args: []string{"call", "--root", dir},
			code: 2, stderrHas: "call takes exactly one tool name, got 0 arguments", fileAfter: "beta\n",
		},
		{
			name:  "a session name that cannot be a ref is misuse",
			stdin: `{"command":"view","path":"src/a.txt"}`,
			args:  []string{"call", "--root", dir, "--session", "bad..name", "text_editor"},
			code:  2, stderrHas: `--session: invalid session name "bad..name": it may not contain ".." or "@{"`, fileAfter: "beta\n",
		},
		{
			name:      "outside a repository is a refusal",
			stdin:     `{"command":"view","path":"x"}`,
			args:      []string{"call", "--root", "/", "text_editor"},
			code:      1,
			stdout:    `{"status":"error","message":"not inside a git repository: / (run git init there, or pass --root inside a repository)"}` + "\n",
			fileAfter: "beta\n",
		},
		{
			name: "unknown command is misuse",
			args: []string{"frobnicate"},
			code: 2, stderrHas: `unknown command "frobnicate"`, fileAfter: "beta\n",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tipBefore := gittest.Rev(t, dir, "refs/edits/s1")
			r := runCLI(t, tc.stdin, tc.args...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout %s\nstderr %s", r.code, tc.code, r.stdout, r.stderr)
			}
			if tc.code == 2 && r.stdout != "" {
				t.Fatalf("misuse wrote to stdout: %q", r.stdout)
			}
			if tc.stdout != "" && r.stdout != tc.stdout {
				t.Fatalf("stdout\n%s\nwant\n%s", r.stdout, tc.stdout)
			}
			if tc.code == 0 {
				var v map[string]any
				if err := json.Unmarshal([]byte(r.stdout), &v); err != nil || v["status"] != "success" || !strings.HasSuffix(r.stdout, "}\n") {
					t.Fatalf("stdout is not one success object: %q", r.stdout)
				}
			}
			if !strings.Contains(r.stderr, tc.stderrHas) {
				t.Fatalf("stderr %q, want it to contain %q", r.stderr, tc.stderrHas)
			}
			if got := gittest.ReadFile(t, dir, "src/a.txt"); got != tc.fileAfter {
				t.Fatalf("file = %q, want %q", got, tc.fileAfter)
			}
			if tc.sessionRef != "" && gittest.Rev(t, dir, tc.sessionRef) == "" {
				t.Fatalf("%s missing", tc.sessionRef)
			}
			if tc.code != 0 && gittest.Rev(t, dir, "refs/edits/s1") != tipBefore {
				t.Fatal("a refused call moved the session ref")
			}
		})
	}
}

func TestSessionFromEnvironment(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "x\n"})
	t.Setenv("GIT_EDIT_SESSION", "from-env")
	r := runCLI(t, `{"command":"write","path":"f.txt","file_text":"y\n"}`, "call", "--root", dir, "text_editor")
	if r.code != 0 {
		t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	if gittest.Rev(t, dir, "refs/edits/from-env") == "" || gittest.Rev(t, dir, "refs/edits/default") != "" {
		t.Fatal("GIT_EDIT_SESSION not used")
	}
	// The flag wins over the environment.
	runCLI(t, `{"command":"write","path":"f.txt","file_text":"z\n"}`, "call", "--root", dir, "--session", "flag", "text_editor")
	if gittest.Rev(t, dir, "refs/edits/flag") == "" {
		t.Fatal("--session did not win over GIT_EDIT_SESSION")
	}
}

func TestDefaultSessionAndRootIsCurrentDirectory(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "x\n"})
	t.Setenv("GIT_EDIT_SESSION", "")
	t.Chdir(dir)
	r := runCLI(t, `{"command":"write","path":"f.txt","file_text":"y\n"}`, "call", "text_editor")
	if r.code != 0 || gittest.Rev(t, dir, "refs/edits/default") == "" {
		t.Fatalf("exit %d, refs/edits/default %q: %s", r.code, gittest.Rev(t, dir, "refs/edits/default"), r.stdout)
	}
}

// buildBinary builds git-edit and its companions (gittest.Programs) once
// per test run, side by side as `go install ./cmd/...` puts them, and
// returns the directory holding them, to put on PATH.
var buildBinary = sync.OnceValues(func() (string, error) {
	bin, err := os.MkdirTemp("", "git-edit-bin")
	if err != nil {
		return "", err
	}
	if err := gittest.BuildPrograms(bin); err != nil {
		return "", err
	}
	return bin, nil
})

func TestMain(m *testing.M) {
	code := m.Run()
	if binBuilt {
		if bin, err := buildBinary(); err == nil {
			os.RemoveAll(bin)
		}
	}
	historyFixtures.Range(func(_, build any) bool {
		if dir, err := build.(func() (string, error))(); err == nil {
			os.RemoveAll(dir)
		}
		return true
	})
	os.Exit(code)
}

func binDir(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	binBuilt = true
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// binBuilt records that a test asked for the binary, so TestMain removes it.
var binBuilt bool

// The installed binary works as a git subcommand: `git edit call …`.
func TestGitEditSubcommand(t *testing.T) {
	bin := binDir(t)
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "hello\r\n"})
	cmd := exec.Command("git", "edit", "call", "--session", "sub", "text_editor")
	cmd.Dir = dir
	cmd.Env = append(gittest.Env(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmd.Stdin = strings.NewReader(`{"command":"insert","path":"f.txt","insert_line":1,"new_str":"world"}`)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git edit: %v\n%s", err, out)
	}
	if got := gittest.ReadFile(t, dir, "f.txt"); got != "hello\r\nworld\r\n" {
		t.Fatalf("file = %q", got)
	}
	if tool := gittest.Git(t, dir, "log", "-1", "--format=%(trailers:key=Edit-Tool,valueonly)", "refs/edits/sub"); strings.TrimSpace(tool) != "text_editor.insert" {
		t.Fatalf("Edit-Tool = %q", tool)
	}
}

// The README's quick start runs as written and prints what the README says;
// so do the examples marked to run after it, whose "# → " lines give output
// that must appear ("…" matches anything).
func TestReadmeQuickStart(t *testing.T) {
	bin := binDir(t)
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	script := shBlockAfter(t, readme, "<!-- quickstart")
	var expected []string
	for rest := readme; ; {
		_, after, ok := strings.Cut(rest, "<!-- example: TestReadmeQuickStart")
		if !ok {
			break
		}
		block := shBlockAfter(t, after, "")
		script += block
		for _, line := range strings.Split(block, "\n") {
			if want, ok := strings.CutPrefix(line, "# → "); ok {
				expected = append(expected, want)
			}
		}
		rest = after
	}
	if len(expected) < 3 {
		t.Fatalf("README has %d example outputs; the examples were not found", len(expected))
	}
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", script)
	cmd.Dir = t.TempDir()
	cmd.Env = append(gittest.Env(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "TMPDIR="+t.TempDir(), "GIT_EDIT_SESSION=")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("README script failed: %v\n%s\n%s", err, out, stderr.String())
	}
	lines := strings.Split(string(out), "\n")
	// The first call's output, as the README shows it (commit ids elided).
	_, shown, _ := strings.Cut(readme, "The first call prints:\n\n```json\n")
	shown, _, _ = strings.Cut(shown, "\n```")
	if got := regexp.MustCompile(`"commit":"[0-9a-f]{40}"`).ReplaceAllString(lines[0], `"commit":"…"`); got != shown {
		t.Fatalf("first call printed\n%s\nREADME shows\n%s", got, shown)
	}
	for _, want := range append(expected,
		"text_editor.str_replace: app.py",
		"text_editor.insert: app.py",
		`+    print("hello, world")`,
		"Last edit to app.py undone",
		"def greet():\n    print(\"hello, world\")\n M app.py\n",
	) {
		pattern := regexp.QuoteMeta(want)
		pattern = strings.ReplaceAll(pattern, "…", ".*")
		// log pads the age column to its widest age: "1 second ago " beside
		// "10 seconds ago", whichever second the script crosses.
		pattern = strings.ReplaceAll(pattern, " ago  ", " ago {2,}")
		if !regexp.MustCompile(pattern).MatchString(string(out)) {
			t.Errorf("README output lacks %q:\n%s", want, out)
		}
	}
}

// shBlockAfter returns the first ```sh block after marker in text.
func shBlockAfter(t *testing.T, text, marker string) string {
	t.Helper()
	_, after, ok := strings.Cut(text, marker)
	_, block, ok2 := strings.Cut(after, "```sh\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatalf("README.md has no sh block after %q", marker)
	}
	return block
}

// Read-before-edit state lives under the git dir, so a Read by one process
// lets a later Edit by another process of the same session through, and
// not one of another session.
func TestReadBeforeEditAcrossProcesses(t *testing.T) {
	bin := binDir(t)
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "alpha\n"})
	gitEdit := func(session, tool, args string) string {
		cmd := exec.Command("git", "edit", "call", "--session", session, tool)
		cmd.Dir = dir
		cmd.Env = append(gittest.Env(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		cmd.Stdin = strings.NewReader(args)
		out, _ := cmd.Output()
		return string(out)
	}
	edit := `{"file_path":"f.txt","old_string":"alpha","new_string":"beta"}`
	if out := gitEdit("one", "Read", `{"file_path":"f.txt"}`); out != `{"content":"     1\talpha","total_lines":1}`+"\n" {
		t.Fatalf("Read printed %q", out)
	}
	if out := gitEdit("two", "Edit", edit); !strings.Contains(out, `"error":"File must be read before editing"`) {
		t.Fatalf("session two edited a file only session one read: %s", out)
	}
	if out := gitEdit("one", "Edit", edit); !strings.Contains(out, `"message":"Replaced 1 occurrence in f.txt at line 1."`) {
		t.Fatalf("Edit after Read in another process: %s", out)
	}
	if got := gittest.ReadFile(t, dir, "f.txt"); got != "beta\n" {
		t.Fatalf("file = %q", got)
	}
}

// Flags override git config: here edit.requireRead and edit.maxFileSize.
func TestCallFlagsOverrideGitConfig(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "alpha\n"})
	gittest.Git(t, dir, "config", "edit.maxFileSize", "1")
	edit := `{"file_path":"f.txt","old_string":"alpha","new_string":"beta"}`
	if r := runCLI(t, edit, "call", "--root", dir, "Edit"); r.code != 1 || !strings.Contains(r.stdout, "over the limit of 1 bytes") {
		t.Fatalf("git config edit.maxFileSize not applied: %d %s", r.code, r.stdout)
	}
	r := runCLI(t, edit, "call", "--root", dir, "--max-file-size", "1000", "--require-read=false", "Edit")
	if r.code != 0 || gittest.ReadFile(t, dir, "f.txt") != "beta\n" {
		t.Fatalf("flags did not override git config: %d %s", r.code, r.stdout)
	}
}
