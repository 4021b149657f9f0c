package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// newMeta is the _meta triple every request of the 2026-07-28 protocol
// carries, as Claude Code 2.1.x sends it.
const newMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"claude-code","version":"2.1.0"},"io.modelcontextprotocol/clientCapabilities":{}}`

// wireMsg is any line on the server's stdout, id and params kept as written.
type wireMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	} `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
	line   string
}

func (m wireMsg) isResponse() bool { return m.Method == "" && len(m.ID) > 0 }

// nextMsg is the server's next line, whatever it is.
func (p *rawPeer) nextMsg() wireMsg {
	p.t.Helper()
	select {
	case line, ok := <-p.lines:
		if !ok {
			p.t.Fatal("the server closed stdout")
		}
		var m wireMsg
		if err := json.Unmarshal(line, &m); err != nil {
			p.t.Fatalf("not JSON: %q", line)
		}
		m.line = string(line)
		return m
	case <-time.After(20 * time.Second):
		p.t.Fatal("no line within 20s")
	}
	return wireMsg{}
}

// rest closes stdin and returns every line the server writes until it
// exits, requiring a clean exit.
func (p *rawPeer) rest() []wireMsg {
	p.t.Helper()
	p.stdin.Close()
	var out []wireMsg
	timeout := time.After(30 * time.Second)
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				<-p.done
				if code := p.status(); code != 0 {
					p.t.Fatalf("the server exited with status %d", code)
				}
				return out
			}
			var m wireMsg
			if err := json.Unmarshal(line, &m); err != nil {
				p.t.Fatalf("not JSON: %q", line)
			}
			m.line = string(line)
			out = append(out, m)
		case <-timeout:
			p.t.Fatal("the server did not end within 30s of stdin closing")
		}
	}
}

