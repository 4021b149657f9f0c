package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

// rawPeer is a client that writes raw lines to a running `git-edit mcp`
// and reads its raw reply lines, so it can send what no SDK client would.
type rawPeer struct {
	t        *testing.T
	stdin    io.WriteCloser
	lines    chan []byte   // reply lines, in order
	readDone chan struct{} // closed when stdout has ended
	done     chan struct{} // closed when the server has exited
	status   func() int    // the exit status, once done
}

// mcpTransports starts the server under test: the real binary (not under
// -short, as it is built) and the same command run in process over pipes.
var mcpTransports = []struct {
	name  string
	start func(t *testing.T, dir string) *rawPeer
}{
	{"binary", startBinaryPeer},
	{"in-process", startInProcessPeer},
}

func startBinaryPeer(t *testing.T, dir string) *rawPeer {
	bin := binDir(t)
	cmd := exec.Command(filepath.Join(bin, "git-edit"), "mcp", "--root", dir, "--session", "attack")
	cmd.Env = gittest.Env()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := newRawPeer(t, stdin, stdout)
	go func() {
		<-p.readDone
		cmd.Wait()
		close(p.done)
	}()
	p.status = func() int { return cmd.ProcessState.ExitCode() }
	t.Cleanup(func() {
		stdin.Close()
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-p.done
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	})
	return p
}

func startInProcessPeer(t *testing.T, dir string) *rawPeer {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr strings.Builder
	code := make(chan int, 1)
	go func() {
		c := run(context.Background(), []string{"git-edit", "mcp", "--root", dir, "--session", "attack"}, inR, outW, &stderr)
		// A server that stopped makes writes fail, as a dead process would.
		inR.CloseWithError(fmt.Errorf("the server exited with status %d", c))
		outW.Close()
		code <- c
	}()
	p := newRawPeer(t, inW, outR)
	var status int
	go func() {
		status = <-code
		<-p.readDone
		close(p.done)
	}()
	p.status = func() int { return status }
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			t.Error("the in-process server did not end after stdin closed")
		}
	})
	return p
}

// newRawPeer reads stdout, line by line, into p.lines.
func newRawPeer(t *testing.T, stdin io.WriteCloser, stdout io.Reader) *rawPeer {
	p := &rawPeer{t: t, stdin: stdin, lines: make(chan []byte, 1024), done: make(chan struct{}), readDone: make(chan struct{})}
	go func() {
		defer close(p.readDone)
		br := bufio.NewReader(stdout)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				p.lines <- line
			}
			if err != nil {
				close(p.lines)
				return
			}
		}
	}()
	return p
}

// send writes one line (a newline is added).
func (p *rawPeer) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		p.t.Fatalf("writing to the server: %v", err)
	}
}

// next is the server's next reply line, decoded.
func (p *rawPeer) next() reply {
	p.t.Helper()
	select {
	case line, ok := <-p.lines:
		if !ok {
			p.t.Fatal("the server closed stdout: it is no longer serving")
		}
		var r reply
		if err := json.Unmarshal(line, &r); err != nil || !bytes.HasSuffix(line, []byte("\n")) {
			p.t.Fatalf("the reply is not one line of JSON (%v): %q", err, line)
		}
		r.line = line
		return r
	case <-time.After(20 * time.Second):
		p.t.Fatal("no reply within 20s")
	}
	return reply{}
}

// reply is one JSON-RPC response line, id kept as written.
type reply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	line []byte
}

// initialize performs the MCP handshake.
func (p *rawPeer) initialize() {
	p.t.Helper()
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"attack","version":"0"}}}`)
	if r := p.next(); r.Error != nil || string(r.ID) != "0" {
		p.t.Fatalf("initialize: %s", r.line)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// stillServes sends tools/list and requires the full list back, with its id.
func (p *rawPeer) stillServes(id string) {
	p.t.Helper()
	p.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list"}`)
	r := p.next()
	var list struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	defs, _ := ops.Definitions()
	if r.Error != nil || string(r.ID) != id || json.Unmarshal(r.Result, &list) != nil || len(list.Tools) != len(defs) {
		p.t.Fatalf("tools/list %s after a bad line: %.300s", id, r.line)
	}
}

// close ends stdin and requires a clean exit: the server ended because
// input ended, not because of anything it read.
func (p *rawPeer) close() {
	p.t.Helper()
	p.stdin.Close()
	select {
	case <-p.done:
	case <-time.After(20 * time.Second):
		p.t.Fatal("the server did not exit after stdin closed")
	}
	if code := p.status(); code != 0 {
		p.t.Fatalf("the server exited with status %d", code)
	}
}

