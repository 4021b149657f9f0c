package main

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// outsideDir is a directory in no repository, as a host's home directory:
// git's discovery stops at its parent.
func outsideDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// startOutside runs the real binary as a host does, in dir (no
// repository, no --root), connected to client.
func startOutside(t *testing.T, dir string, client *mcp.Client, opts *mcp.ClientSessionOptions, args ...string) (*mcp.ClientSession, *strings.Builder) {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir(t), "git-edit"), append([]string{"mcp", "--log-file", os.DevNull}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(gittest.Env(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
	stderr := &strings.Builder{}
	cmd.Stderr = stderr
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, opts)
	if err != nil {
		t.Fatalf("connect: %v; stderr: %s", err, stderr)
	}
	t.Cleanup(func() { cs.Close(); cmd.Wait() })
	return cs, stderr
}

func fileURI(dir string) string { return (&url.URL{Scheme: "file", Path: dir}).String() }

// A server started outside a repository asks the client for its roots and
// edits in the first that is in a repository, on the protocol versions
// hosts speak today (the server sends roots/list) and on 2026-07-28 (the
// call asks for the roots as an input request); when the client's roots
// change, the next call uses the new first repository.
func TestMCPOutsideRepositoryUsesClientRoots(t *testing.T) {
	for _, version := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			home := outsideDir(t)
			notRepo := outsideDir(t)
			repo1 := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n"})
			repo2 := gittest.NewWithCommit(t, map[string]string{"f.txt": "uno\n"})
			client := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "v0"}, nil)
			client.AddRoots(&mcp.Root{URI: fileURI(notRepo)}, &mcp.Root{URI: fileURI(repo1), Name: "project"})
			cs, stderr := startOutside(t, home, client, &mcp.ClientSessionOptions{ProtocolVersion: version}, "--session", "agent")
			if v := cs.InitializeResult().ProtocolVersion; v != version {
				t.Fatalf("negotiated %s", v)
			}

			text, _, isErr := callTool(t, cs, "text_editor", map[string]any{"command": "str_replace", "path": "f.txt", "old_str": "one", "new_str": "two"})
			if isErr || gittest.ReadFile(t, repo1, "f.txt") != "two\n" {
				t.Fatalf("error=%v %q; f.txt = %q; stderr:\n%s", isErr, text, gittest.ReadFile(t, repo1, "f.txt"), stderr)
			}
			if c := gittest.Git(t, repo1, "rev-list", "--count", "HEAD..refs/edits/agent"); c != "1\n" {
				t.Fatalf("session agent has %s commits", c)
			}
			// The session's file stays in the repository, none in the
			// directory the server started in.
			if entries, _ := os.ReadDir(home); len(entries) != 0 {
				t.Fatalf("the server wrote into its start directory: %v", entries)
			}

			// The repository changes with the client's roots.
			client.RemoveRoots(fileURI(repo1))
			client.AddRoots(&mcp.Root{URI: fileURI(repo2)})
			deadline := time.Now().Add(10 * time.Second)
			for gittest.ReadFile(t, repo2, "f.txt") != "dos\n" {
				if time.Now().After(deadline) {
					t.Fatalf("the server never moved to the new root; stderr:\n%s", stderr)
				}
				// The notification may arrive after the call: a call that
				// still went to repo1 finds no "uno" there and changes nothing.
				callTool(t, cs, "text_editor", map[string]any{"command": "str_replace", "path": "f.txt", "old_str": "uno", "new_str": "dos"})
			}
			if gittest.ReadFile(t, repo1, "f.txt") != "two\n" {
				t.Fatalf("repo1 changed: %q", gittest.ReadFile(t, repo1, "f.txt"))
			}
			// With no root left, calls are refused, never run in the
			// repository the client took away.
			client.RemoveRoots(fileURI(repo2), fileURI(notRepo))
			for {
				text, _, isErr := callTool(t, cs, "text_editor", map[string]any{"command": "str_replace", "path": "f.txt", "old_str": "dos", "new_str": "tres"})
				if isErr && strings.Contains(text, "and the client's list of roots is empty; start the server with") {
					break
				}
				if gittest.ReadFile(t, repo2, "f.txt") != "dos\n" {
					// The notification came after that call; undo in
					// repo2 and try again.
					callTool(t, cs, "text_editor", map[string]any{"command": "undo_edit", "path": "f.txt"})
				}
				if time.Now().After(deadline) {
					t.Fatalf("calls still run after the roots were removed: %s", text)
				}
			}
			cs.Close()
			want := "git-edit mcp: session agent (refs/edits/agent); " + home + " is not in a git repository: each call runs in the first of the client's roots that is in one\n" +
				"git-edit mcp: session agent (refs/edits/agent) in " + repo1 + ", the client's root " + fileURI(repo1) + "\n" +
				"git-edit mcp: session agent (refs/edits/agent) in " + repo2 + ", the client's root " + fileURI(repo2) + "\n"
			deadline = time.Now().Add(5 * time.Second)
			for stderr.String() != want && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if stderr.String() != want {
				t.Fatalf("stderr:\n%s\nwant:\n%s", stderr, want)
			}
			gittest.Fsck(t, repo1)
			gittest.Fsck(t, repo2)
		})
	}
}