// Claude Code 2.1.x opens with server/discover, then subscriptions/listen,
// and waits for notifications/subscriptions/acknowledged naming its listen
// request by the id it sent. The acknowledgement carries that id exactly
// (a number, a string, one with escapes), never the guard's token; once
// the client cancels the listen, no reply to it is ever sent.
func TestAttackMCPListenAcknowledgedUnderTheClientsID(t *testing.T) {
	for _, tr := range mcpTransports {
		for _, id := range []string{`2`, `"listen-1"`, `"\u003c2\u003e"`, `1e3`} {
			t.Run(tr.name+"/"+id, func(t *testing.T) {
				dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n"})
				p := tr.start(t, dir)
				p.send(`{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{` + newMeta + `}}`)
				if m := p.nextMsg(); string(m.ID) != `"d"` || m.Error != nil {
					t.Fatalf("discover: %s", m.line)
				}
				p.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"subscriptions/listen","params":{` + newMeta + `,"notifications":{"toolsListChanged":true}}}`)
				ack := p.nextMsg()
				if ack.Method != "notifications/subscriptions/acknowledged" {
					t.Fatalf("first line after listen: %s", ack.line)
				}
				if got := string(ack.Params.Meta["io.modelcontextprotocol/subscriptionId"]); got != id {
					t.Fatalf("the acknowledgement names subscription %s, the listen request was %s: %s", got, id, ack.line)
				}
				if strings.Contains(ack.line, tokenPrefix) {
					t.Fatalf("a token leaked: %s", ack.line)
				}
				p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `,"reason":"client shutting down"}}`)
				p.send(`{"jsonrpc":"2.0","id":"after","method":"tools/list","params":{` + newMeta + `}}`)
				sawAfter := false
				for _, m := range p.rest() {
					if strings.Contains(m.line, tokenPrefix) {
						t.Fatalf("a token leaked: %s", m.line)
					}
					if m.isResponse() && string(m.ID) == id {
						t.Fatalf("the cancelled listen request was answered: %s", m.line)
					}
					sawAfter = sawAfter || m.isResponse() && string(m.ID) == `"after"` && m.Error == nil
				}
				if !sawAfter {
					t.Fatal("tools/list after the cancellation was not answered")
				}
			})
		}
	}
}

// The same through the SDK's own client over the real binary, on the
// protocol it speaks by default (2026-07-28): the acknowledgement it
// receives names the listen request it sent, and closing the session
// (which cancels the listen) draws no reply to it.
func TestMCPListenThroughTheSDKClient(t *testing.T) {
	bin := binDir(t)
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n"})
	cmd := exec.Command(filepath.Join(bin, "git-edit"), "mcp", "--root", dir, "--log-file", filepath.Join(t.TempDir(), "log"))
	cmd.Env = gittest.Env()
	var wire syncBuffer
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {},
	})
	ctx := context.Background()
	cs, err := client.Connect(ctx, &mcp.LoggingTransport{Transport: &mcp.CommandTransport{Command: cmd}, Writer: &wire}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := cs.InitializeResult().ProtocolVersion; v < "2026-07-28" {
		t.Fatalf("negotiated %s; the test needs the protocol with subscriptions/listen", v)
	}
	if _, _, isErr := callTool(t, cs, "text_editor", map[string]any{"command": "view", "path": "f.txt"}); isErr {
		t.Fatal("view failed")
	}
	cs.Close()
	cmd.Wait()

	var listenID, ackID json.RawMessage
	var lines []string
	for _, l := range strings.Split(wire.String(), "\n") {
		dirn, msg, ok := strings.Cut(l, ": ")
		if !ok || (dirn != "read" && dirn != "write") {
			continue
		}
		lines = append(lines, l)
		var m wireMsg
		if json.Unmarshal([]byte(msg), &m) != nil {
			continue
		}
		switch {
		case dirn == "write" && m.Method == "subscriptions/listen":
			listenID = m.ID
		case dirn == "read" && m.Method == "notifications/subscriptions/acknowledged":
			ackID = m.Params.Meta["io.modelcontextprotocol/subscriptionId"]
		case dirn == "read" && m.isResponse() && listenID != nil && string(m.ID) == string(listenID):
			t.Fatalf("the listen request, cancelled at close, was answered: %s", l)
		}
	}
	if listenID == nil || string(ackID) != string(listenID) {
		t.Fatalf("listen id %s, acknowledged as %s; wire:\n%s", listenID, ackID, strings.Join(lines, "\n"))
	}
}

// syncBuffer is a bytes.Buffer safe for the SDK's concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// inProcessServer runs `git-edit mcp ARGS` in process over pipes, its
// stderr kept, for tests that hold an edit at a pause point.
type inProcessServer struct {
	stdin  *io.PipeWriter
	stdout *io.PipeReader
	stderr *syncBuffer
	code   chan int
}

func startInProcess(t *testing.T, args ...string) *inProcessServer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &inProcessServer{stdin: inW, stdout: outR, stderr: &syncBuffer{}, code: make(chan int, 1)}
	go func() {
		c := run(context.Background(), append([]string{"git-edit", "mcp"}, args...), inR, outW, s.stderr)
		inR.CloseWithError(fmt.Errorf("the server exited with status %d", c))
		outW.Close()
		s.code <- c
	}()
	t.Cleanup(func() {
		inW.Close()
		go io.Copy(io.Discard, outR)
		select {
		case <-s.code:
		case <-time.After(20 * time.Second):
			t.Error("the in-process server did not end after stdin closed")
		}
	})
	return s
}

// A tools/call whose edit is under way when the client cancels it gets no
// reply, as MCP asks; the edit, committed anyway, is told on stderr with
// its commit, so it is never an edit no one hears of.
func TestAttackMCPCancelledCallIsNotAnsweredButTold(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n"})
	reached, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	defer repo.SetPauseHook(func(point, _ string) {
		if point == "files-written" {
			once.Do(func() { close(reached); <-release })
		}
	})()
	s := startInProcess(t, "--root", dir, "--session", "cancel", "--log-file", filepath.Join(t.TempDir(), "log"))
	p := newRawPeer(t, s.stdin, s.stdout)
	p.initialize()
	p.send(`{"jsonrpc":"2.0","id":"edit-1","method":"tools/call","params":{"name":"text_editor","arguments":{"command":"str_replace","path":"f.txt","old_str":"one","new_str":"two"}}}`)
	select {
	case <-reached:
	case <-time.After(20 * time.Second):
		t.Fatal("the edit never reached the pause point")
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"edit-1","reason":"user pressed Esc"}}`)
	// The cancellation is read and passed on before the edit goes on: a
	// ping sent after it is answered while the edit still waits.
	p.send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`)
	if r := p.next(); string(r.ID) != `"p"` {
		t.Fatalf("expected the ping's reply, got %s", r.line)
	}
	close(release)
	p.send(`{"jsonrpc":"2.0","id":"p2","method":"ping"}`)
	for {
		r := p.next()
		if string(r.ID) == `"edit-1"` {
			t.Fatalf("the cancelled call was answered: %s", r.line)
		}
		if string(r.ID) == `"p2"` {
			break
		}
	}
	s.stdin.Close()
	for line := range p.lines {
		if bytes.Contains(line, []byte(`"edit-1"`)) {
			t.Fatalf("the cancelled call was answered: %s", line)
		}
	}
	head := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "refs/edits/cancel"))
	if gittest.ReadFile(t, dir, "f.txt") != "two\n" {
		t.Fatalf("the edit under way was not completed: %q", gittest.ReadFile(t, dir, "f.txt"))
	}
	want := `git-edit mcp: the client cancelled request "edit-1" (tools/call), so its reply is not sent; it completed: The file f.txt has been edited`
	if got := s.stderr.String(); !strings.Contains(got, want) || !strings.Contains(got, "commit "+head) {
		t.Fatalf("stderr does not tell the edit and its commit %s:\n%s", head, got)
	}
	gittest.Fsck(t, dir)
}

// pipeRun is one `printf … | git edit mcp`: the lines written at once,
// stdin closed, stdout read to its end.
func pipeRun(t *testing.T, bin, dir string, lines ...string) (replies map[string]wireMsg, stderr string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "git-edit"), "mcp", "--log-file", filepath.Join(t.TempDir(), "log"))
	cmd.Dir = dir
	cmd.Env = gittest.Env()
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	var errb strings.Builder
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git-edit mcp: %v\n%s", err, errb.String())
	}
	replies = map[string]wireMsg{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m wireMsg
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("not JSON: %q", sc.Text())
		}
		m.line = sc.Text()
		if m.isResponse() {
			replies[string(m.ID)] = m
		}
	}
	return replies, errb.String()
}

// Requests piped into `git edit mcp`, stdin closed right after them: every
// request is answered before the server exits, and the edit it made is one
// it answered.
func TestAttackMCPPipedRequestsAllAnsweredAtEndOfInput(t *testing.T) {
	bin := binDir(t)
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "0\n"})
	runs := 100
	for i := 1; i <= runs; i++ {
		edit := fmt.Sprintf(`{"command":"str_replace","path":"f.txt","old_str":"%d\n","new_str":"%d\n"}`, i-1, i)
		replies, stderr := pipeRun(t, bin, dir,
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"printf","version":"0"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"text_editor","arguments":`+edit+`}}`,
		)
		for _, id := range []string{"1", "2", "3"} {
			if r, ok := replies[id]; !ok || r.Error != nil {
				t.Fatalf("run %d: request %s has no reply (%s); stderr:\n%s", i, id, r.line, stderr)
			}
		}
		var res struct {
			IsError bool `json:"isError"`
		}
		if json.Unmarshal(replies["3"].Result, &res) != nil || res.IsError {
			t.Fatalf("run %d: the edit was refused: %s", i, replies["3"].line)
		}
		if got := gittest.ReadFile(t, dir, "f.txt"); got != fmt.Sprintf("%d\n", i) {
			t.Fatalf("run %d: f.txt = %q", i, got)
		}
	}
	gittest.Fsck(t, dir)
}

