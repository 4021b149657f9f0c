package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect starts a server on dir, in process, and returns a client session.
func connect(t *testing.T, dir, session string, tools []string, obs *ops.Observer) *mcp.ClientSession {
	t.Helper()
	e, err := ops.Open(ops.Options{Root: dir, Session: session})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	if obs == nil {
		obs = &ops.Observer{}
	}
	server, err := newMCPServer(e, tools, obs)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := server.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// callTool calls a tool and returns its text, its structured result (as
// JSON) and whether it was a tool error.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args any) (text string, structured string, isError bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v", name, err)
	}
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += tc.Text
		}
	}
	b, _ := json.Marshal(res.StructuredContent)
	return text, string(b), res.IsError
}

func TestMCPListsEveryToolWithItsSchema(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "x\n"})
	cs := connect(t, dir, "s", nil, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defs, _ := ops.Definitions()
	if len(res.Tools) != len(defs) {
		t.Fatalf("%d tools listed, %d defined", len(res.Tools), len(defs))
	}
	byName := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		byName[tool.Name] = tool
	}
	for _, d := range defs {
		tool := byName[d.Name]
		if tool == nil {
			t.Fatalf("%s not listed", d.Name)
		}
		got, _ := json.Marshal(tool.InputSchema)
		var a, b any
		json.Unmarshal(got, &a)
		json.Unmarshal(d.InputSchema, &b)
		ga, _ := json.Marshal(a)
		gb, _ := json.Marshal(b)
		if string(ga) != string(gb) || tool.Description != d.Description {
			t.Errorf("%s: the client sees another schema or description:\n%s\n%s", d.Name, ga, gb)
		}
	}
	// --tools offers a subset, in the order given.
	sub := connect(t, dir, "s", []string{"Read", "Edit"}, nil)
	res, err = sub.ListTools(context.Background(), nil)
	if err != nil || len(res.Tools) != 2 {
		t.Fatalf("subset: %v %v", res, err)
	}
	names := []string{res.Tools[0].Name, res.Tools[1].Name}
	sort.Strings(names)
	if strings.Join(names, ",") != "Edit,Read" {
		t.Fatalf("subset lists %v", names)
	}
	if _, err := newMCPServer(nil, []string{"Edit", "nope"}, &ops.Observer{}); err == nil || !strings.Contains(err.Error(), `unknown tool "nope"`) {
		t.Fatalf("unknown tool in --tools: %v", err)
	}
}