// Without a repository to work in, the server keeps running and every call
// is a tool error, in the tool's own shape, that says how to pass --root.
func TestMCPOutsideRepositoryWithoutRootsRefusesEachCall(t *testing.T) {
	home := outsideDir(t)
	notRepo := outsideDir(t)
	how := `; start the server with the arguments mcp --root /path/to/repository ("--root", "${workspaceFolder}" in hosts that expand it), or with the repository as its working directory`
	for _, tc := range []struct {
		name   string
		client *mcp.Client
		why    string
	}{
		{"no roots capability", mcp.NewClient(&mcp.Implementation{Name: "host", Version: "v0"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}}),
			"the client offers no roots to find one in"},
		{"empty roots", mcp.NewClient(&mcp.Implementation{Name: "host", Version: "v0"}, nil),
			"the client's list of roots is empty"},
		{"no root in a repository", func() *mcp.Client {
			c := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "v0"}, nil)
			c.AddRoots(&mcp.Root{URI: fileURI(notRepo)}, &mcp.Root{URI: "https://example.com/x"})
			return c
		}(),
			"none of the client's roots is in one: " + fileURI(notRepo) + ": not inside a git repository: " + notRepo + " (stopped at the ceiling " + filepath.Dir(notRepo) + " from GIT_CEILING_DIRECTORIES; run git init there, or pass --root inside a repository); https://example.com/x: not a file:// URI of a local directory"},
	} {
		for _, version := range []string{"2025-06-18", "2026-07-28"} {
			t.Run(tc.name+" "+version, func(t *testing.T) {
				cs, _ := startOutside(t, home, tc.client, &mcp.ClientSessionOptions{ProtocolVersion: version})
				want := "git-edit mcp started outside a git repository (in " + home + "), and " + tc.why + how
				for _, call := range []struct {
					tool string
					args map[string]any
					text string // the dialect's shape of the refusal
				}{
					{"text_editor", map[string]any{"command": "view", "path": "f.txt"}, want},
					{"Edit", map[string]any{"file_path": "f.txt", "old_string": "a", "new_string": "b"}, "Call refused: " + want},
					{"edit_history", nil, want},
				} {
					text, structured, isErr := callTool(t, cs, call.tool, call.args)
					if !isErr || text != call.text || !strings.Contains(structured, jsonString(want)) {
						t.Errorf("%s: error=%v\n%s\nwant\n%s\nstructured %s", call.tool, isErr, text, call.text, structured)
					}
				}
				if entries, _ := os.ReadDir(home); len(entries) != 0 {
					t.Fatalf("the server wrote into its start directory: %v", entries)
				}
			})
		}
	}
	// The README shows the first message as it is.
	readme, _ := os.ReadFile("../../README.md")
	shown := "git-edit mcp started outside a git repository (in /home/me), and the client offers no roots to find one in" + how
	if !strings.Contains(string(readme), "\n  "+shown+"\n") {
		t.Errorf("README does not show the refusal:\n%s", shown)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}