// A server started outside a repository asks an older client for its
// roots at the first call (roots/list). Piped in, the client's input has
// ended before it could answer: the call is still answered (refused,
// saying why), and the server exits instead of waiting for the answer.
func TestAttackMCPRootsAskedAfterEndOfInputNeverHang(t *testing.T) {
	bin := binDir(t)
	home := outsideDir(t)
	cmd := exec.Command(filepath.Join(bin, "git-edit"), "mcp", "--log-file", filepath.Join(t.TempDir(), "log"))
	cmd.Dir = home
	cmd.Env = append(gittest.Env(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(home))
	cmd.Stdin = strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"printf","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"text_editor","arguments":{"command":"view","path":"f.txt"}}}`,
	}, "\n") + "\n")
	var errb strings.Builder
	cmd.Stderr = &errb
	done := make(chan struct{})
	var out []byte
	var err error
	go func() { out, err = cmd.Output(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("the server waited for roots the client can no longer send; stdout:\n%s", out)
	}
	if err != nil {
		t.Fatalf("git-edit mcp: %v\n%s", err, errb.String())
	}
	var call *wireMsg
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var m wireMsg
		if json.Unmarshal([]byte(l), &m) == nil && m.isResponse() && string(m.ID) == "2" {
			m.line = l
			call = &m
		}
	}
	if call == nil {
		t.Fatalf("the call was not answered; stdout:\n%s", out)
	}
	var res struct {
		IsError bool `json:"isError"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal(call.Result, &res) != nil || !res.IsError || len(res.Content) == 0 ||
		!strings.Contains(res.Content[0].Text, "the client closed its input before answering") {
		t.Fatalf("the call's reply does not say why it could not run: %s", call.line)
	}
}

// A host that does not expand ${workspaceFolder} passes it literally. The
// server still starts, says so on stderr, and works in the client's first
// root that is a repository, whether it was started outside any repository
// or in another one; a client without roots is told, at each call, that
// --root was not expanded.
func TestMCPUnexpandedRootUsesTheClientsRoots(t *testing.T) {
	for _, where := range []string{"outside", "in another repository"} {
		t.Run(where, func(t *testing.T) {
			start := outsideDir(t)
			if where != "outside" {
				start = gittest.NewWithCommit(t, map[string]string{"f.txt": "other\n"})
			}
			project := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n"})
			client := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "v0"}, nil)
			client.AddRoots(&mcp.Root{URI: fileURI(project)})
			cs, stderr := startOutside(t, start, client, nil, "--root", "${workspaceFolder}", "--session", "agent")
			text, _, isErr := callTool(t, cs, "text_editor", map[string]any{"command": "str_replace", "path": "f.txt", "old_str": "one", "new_str": "two"})
			if isErr || gittest.ReadFile(t, project, "f.txt") != "two\n" {
				t.Fatalf("error=%v %q; stderr:\n%s", isErr, text, stderr)
			}
			if where != "outside" && gittest.ReadFile(t, start, "f.txt") != "other\n" {
				t.Fatal("the repository the server started in was edited")
			}
			if c := gittest.Git(t, project, "rev-list", "--count", "HEAD..refs/edits/agent"); c != "1\n" {
				t.Fatalf("session agent has %s commits", c)
			}
			if want := "git-edit mcp: --root ${workspaceFolder} was not expanded by the host; using the client's roots\n"; !strings.HasPrefix(stderr.String(), want) {
				t.Fatalf("stderr:\n%s\nwant first:\n%s", stderr, want)
			}
		})
	}
	t.Run("a client without roots", func(t *testing.T) {
		client := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "v0"}, nil)
		cs, _ := startOutside(t, outsideDir(t), client, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"}, "--root", "/work/${project}/src")
		for range 2 {
			text, _, isErr := callTool(t, cs, "text_editor", map[string]any{"command": "view", "path": "f.txt"})
			if !isErr || !strings.Contains(text, "git-edit mcp was started with --root /work/${project}/src, which the host did not expand, and the client") {
				t.Fatalf("error=%v %q", isErr, text)
			}
		}
	})
}

// statelessCall is one call of a stateless client (the MCP Inspector's
// CLI): a new `git-edit mcp ARGS` process in dir for the one tools/call,
// its params' _meta being meta ("" for none). It returns the call's
// result and whether it is a tool error.
func statelessCall(t *testing.T, bin, dir string, args []string, tool, arguments, meta string) (text string, isError bool) {
	t.Helper()
	params := `"name":"` + tool + `","arguments":` + arguments
	if meta != "" {
		params += `,"_meta":` + meta
	}
	cmd := exec.Command(filepath.Join(bin, "git-edit"), append([]string{"mcp", "--log-file", filepath.Join(t.TempDir(), "log")}, args...)...)
	cmd.Dir = dir
	cmd.Env = gittest.Env()
	cmd.Stdin = strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"inspector-cli","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{` + params + `}}`,
	}, "\n") + "\n")
	var errb strings.Builder
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git-edit mcp: %v\n%s", err, errb.String())
	}
	for _, l := range strings.Split(string(out), "\n") {
		var m wireMsg
		if json.Unmarshal([]byte(l), &m) != nil || string(m.ID) != "2" {
			continue
		}
		var res struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		if json.Unmarshal(m.Result, &res) != nil || len(res.Content) == 0 {
			t.Fatalf("the call's reply: %s", l)
		}
		return res.Content[0].Text, res.IsError
	}
	t.Fatalf("no reply to the call; stdout:\n%s\nstderr:\n%s", out, errb.String())
	return "", false
}