// Every tool once with good arguments and once with bad ones: good calls
// change files and add commits as their dialect says; bad ones are tool
// errors that change nothing and say what to do.
func TestMCPCallsEveryTool(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "alpha\nbeta\n", "b.py": "def f():\n    return 1\n", "unread.txt": "gamma\n"})
	cs := connect(t, dir, "s", nil, nil)
	good := []struct {
		tool     string
		args     any
		file     string
		want     string // file content after
		textHas  string
		commitBy string // Edit-Tool of the commit it adds ("": none)
	}{
		{"text_editor", map[string]any{"command": "view", "path": "a.txt"}, "a.txt", "alpha\nbeta\n", "```text\nalpha\nbeta\n```", ""},
		{"text_editor", map[string]any{"command": "str_replace", "path": "a.txt", "old_str": "alpha", "new_str": "ALPHA"}, "a.txt", "ALPHA\nbeta\n", "+ALPHA", "text_editor.str_replace"},
		{"edit", map[string]any{"command": "insert", "arguments": map[string]any{"file_path": "a.txt", "content": "> ", "position": map[string]any{"line": 2, "column": 1}}}, "a.txt", "ALPHA\n> beta\n", "Content inserted successfully.", "edit.insert"},
		{"edit_lines", map[string]any{"path": "a.txt", "operations": []any{map[string]any{"op": "insert", "afterLine": 2, "content": []string{"gamma"}}}}, "a.txt", "ALPHA\n> beta\ngamma\n", `"linesChanged":1`, "edit_lines"},
		{"Read", map[string]any{"file_path": "b.py"}, "b.py", "def f():\n    return 1\n", "     1\tdef f():", ""},
		{"Edit", map[string]any{"file_path": "b.py", "old_string": "return 1", "new_string": "return 2"}, "b.py", "def f():\n    return 2\n", "Replaced 1 occurrence", "Edit"},
		{"MultiEdit", map[string]any{"file_path": "b.py", "edits": []any{map[string]any{"old_string": "f()", "new_string": "g()"}, map[string]any{"old_string": "2", "new_string": "3"}}}, "b.py", "def g():\n    return 3\n", "Applied the edits", "MultiEdit"},
		{"code_edit", map[string]any{"file_path": "b.py", "search": "return 3\n", "replace": "return 4\n"}, "b.py", "def g():\n    return 4\n", "indentation", "code_edit"},
		{"edit_history", map[string]any{"n": 3}, "b.py", "def g():\n    return 4\n", "Session s (refs/edits/s), newest first:", ""},
	}
	for _, tc := range good {
		tip := gittest.Rev(t, dir, "refs/edits/s")
		text, structured, isErr := callTool(t, cs, tc.tool, tc.args)
		if isErr || !strings.Contains(text, tc.textHas) || structured == "null" {
			t.Fatalf("%s: error=%v text %q structured %s", tc.tool, isErr, text, structured)
		}
		if got := gittest.ReadFile(t, dir, tc.file); got != tc.want {
			t.Fatalf("%s: %s = %q, want %q", tc.tool, tc.file, got, tc.want)
		}
		newTip := gittest.Rev(t, dir, "refs/edits/s")
		if tc.commitBy == "" && newTip != tip {
			t.Fatalf("%s added a commit", tc.tool)
		}
		if tc.commitBy != "" {
			if by := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%(trailers:key=Edit-Tool,valueonly)", "refs/edits/s")); newTip == tip || by != tc.commitBy {
				t.Fatalf("%s: commit by %q", tc.tool, by)
			}
		}
	}
	bad := []struct {
		tool    string
		args    any
		textHas string
	}{
		{"text_editor", map[string]any{"command": "str_replace", "path": "a.txt", "old_str": "zeta", "new_str": "x"}, "old_str not found in a.txt; view the file and copy the exact text"},
		{"edit", map[string]any{"command": "insert", "arguments": map[string]any{"file_path": "a.txt", "content": "x", "position": map[string]any{"offset": 999}}}, "offset 999 is past the end of a.txt"},
		{"edit_lines", map[string]any{"path": "a.txt", "operations": []any{}}, "no operations provided"},
		{"Read", map[string]any{"file_path": "missing.txt"}, "File not found"},
		// The session never read or edited this one.
		{"Edit", map[string]any{"file_path": "unread.txt", "old_string": "gamma", "new_string": "delta"}, "File must be read before editing"},
		{"MultiEdit", map[string]any{"file_path": "b.py", "edits": "none"}, `"edits" must be an array`},
		{"code_edit", map[string]any{"file_path": "b.py", "search": "return 99\n", "replace": "x\n"}, "Did you mean"},
		{"edit_history", map[string]any{"commit": "ffff"}, `no such edit "ffff"`},
		{"text_editor", nil, `missing "command"; set it to one of view, write, create, str_replace, insert or undo_edit`},
	}
	for _, tc := range bad {
		tip := gittest.Rev(t, dir, "refs/edits/s")
		a, b := gittest.ReadFile(t, dir, "a.txt"), gittest.ReadFile(t, dir, "b.py")
		text, _, isErr := callTool(t, cs, tc.tool, tc.args)
		if !isErr || !strings.Contains(text, tc.textHas) {
			t.Fatalf("%s with bad arguments: error=%v text %q, want it to contain %q", tc.tool, isErr, text, tc.textHas)
		}
		if gittest.Rev(t, dir, "refs/edits/s") != tip || gittest.ReadFile(t, dir, "a.txt") != a || gittest.ReadFile(t, dir, "b.py") != b {
			t.Fatalf("%s: a refused call changed something", tc.tool)
		}
	}
	gittest.Fsck(t, dir)
}