// A --root that is not in a repository is the person's mistake: the
// server refuses to start, saying so, as before.
func TestMCPRootOutsideRepositoryRefusesToStart(t *testing.T) {
	dir := outsideDir(t)
	cmd := exec.Command(filepath.Join(binDir(t), "git-edit"), "mcp", "--root", dir)
	cmd.Env = append(gittest.Env(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
	cmd.Stdin = strings.NewReader("")
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 1 || err == nil ||
		string(out) != "git-edit: not inside a git repository: "+dir+" (stopped at the ceiling "+filepath.Dir(dir)+" from GIT_CEILING_DIRECTORIES; run git init there, or pass --root inside a repository)\n" {
		t.Fatalf("exit %d: %s", code, out)
	}
}

// The tools' annotations are their registrations' (dialect.Tool): Read
// and edit_history read only; every writing tool may overwrite or remove
// text and is not idempotent; none reaches outside the repository.
func TestMCPToolAnnotations(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "x\n"})
	cs := connect(t, dir, "s", nil, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	type hints struct {
		title                             string
		readOnly, destructive, idempotent bool
	}
	want := map[string]hints{
		"Edit":         {"Edit (replace an exact string)", false, true, false},
		"MultiEdit":    {"MultiEdit (several exact replacements in one file)", false, true, false},
		"Read":         {"Read a file (numbered lines)", true, false, true},
		"apply_patch":  {"Apply patch (add, delete, update, move files)", false, true, false},
		"code_edit":    {"Code edit (SEARCH/REPLACE blocks)", false, true, false},
		"edit":         {"Edit by position or regular expression", false, true, false},
		"edit_history": {"Edit history of this session", true, false, true},
		"edit_lines":   {"Edit lines (a batch of line operations)", false, true, false},
		"text_editor":  {"Text editor (view, write, str_replace, insert, undo)", false, true, false},
		// The history tools write commits (and files) without a write
		// call of their own: undo, redo and rollback may remove text; a
		// checkpoint only adds a commit.
		"edit_undo":       {"Undo an edit or a turn", false, true, false},
		"edit_redo":       {"Redo an undo", false, true, false},
		"edit_rollback":   {"Roll the session back", false, true, false},
		"edit_checkpoint": {"Checkpoint the session", false, false, false},
		"edit_reject":     {"Reject hunks of the session's change", false, true, false},
	}
	if len(res.Tools) != len(want) {
		t.Fatalf("%d tools", len(res.Tools))
	}
	for _, tool := range res.Tools {
		a := tool.Annotations
		w, ok := want[tool.Name]
		if !ok || a == nil || a.DestructiveHint == nil || a.OpenWorldHint == nil {
			t.Fatalf("%s: %+v", tool.Name, a)
		}
		got := hints{a.Title, a.ReadOnlyHint, *a.DestructiveHint, a.IdempotentHint}
		if got != w || tool.Title != w.title || *a.OpenWorldHint {
			t.Errorf("%s: title %q, annotations %+v (destructive %v, open world %v), want %+v", tool.Name, tool.Title, *a, *a.DestructiveHint, *a.OpenWorldHint, w)
		}
	}
	// One place per tool: the hints are the registration's, and a tool
	// without a write call that does not declare Writes is read-only.
	for _, tool := range ops.Registry() {
		w := want[tool.Name]
		if tool.ReadOnly() != (tool.WriteCall == nil && !tool.Writes) || w.readOnly != tool.ReadOnly() || w.destructive != tool.Destructive || w.idempotent != tool.Idempotent || w.title != tool.Title {
			t.Errorf("%s: registration %q readOnly %v destructive %v idempotent %v", tool.Name, tool.Title, tool.ReadOnly(), tool.Destructive, tool.Idempotent)
		}
	}
	// git-edit tools --format mcp prints the same.
	r := runCLI(t, "", "tools", "--tools", "Read")
	if r.code != 0 || !strings.Contains(r.stdout, `"annotations": {
        "title": "Read a file (numbered lines)",
        "readOnlyHint": true,
        "destructiveHint": false,
        "idempotentHint": true,
        "openWorldHint": false
      }`) {
		t.Fatalf("%d %s %s", r.code, r.stdout, r.stderr)
	}
}

// The server's instructions say that every edit is recorded on the
// session ref and how to look back and undo, naming only offered tools.
func TestMCPInstructions(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "x\n"})
	for _, tc := range []struct {
		tools []string
		want  string
	}{
		{nil, `git-edit records every change these tools make as a git commit on the hidden ref refs/edits/s (this server's session), apart from the branches, index and HEAD, so every edit can be reviewed and undone. edit_history lists the session's edits (newest first), shows one edit's diff ("commit") or the session's net change ("diff": true). text_editor's undo_edit command reverts the last edit of a file. edit_undo takes back one edit, a file's last edit or a whole turn, keeping later changes; edit_redo re-applies an undo; edit_rollback returns to an edit, a checkpoint (edit_checkpoint) or the end of a turn; "dry_run": true shows the diff first. Give each editing call the current turn (the person's prompt) as "turn", unless the host sends it in _meta as "git-edit/turn", so that a turn can be reviewed and undone whole. The person reviews and reverts with git edit log, git edit diff, git edit undo PATH and git edit rollback, each with --session s. Change files through these tools rather than other file-writing tools: a change made another way is recorded only later, as a sync commit that does not say which tool made it or why.`},
		{[]string{"Read", "Edit"}, `git-edit records every change these tools make as a git commit on the hidden ref refs/edits/s (this server's session), apart from the branches, index and HEAD, so every edit can be reviewed and undone. The person reviews and reverts with git edit log, git edit diff, git edit undo PATH and git edit rollback, each with --session s. Change files through these tools rather than other file-writing tools: a change made another way is recorded only later, as a sync commit that does not say which tool made it or why.`},
	} {
		cs := connect(t, dir, "s", tc.tools, nil)
		if got := cs.InitializeResult().Instructions; got != tc.want {
			t.Errorf("tools %v: instructions\n%s\nwant\n%s", tc.tools, got, tc.want)
		}
	}
	// Started outside a repository, the server says the same.
	home := outsideDir(t)
	s, err := newRootsMCPServer(ops.Options{Session: "mcp-x"}, home, nil, &ops.Observer{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	if _, err := s.Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := cs.InitializeResult().Instructions; !strings.Contains(got, "refs/edits/mcp-x (this server's session)") || !regexp.MustCompile(`each with --session mcp-x\.`).MatchString(got) {
		t.Fatalf("instructions: %s", got)
	}
}

// Every host configuration the README shows starts a server that edits the
// project, started as a host would: in a directory outside the repository,
// with its arguments (${workspaceFolder} expanded as VS Code does) and a
// client that offers the project as its root. Every JSON block of the
// section is valid JSON.
func TestReadmeClientConfigurations(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(raw), "### Client configuration\n")
	section, _, _ = strings.Cut(section, "\n### ")
	type config struct {
		host string
		args []string
	}
	var configs []config
	for _, m := range regexp.MustCompile("(?s)```(json|toml|sh)\n(.*?)```").FindAllStringSubmatch(section, -1) {
		switch m[1] {
		case "json":
			var v map[string]map[string]json.RawMessage
			if err := json.Unmarshal([]byte(m[2]), &v); err != nil {
				t.Fatalf("README JSON does not parse: %v\n%s", err, m[2])
			}
			for _, key := range []string{"mcpServers", "servers"} {
				if s, ok := v[key]["git-edit"]; ok {
					var server struct {
						Command string   `json:"command"`
						Args    []string `json:"args"`
					}
					json.Unmarshal(s, &server)
					if server.Command != "git-edit" {
						t.Fatalf("command %q", server.Command)
					}
					configs = append(configs, config{key, server.Args})
				}
			}
		case "toml":
			a := regexp.MustCompile(`(?m)^command = "git-edit"\nargs = (\[.*\])$`).FindStringSubmatch(m[2])
			var args []string
			if a == nil || json.Unmarshal([]byte(a[1]), &args) != nil {
				t.Fatalf("README TOML: %s", m[2])
			}
			configs = append(configs, config{"toml", args})
		case "sh":
			_, cmdline, ok := strings.Cut(strings.TrimSpace(m[2]), " -- git-edit ")
			if !ok {
				t.Fatalf("README sh: %s", m[2])
			}
			configs = append(configs, config{"claude", strings.Fields(cmdline)})
		}
	}
	if len(configs) != 5 {
		t.Fatalf("%d configurations in the README: %v", len(configs), configs)
	}
	for _, c := range configs {
		t.Run(c.host+" "+strings.Join(c.args, " "), func(t *testing.T) {
			home := outsideDir(t)
			project := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n"})
			args := make([]string, len(c.args))
			for i, a := range c.args {
				args[i] = strings.ReplaceAll(a, "${workspaceFolder}", project)
			}
			if args[0] != "mcp" {
				t.Fatalf("args %v", args)
			}
			client := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "v0"}, nil)
			client.AddRoots(&mcp.Root{URI: fileURI(project)})
			cs, stderr := startOutside(t, home, client, nil, args[1:]...)
			if text, _, isErr := callTool(t, cs, "Read", map[string]any{"file_path": "f.txt"}); isErr {
				t.Fatalf("Read: %s; stderr: %s", text, stderr)
			}
			if text, _, isErr := callTool(t, cs, "Edit", map[string]any{"file_path": "f.txt", "old_string": "one", "new_string": "two"}); isErr {
				t.Fatalf("Edit: %s; stderr: %s", text, stderr)
			}
			if gittest.ReadFile(t, project, "f.txt") != "two\n" {
				t.Fatalf("f.txt = %q", gittest.ReadFile(t, project, "f.txt"))
			}
			if refs := gittest.Git(t, project, "for-each-ref", "--format=%(refname)", "refs/edits/"); !regexp.MustCompile(`^refs/edits/mcp-\d{8}-\d{6}-[0-9a-f]{4}\n$`).MatchString(refs) {
				t.Fatalf("session refs: %q", refs)
			}
		})
	}
}