// A stateless client starts a server per call. Naming the session, with
// --session or per call in _meta ("git-edit/session"), makes a Read in one
// process count for the Edit in the next, as the README's Read/Edit
// contract says of a session. Unnamed, each process is its own session, so
// the Edit is refused as not read, and the read-only sessions of servers
// that ended leave nothing behind in `git edit sessions`; a named session
// that only read stays listed, as the person named it.
func TestMCPStatelessClientsNameTheirSession(t *testing.T) {
	bin := binDir(t)
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n", "g.txt": "uno\n", "h.txt": "eins\n"})
	read := func(path string) string { return `{"file_path":"` + path + `"}` }
	edit := func(path, old, new string) string {
		return `{"file_path":"` + path + `","old_string":"` + old + `","new_string":"` + new + `"}`
	}

	// --session NAME.
	if text, isErr := statelessCall(t, bin, dir, []string{"--session", "work"}, "Read", read("f.txt"), ""); isErr {
		t.Fatalf("Read: %s", text)
	}
	if text, isErr := statelessCall(t, bin, dir, []string{"--session", "work"}, "Edit", edit("f.txt", "one", "two"), ""); isErr {
		t.Fatalf("Edit after a Read in another process of session work: %s", text)
	}
	// _meta, on servers that each start a session of their own.
	meta := `{"git-edit/session":"inspector"}`
	if text, isErr := statelessCall(t, bin, dir, nil, "Read", read("g.txt"), meta); isErr {
		t.Fatalf("Read: %s", text)
	}
	if text, isErr := statelessCall(t, bin, dir, nil, "Edit", edit("g.txt", "uno", "dos"), meta); isErr {
		t.Fatalf("Edit after a Read in another process of session inspector: %s", text)
	}
	if text, isErr := statelessCall(t, bin, dir, nil, "Read", read("g.txt"), `{"git-edit/session":"no/such name"}`); !isErr || !strings.Contains(text, `_meta "git-edit/session"`) {
		t.Fatalf("a bad session name in _meta: error=%v %q", isErr, text)
	}
	// Unnamed: a new session each time.
	for range 3 {
		if text, isErr := statelessCall(t, bin, dir, nil, "Read", read("h.txt"), ""); isErr {
			t.Fatalf("Read: %s", text)
		}
	}
	if text, isErr := statelessCall(t, bin, dir, nil, "Edit", edit("h.txt", "eins", "zwei"), ""); !isErr || !strings.Contains(text, "File must be read before editing") {
		t.Fatalf("an unnamed Edit after another process's Read: error=%v %q", isErr, text)
	}
	// A named session that only read.
	if text, isErr := statelessCall(t, bin, dir, []string{"--session", "looker"}, "Read", read("h.txt"), ""); isErr {
		t.Fatalf("Read: %s", text)
	}

	for path, want := range map[string]string{"f.txt": "two\n", "g.txt": "dos\n", "h.txt": "eins\n"} {
		if got := gittest.ReadFile(t, dir, path); got != want {
			t.Fatalf("%s = %q, want %q", path, got, want)
		}
	}
	for _, s := range []string{"work", "inspector"} {
		if c := gittest.Git(t, dir, "rev-list", "--count", "HEAD..refs/edits/"+s); c != "1\n" {
			t.Fatalf("session %s has %s commits", s, c)
		}
	}
	if refs := gittest.Git(t, dir, "for-each-ref", "--format=%(refname)", "refs/edits/"); refs != "refs/edits/inspector\nrefs/edits/work\n" {
		t.Fatalf("session refs:\n%s", refs)
	}
	sessions := exec.Command(filepath.Join(bin, "git-edit"), "sessions", "--root", dir)
	sessions.Env = gittest.Env()
	out, err := sessions.CombinedOutput()
	if err != nil {
		t.Fatalf("sessions: %v\n%s", err, out)
	}
	var names []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		names = append(names, strings.Fields(l)[0])
	}
	if strings.Join(names, " ") != "inspector looker work" || !strings.Contains(string(out), "looker     read-only: 1 file read, no edits") {
		t.Fatalf("sessions lists:\n%s", out)
	}
	gittest.Fsck(t, dir)
}