// Every tool of the registry, derived from it: a writing tool's own write
// call (Tool.WriteCall) changes its file and records one commit by that
// tool; a read-only tool's call records nothing; an unknown field is
// a tool error that changes nothing. A new dialect is covered here without
// an edit.
func TestMCPCallsEveryRegisteredTool(t *testing.T) {
	files := map[string]string{}
	for _, tool := range ops.Registry() {
		files["w_"+tool.Name+".txt"] = "old\n"
	}
	dir := gittest.NewWithCommit(t, files)
	gittest.Git(t, dir, "config", "edit.requireRead", "false")
	cs := connect(t, dir, "s", nil, nil)
	for _, tool := range ops.Registry() {
		file := "w_" + tool.Name + ".txt"
		tip := gittest.Rev(t, dir, "refs/edits/s")
		if text, _, isErr := callTool(t, cs, tool.Name, map[string]any{"zzz_unknown": 1}); !isErr || text == "" || gittest.Rev(t, dir, "refs/edits/s") != tip {
			t.Fatalf("%s with an unknown field: error=%v %q", tool.Name, isErr, text)
		}
		if tool.WriteCall == nil {
			if text, _, _ := callTool(t, cs, tool.Name, map[string]any{"file_path": file, "path": file}); gittest.Rev(t, dir, "refs/edits/s") != tip {
				t.Fatalf("read-only %s moved the session: %q", tool.Name, text)
			}
			continue
		}
		text, structured, isErr := callTool(t, cs, tool.Name, tool.WriteCall(file, "old", "new"))
		if isErr || structured == "null" || !strings.Contains(gittest.ReadFile(t, dir, file), "new") {
			t.Fatalf("%s: error=%v %q; %s = %q", tool.Name, isErr, text, file, gittest.ReadFile(t, dir, file))
		}
		by := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%(trailers:key=Edit-Tool,valueonly)", "refs/edits/s"))
		if gittest.Rev(t, dir, "refs/edits/s") == tip || !strings.HasPrefix(by, tool.Name) {
			t.Fatalf("%s: commit by %q", tool.Name, by)
		}
	}
	gittest.Fsck(t, dir)
}

// 20 calls at once on one file: none lost, 20 commits.
func TestMCPConcurrentCallsLoseNothing(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"log.txt": "start\n"})
	cs := connect(t, dir, "s", nil, nil)
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "text_editor",
				Arguments: map[string]any{"command": "insert", "path": "log.txt", "insert_line": 1, "new_str": fmt.Sprintf("line %02d", i)}})
			if err != nil || res.IsError {
				errs <- fmt.Sprint(err, res)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	content := gittest.ReadFile(t, dir, "log.txt")
	for i := range n {
		if !strings.Contains(content, fmt.Sprintf("line %02d\n", i)) {
			t.Fatalf("line %02d lost:\n%s", i, content)
		}
	}
	if c := gittest.Git(t, dir, "rev-list", "--count", "HEAD..refs/edits/s"); c != "20\n" {
		t.Fatalf("%s commits", c)
	}
	gittest.Fsck(t, dir)
}

