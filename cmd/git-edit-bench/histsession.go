package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/git-edit/git-edit/ops/texteditor"
	"github.com/git-edit/git-edit/repo/packidx/packtest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// histFile is the content of a file a built session edits, before its
// first edit: 2 KB of text with a counter line.
func histFile(c int) []byte {
	return bytes.Replace(textFile(2<<10), []byte(counterLine(0)), []byte(counterLine(c)), 1)
}

// insertEvery makes every insertEvery-th edit of a built session an
// insert of a line (the others advance a counter line with str_replace),
// as an agent mixes the two.
const insertEvery = 5

// buildSession makes a session of n edits on refs/edits/<name> in the
// repository dir as an agent makes one: n MCP tools/call requests of
// text_editor through git-edit's own server (`git-edit mcp --session
// name`, the binary bin, over stdio, driven by the official Go SDK
// client), one edit of one path each, round paths. Edit i is an insert of
// a line after line 3 when i%insertEvery == insertEvery-1, else a
// str_replace that advances the path's counter line by one. Every path
// must be in HEAD and on disk as histFile(0). Every edit is a real one
// (its own operation, pack and ref update), so the session's objects are
// stored as git-edit stores them, never as one pack. It returns each
// path's counter at the end.
func buildSession(dir, bin, name string, n int, paths []string) (map[string]int, error) {
	ctx := context.Background()
	cmd := exec.Command(bin, "mcp", "--session", name, "--log-file", os.DevNull)
	cmd.Dir, cmd.Env = dir, packtest.Env()
	cs, err := connectMCP(ctx, cmd)
	if err != nil {
		return nil, fmt.Errorf("start git-edit mcp: %w", err)
	}
	defer cs.Close()
	counters := map[string]int{}
	for i := range n {
		p := paths[i%len(paths)]
		args := map[string]any{"command": "str_replace", "path": p, "old_str": counterLine(counters[p]), "new_str": counterLine(counters[p] + 1)}
		if i%insertEvery == insertEvery-1 {
			args = map[string]any{"command": "insert", "path": p, "insert_line": 3, "new_str": fmt.Sprintf("\t// inserted by edit %d", i+1)}
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: texteditor.ToolName, Arguments: args})
		if err != nil {
			return nil, fmt.Errorf("edit %d of %s: %w", i+1, p, err)
		}
		if m, ok := res.StructuredContent.(map[string]any); res.IsError || !ok || m["status"] != "success" {
			b, _ := json.Marshal(res.Content)
			return nil, fmt.Errorf("edit %d of %s failed: %s", i+1, p, b)
		}
		if args["command"] == "str_replace" {
			counters[p]++
		}
	}
	return counters, nil
}

// binaryID names a git-edit binary by its bytes, so that a session built
// by one build is never measured as another's: how a build stores its
// objects is what the history rows measure.
func binaryID(bin string) (string, error) {
	f, err := os.Open(bin)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}
