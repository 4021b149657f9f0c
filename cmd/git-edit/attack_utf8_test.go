package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestAttackMCPInvalidUTF8IsRefused sends tools/call requests as bytes on
// the wire, the way a client's stdio does, with invalid UTF-8 and lone
// surrogates in the arguments. The SDK hands the arguments to the handler
// as the raw bytes received (json.RawMessage), so the engine's strict
// decoder sees them; this checks that nothing between the wire and the
// engine turns them into U+FFFD first: each call is a tool error naming
// the field, and no file or ref changes. A surrogate pair still works.
func TestAttackMCPInvalidUTF8IsRefused(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "hello\n"})
	e, err := ops.Open(ops.Options{Root: dir, Session: "s"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	server, err := newMCPServer(e, nil, &ops.Observer{})
	if err != nil {
		t.Fatal(err)
	}
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- server.Run(context.Background(), &mcp.IOTransport{Reader: serverIn, Writer: serverOut})
	}()
	defer func() {
		clientOut.Close()
		clientIn.Close()
		<-done
	}()
	responses := bufio.NewReader(clientIn)
	// call sends one JSON-RPC message and, for a request (id > 0), returns
	// the result of the response with that id.
	call := func(id int, msg string) (text string, isError bool) {
		t.Helper()
		if _, err := clientOut.Write([]byte(msg + "\n")); err != nil {
			t.Fatal(err)
		}
		for id > 0 {
			line, err := responses.ReadBytes('\n')
			if err != nil {
				t.Fatal(err)
			}
			var resp struct {
				ID     int             `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if err := json.Unmarshal(line, &resp); err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			if resp.ID == id {
				if resp.Error != nil {
					t.Fatalf("protocol error %s", resp.Error)
				}
				var res struct {
					Content []struct{ Text string }
					IsError bool
				}
				if err := json.Unmarshal(resp.Result, &res); err != nil {
					t.Fatalf("%s: %v", resp.Result, err)
				}
				for _, c := range res.Content {
					text += c.Text
				}
				return text, res.IsError
			}
		}
		return "", false
	}
	call(1, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	call(0, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	before := snapshotDir(t, dir)
	cases := []struct{ args, want string }{
		{"{\"command\":\"write\",\"path\":\"new.txt\",\"file_text\":\"a\xfeb\"}", `"file_text" is not valid UTF-8 text: the byte 0xfe`},
		{`{"command":"write","path":"\ud800.txt","file_text":"x"}`, `"path" is not valid UTF-8 text: the escape \ud800`},
		{"{\"command\":\"write\",\"path\":\"\xfe.txt\",\"file_text\":\"x\"}", `"path" is not valid UTF-8 text: the byte 0xfe`},
		{`{"command":"str_replace","path":"f.txt","old_str":"hello","new_str":"\udc00"}`, `"new_str" is not valid UTF-8 text: the escape \udc00`},
	}
	for i, tc := range cases {
		text, isError := call(10+i, `{"jsonrpc":"2.0","id":`+strconv.Itoa(10+i)+`,"method":"tools/call","params":{"name":"text_editor","arguments":`+tc.args+`}}`)
		if !isError || !strings.Contains(text, tc.want) {
			t.Errorf("%q: got isError %v, %s; want a tool error saying %s", tc.args, isError, text, tc.want)
		}
		if after := snapshotDir(t, dir); after != before {
			t.Fatalf("%q changed something:\nbefore:\n%s\nafter:\n%s", tc.args, before, after)
		}
	}
	text, isError := call(20, `{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"text_editor","arguments":{"command":"write","path":"\ud83d\ude00.txt","file_text":"x\n"}}}`)
	if isError {
		t.Fatalf("a surrogate pair was refused: %s", text)
	}
	if got := gittest.ReadFile(t, dir, "\U0001F600.txt"); got != "x\n" {
		t.Fatalf("\U0001F600.txt holds %q", got)
	}
}

// snapshotDir is the worktree's entries and bytes, git status and every
// ref: what a refused call must not change.
func snapshotDir(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.IsDir() && info.Name() == ".git" {
			return filepath.SkipDir
		}
		b.WriteString(p + " " + info.Mode().String())
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b.WriteString(" " + string(data))
		}
		b.WriteByte('\n')
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String() + gittest.Status(t, dir) + gittest.Git(t, dir, "for-each-ref")
}