// Issue 23: each call of a stateless client left a read-only session
// behind (`sessions` grew a line per call). A server's own unnamed session
// that made no edit is gone when the server ends; one that edited stays.
func TestMCPUnnamedReadOnlySessionsDoNotPileUp(t *testing.T) {
	bin := binDir(t)
	dir := gittest.NewWithCommit(t, map[string]string{"h.txt": "eins\n"})
	for range 3 {
		if text, isErr := statelessCall(t, bin, dir, nil, "Read", `{"file_path":"h.txt"}`, ""); isErr {
			t.Fatalf("Read: %s", text)
		}
		if text, isErr := statelessCall(t, bin, dir, nil, "text_editor", `{"command":"view","path":"h.txt"}`, ""); isErr {
			t.Fatalf("view: %s", text)
		}
	}
	sessions := func() string {
		cmd := exec.Command(filepath.Join(bin, "git-edit"), "sessions", "--root", dir)
		cmd.Env = gittest.Env()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("sessions: %v\n%s", err, out)
		}
		return string(out)
	}
	if out := sessions(); out != "" {
		t.Fatalf("read-only sessions of ended servers are listed:\n%s", out)
	}
	if text, isErr := statelessCall(t, bin, dir, nil, "text_editor", `{"command":"str_replace","path":"h.txt","old_str":"eins","new_str":"zwei"}`, ""); isErr {
		t.Fatalf("str_replace: %s", text)
	}
	if out := sessions(); !strings.HasPrefix(out, "mcp-") || !strings.Contains(out, "1 commit (1 edit)") || strings.Count(out, "\n") != 1 {
		t.Fatalf("the session that edited is not listed alone:\n%s", out)
	}
}

