package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-edit/git-edit/ops/texteditor"
	"github.com/git-edit/git-edit/repo/packidx/packtest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// refServerPkg is the MCP reference filesystem server the warm rows compare
// with, pinned so that reruns compare with the same server.
const refServerPkg = "@modelcontextprotocol/server-filesystem@2026.8.31"

// errNoNode says why the MCP rows were skipped.
var errNoNode = errors.New("node or npm is missing")

// refServer returns the reference server's entry point, installing it with
// npm under cache the first time.
func refServer(cache string, logf func(string, ...any)) (string, error) {
	if _, err := exec.LookPath("node"); err != nil {
		return "", fmt.Errorf("%w: install Node.js (node and npm) to measure the MCP rows", errNoNode)
	}
	dir := filepath.Join(cache, "npm")
	entry := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js")
	if _, err := os.Stat(entry); err == nil {
		return entry, nil
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return "", fmt.Errorf("%w: install Node.js (node and npm) to measure the MCP rows", errNoNode)
	}
	logf("installing %s with npm into %s", refServerPkg, dir)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return "", err
	}
	cmd := exec.Command("npm", "install", "--prefix", dir, "--no-audit", "--no-fund", "--silent", refServerPkg)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("npm install %s: %w\n%s", refServerPkg, err, out)
	}
	if _, err := os.Stat(entry); err != nil {
		return "", fmt.Errorf("npm installed %s, but not %s", refServerPkg, entry)
	}
	return entry, nil
}

// mcpServer is one server driven through the official Go SDK client.
type mcpServer struct {
	cs   *mcp.ClientSession
	call func(c int) (string, any) // the tool and arguments that advance counter c to c+1
	file string
}

func connectMCP(ctx context.Context, cmd *exec.Cmd) (*mcp.ClientSession, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "git-edit-bench", Version: "v1"}, nil)
	return client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
}

// callOnce makes one call and returns its round trip as the client sees it.
func (s *mcpServer) callOnce(ctx context.Context, c int) (time.Duration, error) {
	name, args := s.call(c)
	start := time.Now()
	res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	d := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("%s on %s: %w", name, s.file, err)
	}
	if res.IsError {
		b, _ := json.Marshal(res.Content)
		return 0, fmt.Errorf("%s on %s failed: %s", name, s.file, b)
	}
	if m, ok := res.StructuredContent.(map[string]any); ok && m["status"] != nil && m["status"] != "success" {
		b, _ := json.Marshal(m)
		return 0, fmt.Errorf("%s on %s failed: %s", name, s.file, b)
	}
	return d, nil
}

// mcpPairs measures warm MCP str_replace calls, new content every call: git-edit's
// server on a file of the repository against the reference server's
// edit_file on a copy outside it, at each size, alternating calls; label
// names the repository in git-edit's rows. Both
// servers stay up through all the calls, as an agent's do.
func mcpPairs(ctx context.Context, bin, node, entry, repoDir, label, refDir string, sizes map[int]string, n int) ([]*pair, error) {
	ge, err := connectMCP(ctx, gitEditCmd(bin, repoDir))
	if err != nil {
		return nil, fmt.Errorf("start git-edit mcp: %w", err)
	}
	defer ge.Close()
	ref, err := connectMCP(ctx, exec.Command(node, entry, refDir))
	if err != nil {
		return nil, fmt.Errorf("start the reference server: %w", err)
	}
	defer ref.Close()
	var pairs []*pair
	for _, size := range []int{50 << 10, 1 << 20} {
		rel := sizes[size]
		refFile := filepath.Join(refDir, filepath.Base(rel))
		if err := os.WriteFile(refFile, textFile(size), 0o644); err != nil {
			return nil, err
		}
		a := &mcpServer{cs: ge, file: rel, call: func(c int) (string, any) {
			return texteditor.ToolName, map[string]any{"command": "str_replace", "path": rel, "old_str": counterLine(c), "new_str": counterLine(c + 1)}
		}}
		b := &mcpServer{cs: ref, file: refFile, call: func(c int) (string, any) {
			return "edit_file", map[string]any{"path": refFile, "edits": []map[string]any{{"oldText": counterLine(c), "newText": counterLine(c + 1)}}}
		}}
		sizeName := map[int]string{50 << 10: "50 KB", 1 << 20: "1 MB"}[size]
		p := &pair{}
		counters := map[*mcpServer]int{}
		for _, s := range []*mcpServer{a, b} {
			s := s
			name := fmt.Sprintf("warm MCP git-edit text_editor str_replace, %s (p50), %s", sizeName, label)
			if s == b {
				name = fmt.Sprintf("reference server edit_file, %s", sizeName)
			}
			ser := &series{name: name, run: func(bool) (sample, error) {
				d, err := s.callOnce(ctx, counters[s])
				if err == nil {
					counters[s]++
				}
				return sample{d: d}, err
			}}
			if s == a {
				p.a = ser
			} else {
				p.b = ser
			}
		}
		// A few unmeasured calls first: the servers' first calls load code.
		for range 3 {
			if err := p.round(false, false); err != nil {
				return nil, err
			}
		}
		for i := range n {
			if err := p.round(i%2 == 1, true); err != nil {
				return nil, err
			}
		}
		pairs = append(pairs, p)
	}
	return pairs, nil
}

// gitEditCmd is git-edit's MCP server on dir, in a session of its own.
func gitEditCmd(bin, dir string) *exec.Cmd {
	cmd := exec.Command(bin, "mcp", "--session", "bench-mcp", "--log-file", os.DevNull)
	cmd.Dir = dir
	cmd.Env = packtest.Env()
	return cmd
}

// refVersion is the installed reference server's version, for the report.
func refVersion(entry string) string {
	b, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(entry)), "package.json"))
	if err != nil {
		return "?"
	}
	var pkg struct{ Version string }
	if json.Unmarshal(b, &pkg) != nil {
		return "?"
	}
	return strings.TrimSpace(pkg.Version)
}