func nested(depth int, open, close, inner string) string {
	return strings.Repeat(open, depth) + inner + strings.Repeat(close, depth)
}

// hugeLine streams n bytes of one JSON string with no newline, never
// holding them.
type hugeLine struct{ n, off int }

func (h *hugeLine) Read(p []byte) (int, error) {
	if h.off >= h.n {
		return 0, io.EOF
	}
	k := min(len(p), h.n-h.off)
	for i := range k {
		switch h.off + i {
		case 0:
			p[i] = '"'
		default:
			p[i] = 'a'
		}
	}
	h.off += k
	return k, nil
}

// Every bad line of the finding, each followed by a request that must
// still be answered: the server answers each with the JSON-RPC error its
// kind calls for, with the id when it can be told, and keeps serving.
func TestAttackMCPMalformedLinesKeepServing(t *testing.T) {
	bad := []struct {
		name string
		line string
		code int64
		id   string // the id the error reply must carry, exactly
	}{
		{"not JSON", `{this is not json`, codeParseError, "null"},
		{"truncated", `{"jsonrpc":"2.0","id":1,"method":"tools/list"`, codeParseError, "null"},
		{"two values on a line", `{"jsonrpc":"2.0","method":"x"} {"jsonrpc":"2.0","method":"y"}`, codeParseError, "null"},
		{"batch array", `[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`, codeInvalidRequest, "null"},
		{"empty batch", `[]`, codeInvalidRequest, "null"},
		{"a number", `42`, codeInvalidRequest, "null"},
		{"a string", `"tools/list"`, codeInvalidRequest, "null"},
		{"null", `null`, codeInvalidRequest, "null"},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":2,"method":"tools/list"}`, codeInvalidRequest, "2"},
		{"jsonrpc missing", `{"id":"two","method":"tools/list"}`, codeInvalidRequest, `"two"`},
		{"jsonrpc a number", `{"jsonrpc":2.0,"id":2,"method":"tools/list"}`, codeInvalidRequest, "2"},
		{"id an object", `{"jsonrpc":"2.0","id":{"n":1},"method":"tools/list"}`, codeInvalidRequest, "null"},
		{"id an array", `{"jsonrpc":"2.0","id":[1],"method":"tools/list"}`, codeInvalidRequest, "null"},
		{"id a boolean", `{"jsonrpc":"2.0","id":true,"method":"tools/list"}`, codeInvalidRequest, "null"},
		{"id null on a request", `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`, codeInvalidRequest, "null"},
		{"method missing", `{"jsonrpc":"2.0","id":3}`, codeInvalidRequest, "3"},
		{"method a number", `{"jsonrpc":"2.0","id":4,"method":5}`, codeInvalidRequest, "4"},
		{"method an object", `{"jsonrpc":"2.0","id":"m","method":{"name":"tools/list"}}`, codeInvalidRequest, `"m"`},
		{"response with result and error", `{"jsonrpc":"2.0","id":5,"result":{},"error":{"code":1,"message":"x"}}`, codeInvalidRequest, "null"},
		{"response error not an object", `{"jsonrpc":"2.0","id":5,"error":"bad"}`, codeInvalidRequest, "null"},
		{"response without id", `{"jsonrpc":"2.0","result":{}}`, codeInvalidRequest, "null"},
		{"duplicate id", `{"jsonrpc":"2.0","id":6,"method":"ping","id":7}`, codeInvalidRequest, "null"},
		{"nested 1000 deep in params", `{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"x":` + nested(1000, "[", "]", "") + `}}`, codeInvalidRequest, "8"},
		{"nested 1000 deep as a batch", nested(1000, "[", "]", ""), codeInvalidRequest, "null"},
		{"nested 1000 deep objects", nested(1000, `{"a":`, "}", "1"), codeInvalidRequest, "null"},
		{"nested past the parser's limit", nested(20000, "[", "]", ""), codeParseError, "null"},
	}
	for _, tr := range mcpTransports {
		t.Run(tr.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n"})
			p := tr.start(t, dir)
			p.initialize()
			p.stillServes("1")
			for i, tc := range bad {
				p.send(tc.line)
				r := p.next()
				if r.Error == nil || r.Error.Code != tc.code || string(r.ID) != tc.id || r.JSONRPC != "2.0" {
					t.Fatalf("%s: got %.400s, want error %d with id %s", tc.name, r.line, tc.code, tc.id)
				}
				if !strings.Contains(r.Error.Message, "; ") {
					t.Errorf("%s: the message does not say what to do: %q", tc.name, r.Error.Message)
				}
				p.stillServes(fmt.Sprintf(`"after %d"`, i))
			}

			// A 100 MB line: dropped unread, answered, and the next line served.
			if _, err := io.Copy(p.stdin, &hugeLine{n: 100 << 20}); err != nil {
				t.Fatal(err)
			}
			p.send(`"`)
			if r := p.next(); r.Error == nil || r.Error.Code != codeInvalidRequest || string(r.ID) != "null" ||
				!strings.Contains(r.Error.Message, fmt.Sprintf("longer than %d bytes", maxLineBytes)) {
				t.Fatalf("100 MB line: %.400s", r.line)
			}
			p.stillServes(`"after the huge line"`)

			// A real edit still works and is recorded.
			p.send(`{"jsonrpc":"2.0","id":"edit","method":"tools/call","params":{"name":"text_editor","arguments":{"command":"str_replace","path":"f.txt","old_str":"one","new_str":"two"}}}`)
			if r := p.next(); r.Error != nil || string(r.ID) != `"edit"` || bytes.Contains(r.Result, []byte(`"isError":true`)) {
				t.Fatalf("edit after the attack: %s", r.line)
			}
			p.send(`{"jsonrpc":"1.0","id":"<a&b> ","method":"ping"}`)
			if r := p.next(); r.Error == nil || r.Error.Code != codeInvalidRequest || string(r.ID) != "\"<a&b> \"" {
				t.Fatalf("bad version with an id that JSON encoders escape: %s", r.line)
			}
			p.close()
			if got := gittest.ReadFile(t, dir, "f.txt"); got != "two\n" {
				t.Fatalf("f.txt = %q", got)
			}
			if c := gittest.Git(t, dir, "rev-list", "--count", "HEAD..refs/edits/attack"); c != "1\n" {
				t.Fatalf("refs/edits/attack has %s commits", c)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// Ids come back exactly as the client wrote them, including numbers the
// SDK would turn into int64 and strings that look like the guard's tokens.
func TestAttackMCPIdsRoundTripExactly(t *testing.T) {
	ids := []string{
		`18446744073709551616`, `1e3`, `-0`, `12345678901234567890123`, `"x"`,
		`9007199254740993`, `-9223372036854775809`, `1.5`, `-1E-7`, `0.10`, `1e400`,
		`0`, `-9223372036854775808`, `"\u0078"`, `""`, `"git-edit-id:1"`, `"git-edit-id:2"`, `"<a&b> "`,
	}
	for _, tr := range mcpTransports {
		t.Run(tr.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n"})
			p := tr.start(t, dir)
			p.initialize()
			for _, id := range ids {
				p.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
				if r := p.next(); r.Error != nil || string(r.ID) != id || string(r.Result) != "{}" {
					t.Fatalf("ping with id %s: %s", id, r.line)
				}
				p.stillServes(id)
			}
			// An edit under a huge id, and errors keep the id as well.
			p.send(`{"jsonrpc":"2.0","id":18446744073709551616,"method":"tools/call","params":{"name":"text_editor","arguments":{"command":"str_replace","path":"f.txt","old_str":"one","new_str":"two"}}}`)
			if r := p.next(); r.Error != nil || string(r.ID) != "18446744073709551616" || !bytes.Contains(r.Result, []byte("two")) {
				t.Fatalf("edit: %s", r.line)
			}
			p.send(`{"jsonrpc":"2.0","id":1e3,"method":"no/such/method"}`)
			if r := p.next(); r.Error == nil || r.Error.Code != -32601 || string(r.ID) != "1e3" {
				t.Fatalf("unknown method: %s", r.line)
			}
			p.send(`{"jsonrpc":"1.0","id":12345678901234567890123,"method":"ping"}`)
			if r := p.next(); r.Error == nil || r.Error.Code != codeInvalidRequest || string(r.ID) != "12345678901234567890123" {
				t.Fatalf("bad version with a big id: %s", r.line)
			}
			p.send(`{"jsonrpc":"1.0","id":"<a&b> ","method":"ping"}`)
			if r := p.next(); r.Error == nil || r.Error.Code != codeInvalidRequest || string(r.ID) != "\"<a&b> \"" {
				t.Fatalf("bad version with an id that JSON encoders escape: %s", r.line)
			}
			p.close()
			if got := gittest.ReadFile(t, dir, "f.txt"); got != "two\n" {
				t.Fatalf("f.txt = %q", got)
			}
			if by := gittest.Git(t, dir, "log", "-1", "--format=%(trailers:key=Edit-Tool,valueonly)", "refs/edits/attack"); strings.TrimSpace(by) != "text_editor.str_replace" {
				t.Fatalf("the edit's commit: %q", by)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// A burst of bad and good lines sent without waiting: the guard's error
// replies and the SDK's responses race to stdout, and every line must still
// be one whole JSON reply, each request answered once under its own id,
// also when ids are the same as each other or look like the guard's tokens.
func TestAttackMCPBurstNeverInterleaves(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	n := 400
	if testing.Short() {
		n = 100
	}
	type expect struct{ line, want string }
	kinds := []func(i int) expect{
		func(i int) expect { return expect{`{not json ` + fmt.Sprint(i), "null -32700"} },
		func(i int) expect { return expect{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, "null -32600"} },
		func(i int) expect {
			return expect{fmt.Sprintf(`{"jsonrpc":"1.0","id":%d,"method":"ping"}`, i), fmt.Sprintf("%d -32600", i)}
		},
		func(i int) expect {
			return expect{fmt.Sprintf(`{"jsonrpc":"2.0","id":%d0000000000000000000000,"method":"ping"}`, i), fmt.Sprintf("%d0000000000000000000000 ok", i)}
		},
		func(i int) expect {
			return expect{fmt.Sprintf(`{"jsonrpc":"2.0","id":"git-edit-id:%d","method":"ping"}`, i), fmt.Sprintf(`"git-edit-id:%d" ok`, i)}
		},
		func(i int) expect { return expect{`{"jsonrpc":"2.0","id":"same","method":"ping"}`, `"same" ok`} },
		func(i int) expect {
			return expect{`{"jsonrpc":"2.0","id":"list","method":"tools/list"}`, `"list" ok`}
		},
	}
	for _, tr := range mcpTransports {
		t.Run(tr.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n"})
			p := tr.start(t, dir)
			p.initialize()
			var burst strings.Builder
			var want []string
			for i := range n {
				e := kinds[rng.IntN(len(kinds))](i + 1)
				burst.WriteString(e.line + "\n")
				want = append(want, e.want)
			}
			go io.WriteString(p.stdin, burst.String())
			var got []string
			for range n {
				r := p.next()
				switch {
				case r.Error != nil:
					got = append(got, fmt.Sprintf("%s %d", r.ID, r.Error.Code))
				case r.Result != nil:
					got = append(got, fmt.Sprintf("%s ok", r.ID))
				default:
					t.Fatalf("neither result nor error: %s", r.line)
				}
			}
			sort.Strings(got)
			sort.Strings(want)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("replies differ from requests:\n got %q\nwant %q", got, want)
			}
			p.stillServes(`"after the burst"`)
			p.close()
		})
	}
}

// Valid messages with random bytes changed, each followed by a ping that
// must be answered: whatever a line turns into, the server replies with
// whole JSON lines and keeps serving.
func TestAttackMCPMutatedLinesNeverStopTheServer(t *testing.T) {
	seeds := []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"s","method":"tools/list","params":{"cursor":"c"}}`,
		`{"jsonrpc":"2.0","id":2.5,"method":"tools/call","params":{"name":"Read","arguments":{"file_path":"f.txt"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"r"}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"roots":[]}}`,
		`{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"m"}}`,
		`[{"jsonrpc":"2.0","id":5,"method":"ping"}]`,
	}
	const alphabet = `{}[]",:0123456789-+.eE\ntrufalsn \x00\xff`
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	n, budget := 300, 3*time.Second
	if testing.Short() {
		n, budget = 60, time.Second
	}
	for _, tr := range mcpTransports {
		t.Run(tr.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 1))
			dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n"})
			p := tr.start(t, dir)
			p.initialize()
			deadline := time.Now().Add(budget)
			for i := 0; i < n && time.Now().Before(deadline); i++ {
				b := []byte(seeds[rng.IntN(len(seeds))])
				for range 1 + rng.IntN(3) {
					switch k := rng.IntN(len(b)); rng.IntN(3) {
					case 0:
						b[k] = alphabet[rng.IntN(len(alphabet))]
					case 1:
						b = append(b[:k:k], b[k+1:]...)
					default:
						b = append(b[:k:k], append([]byte{alphabet[rng.IntN(len(alphabet))]}, b[k:]...)...)
					}
				}
				p.send(string(b))
				probe := fmt.Sprintf(`"probe %d"`, i)
				p.send(`{"jsonrpc":"2.0","id":` + probe + `,"method":"ping"}`)
				for {
					r := p.next()
					if r.JSONRPC != "2.0" || (r.Error == nil) == (r.Result == nil) {
						t.Fatalf("after %q: not a JSON-RPC response: %s", b, r.line)
					}
					if string(r.ID) == probe {
						break
					}
				}
			}
			p.close()
			if got := gittest.ReadFile(t, dir, "f.txt"); got != "one\n" {
				t.Fatalf("f.txt = %q", got)
			}
			gittest.Fsck(t, dir)
		})
	}
}