// The server as users run it: a subprocess over stdio, its own session,
// logs as seed 001 shows them, and an external `git gc` between calls.
func TestMCPSubprocessOverStdio(t *testing.T) {
	bin := binDir(t)
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n"})
	logs := t.TempDir()
	cmd := exec.Command(filepath.Join(bin, "git-edit"), "mcp", "--root", dir,
		"--log-file", filepath.Join(logs, "server.log"), "--agent-log", filepath.Join(logs, "agent.log"))
	cmd.Env = gittest.Env()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	listed, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defs, _ := ops.Definitions()
	if len(listed.Tools) != len(defs) {
		t.Fatalf("over stdio: %d tools listed, %d defined", len(listed.Tools), len(defs))
	}
	for i, tool := range listed.Tools {
		var want any
		json.Unmarshal(defs[i].InputSchema, &want)
		a, _ := json.Marshal(tool.InputSchema)
		b, _ := json.Marshal(want)
		if tool.Name != defs[i].Name || string(a) != string(b) {
			t.Fatalf("over stdio, tool %d is %s with schema %s", i, tool.Name, a)
		}
	}
	if _, _, isErr := callTool(t, cs, "text_editor", map[string]any{"command": "str_replace", "path": "f.txt", "old_str": "one", "new_str": "two"}); isErr {
		t.Fatal("first call failed")
	}
	gittest.Git(t, dir, "gc", "-q", "--prune=now")
	if text, _, isErr := callTool(t, cs, "text_editor", map[string]any{"command": "str_replace", "path": "f.txt", "old_str": "two", "new_str": "three"}); isErr {
		t.Fatalf("call after git gc failed: %s", text)
	}
	text, structured, _ := callTool(t, cs, "edit_history", nil)
	cs.Close()
	cmd.Wait()

	if gittest.ReadFile(t, dir, "f.txt") != "three\n" {
		t.Fatalf("file = %q", gittest.ReadFile(t, dir, "f.txt"))
	}
	// A new session per process, named readably, announced on stderr and
	// reported by edit_history.
	m := regexp.MustCompile(`git-edit mcp: session (mcp-\d{8}-\d{6}-[0-9a-f]{4}) \(refs/edits/mcp-`).FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("stderr does not announce the session: %q", stderr.String())
	}
	if c := gittest.Git(t, dir, "rev-list", "--count", "HEAD..refs/edits/"+m[1]); c != "2\n" {
		t.Fatalf("session %s has %s commits", m[1], c)
	}
	if !strings.Contains(text, "Session "+m[1]) || !strings.Contains(structured, `"session":"`+m[1]+`"`) {
		t.Fatalf("edit_history does not report the session: %s %s", text, structured)
	}
	// Logs: INFO start/complete lines, and TOOL_CALL/TOOL_RESULT records.
	serverLog, _ := os.ReadFile(filepath.Join(logs, "server.log"))
	if !regexp.MustCompile(`level=INFO msg="\[tool\] Execution started" tool=text_editor id=mcp-0001\n`).Match(serverLog) ||
		!regexp.MustCompile(`level=INFO msg="\[tool\] Execution completed" tool=text_editor id=mcp-0001 duration_ms=\d+ success=true\n`).Match(serverLog) {
		t.Fatalf("server log:\n%s", serverLog)
	}
	agentLog, _ := os.ReadFile(filepath.Join(logs, "agent.log"))
	record := regexp.MustCompile(`(?s)^=== \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z TOOL_CALL \[text_editor\] id=mcp-0001 ===\n\{"command":"str_replace",.*?\}\n\n=== \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z TOOL_RESULT \[mcp-0001\] success ===\n\{"status":"success",.*\}\n\n`)
	if !record.Match(agentLog) {
		t.Fatalf("agent log:\n%s", agentLog)
	}
	gittest.Fsck(t, dir)
}

// `call` logs the same way when asked (--verbose), with the caller's id.
func TestCallLogsLikeTheServer(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n"})
	agent := filepath.Join(t.TempDir(), "agent.log")
	r := runCLI(t, `{"command":"view","path":"f.txt"}`, "call", "--root", dir, "--verbose", "--id", "toolu_123", "--agent-log", agent, "text_editor")
	if r.code != 0 || !regexp.MustCompile(`msg="\[tool\] Execution completed" tool=text_editor id=toolu_123 duration_ms=\d+ success=true`).MatchString(r.stderr) {
		t.Fatalf("%d %s", r.code, r.stderr)
	}
	b, _ := os.ReadFile(agent)
	if !regexp.MustCompile(`TOOL_CALL \[text_editor\] id=toolu_123 ===\n\{"command":"view","path":"f.txt"\}\n\n=== .* TOOL_RESULT \[toolu_123\] success ===\n`).Match(b) {
		t.Fatalf("agent log:\n%s", b)
	}
}

func TestToolsFormats(t *testing.T) {
	for format, check := range map[string]string{
		"mcp":       `"tools": [`,
		"openai":    `"type": "function"`,
		"anthropic": `"input_schema": {`,
	} {
		r := runCLI(t, "", "tools", "--format", format, "--tools", "Edit,Read")
		if r.code != 0 || !strings.Contains(r.stdout, check) || !strings.Contains(r.stdout, `"name": "Read"`) || strings.Contains(r.stdout, `"name": "edit_lines"`) {
			t.Fatalf("%s: %d %s %s", format, r.code, r.stdout, r.stderr)
		}
	}
	if r := runCLI(t, "", "tools", "--format", "yaml"); r.code != 2 || !strings.Contains(r.stderr, `--format "yaml": use mcp, openai or anthropic`) {
		t.Fatalf("%d %s", r.code, r.stderr)
	}
}
