package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// trailersOf is, per commit of HEAD..ref (oldest first), its Edit-Model
// and Edit-Agent trailers as "model|agent".
func trailersOf(t *testing.T, dir, ref string) string {
	t.Helper()
	return gittest.Git(t, dir, "log", "--reverse", "--format=%(trailers:key=Edit-Model,valueonly,separator=)|%(trailers:key=Edit-Agent,valueonly,separator=)", "HEAD.."+ref)
}

// Issue 26: the model and agent program are recorded as Edit-Model and
// Edit-Agent from each source an MCP server has: the request's _meta, the
// server's --model/--agent, and the client's name and version from
// initialize (the agent only, when nothing else names it). A bad _meta
// value is the call's refusal and writes nothing.
func TestOriginFromMCP(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\nb\nc\nd\n"})
	connectAs := func(session string, model, agent string, client *mcp.Implementation) *mcp.ClientSession {
		t.Helper()
		e, err := ops.Open(ops.Options{Root: dir, Session: session})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		s, err := newMCPServer(e, nil, &ops.Observer{})
		if err != nil {
			t.Fatal(err)
		}
		s.Origin.Model, s.Origin.Agent = model, agent
		st, ct := mcp.NewInMemoryTransports()
		if _, err := s.Connect(context.Background(), st, nil); err != nil {
			t.Fatal(err)
		}
		cs, err := mcp.NewClient(client, nil).Connect(context.Background(), ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	edit := func(cs *mcp.ClientSession, old, new string, meta mcp.Meta) (string, bool) {
		t.Helper()
		text, _, isErr := callMeta(t, cs, "text_editor", map[string]any{"command": "str_replace", "path": "a.txt", "old_str": old, "new_str": new}, meta)
		return text, isErr
	}
	// Flags give the model; the client's info gives the agent.
	cs := connectAs("flags", "flag-model", "", &mcp.Implementation{Name: "claude-code", Version: "2.1.3"})
	if text, isErr := edit(cs, "a\n", "A\n", nil); isErr {
		t.Fatal(text)
	}
	// _meta wins over both, field by field.
	if text, isErr := edit(cs, "b\n", "B\n", mcp.Meta{metaModel: "meta-model"}); isErr {
		t.Fatal(text)
	}
	if text, isErr := edit(cs, "c\n", "C\n", mcp.Meta{metaModel: "meta-model", metaAgent: "meta-agent 1"}); isErr {
		t.Fatal(text)
	}
	// A bad value refuses, saying what is wrong; nothing is written.
	before := gittest.Git(t, dir, "rev-parse", "refs/edits/flags")
	text, isErr := edit(cs, "d\n", "D\n", mcp.Meta{metaModel: "two\nlines"})
	if !isErr || !strings.Contains(text, "model") || !strings.Contains(text, "control character") {
		t.Fatalf("bad _meta model: isErr=%v %q", isErr, text)
	}
	if after := gittest.Git(t, dir, "rev-parse", "refs/edits/flags"); after != before {
		t.Fatal("a refused call moved the session ref")
	}
	if got := gittest.ReadFile(t, dir, "a.txt"); got != "A\nB\nC\nd\n" {
		t.Fatalf("a.txt = %q", got)
	}
	if got, want := trailersOf(t, dir, "refs/edits/flags"), "flag-model|claude-code 2.1.3\nmeta-model|claude-code 2.1.3\nmeta-model|meta-agent 1\n"; got != want {
		t.Fatalf("trailers:\n%s\nwant:\n%s", got, want)
	}
	// With nothing given but the client, only Edit-Agent; a client whose
	// name cannot be a trailer is left out rather than refusing the call.
	cs = connectAs("client", "", "", &mcp.Implementation{Name: "bad\x01client", Version: "1"})
	if text, isErr := edit(cs, "d\n", "D\n", nil); isErr {
		t.Fatal(text)
	}
	// (The session's first commit is the sync of the other session's
	// edits on disk; its edit is the last.)
	if got := trailersOf(t, dir, "refs/edits/client"); got != "|\n|\n" || !strings.HasPrefix(gittest.Git(t, dir, "log", "-1", "--format=%s", "refs/edits/client"), "text_editor") {
		t.Fatalf("trailers of a bad client name: %q", got)
	}
}

// Issue 26: `call --model` and GIT_EDIT_AGENT record Edit-Model and
// Edit-Agent; `log --json` and `show --json` show them; a bad --model is
// refused before anything runs.
func TestOriginFromCallFlagAndEnv(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	args := `{"command":"str_replace","path":"a.txt","old_str":"a","new_str":"A"}`
	if r := gitEdit(t, dir, args, []string{"GIT_EDIT_AGENT=codex 0.50.0"}, "call", "--session", "s", "--model", "gpt-5-codex", "text_editor"); r.code != 0 {
		t.Fatalf("call: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if got := trailersOf(t, dir, "refs/edits/s"); got != "gpt-5-codex|codex 0.50.0\n" {
		t.Fatalf("trailers %q", got)
	}
	r := gitEdit(t, dir, "", nil, "log", "--session", "s", "--json")
	var entries []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &entries); err != nil || len(entries) != 1 {
		t.Fatalf("log --json: %v %s", err, r.stdout)
	}
	if entries[0]["model"] != "gpt-5-codex" || entries[0]["agent"] != "codex 0.50.0" {
		t.Fatalf("log --json entry: %v", entries[0])
	}
	r = gitEdit(t, dir, "", nil, "show", "--session", "s", "--json", entries[0]["commit"].(string))
	if r.code != 0 || !strings.Contains(r.stdout, `"model": "gpt-5-codex"`) || !strings.Contains(r.stdout, `"agent": "codex 0.50.0"`) {
		t.Fatalf("show --json: %d %s %s", r.code, r.stdout, r.stderr)
	}
	tip := gittest.Git(t, dir, "rev-parse", "refs/edits/s")
	r = gitEdit(t, dir, `{"command":"str_replace","path":"a.txt","old_str":"A","new_str":"B"}`, nil, "call", "--session", "s", "--model", " padded", "text_editor")
	if r.code == 0 || !strings.Contains(r.stderr, "--model/--agent") || !strings.Contains(r.stderr, "space") {
		t.Fatalf("bad --model: %d %s", r.code, r.stderr)
	}
	if gittest.Git(t, dir, "rev-parse", "refs/edits/s") != tip || gittest.ReadFile(t, dir, "a.txt") != "A\n" {
		t.Fatal("a refused call changed something")
	}
}

// Issue 26: `record --hook-input` takes the model from the hook's input
// (Codex's hooks send a top-level "model"); --model wins over it; a model
// that cannot be a trailer is left out and the change still recorded.
func TestOriginFromHookInput(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	f := notesFixture{t, dir}
	for i, tc := range []struct {
		model string
		flags []string
		want  string
	}{
		{"gpt-5-codex", nil, "gpt-5-codex|\n"},
		{"gpt-5-codex", []string{"--model", "flag-model", "--agent", "codex 0.50"}, "flag-model|codex 0.50\n"},
		{"bad\u0001model", nil, "|\n"},
	} {
		f.write("a.txt", strings.Repeat("x\n", i+1))
		in, _ := json.Marshal(map[string]any{"hook_event_name": "PostToolUse", "model": tc.model, "tool_name": "shell", "tool_input": map[string]any{"command": "echo x >> a.txt"}})
		r := gitEdit(t, dir, string(in), nil, append([]string{"record", "--session", "h", "--hook-input"}, tc.flags...)...)
		if r.code != 0 {
			t.Fatalf("record: %d %s", r.code, r.stderr)
		}
		got := gittest.Git(t, dir, "log", "-1", "--format=%s%n%(trailers:key=Edit-Model,valueonly,separator=)|%(trailers:key=Edit-Agent,valueonly,separator=)", "refs/edits/h")
		if want := "echo x >> a.txt\n" + tc.want; got != want {
			t.Fatalf("case %d: %q, want %q", i, got, want)
		}
	}
}