// The SDK's own client, its requests' stream (the server's stdin) closed
// while an edit is under way (held at a pause point): the call still gets
// its reply, and the edit it reports is the one on the session's ref.
func TestAttackMCPStdinClosedMidCallThroughTheSDKClient(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n"})
	reached, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	defer repo.SetPauseHook(func(point, _ string) {
		if point == "files-written" {
			once.Do(func() { close(reached); <-release })
		}
	})()
	s := startInProcess(t, "--root", dir, "--session", "sdk", "--log-file", filepath.Join(t.TempDir(), "log"))
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, &mcp.IOTransport{Reader: s.stdout, Writer: s.stdin}, nil)
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		res *mcp.CallToolResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "text_editor", Arguments: map[string]any{"command": "str_replace", "path": "f.txt", "old_str": "one", "new_str": "two"}})
		done <- result{res, err}
	}()
	select {
	case <-reached:
	case <-time.After(20 * time.Second):
		t.Fatal("the edit never reached the pause point")
	}
	s.stdin.Close() // the client's input to the server ends mid-call
	close(release)
	var r result
	select {
	case r = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("no reply after stdin closed")
	}
	if r.err != nil || r.res.IsError {
		t.Fatalf("the call's reply: %v %+v", r.err, r.res)
	}
	commit, _ := r.res.StructuredContent.(map[string]any)["commit"].(string)
	if head := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "refs/edits/sdk")); commit != head {
		t.Fatalf("the reply reports commit %q, the session is at %s", commit, head)
	}
	select {
	case code := <-s.code:
		s.code <- code // for the cleanup
		if code != 0 {
			t.Fatalf("the server exited with status %d", code)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the server did not exit after answering")
	}
	cs.Close()
	gittest.Fsck(t, dir)
}
