package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/git-edit/git-edit/engine"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v2"
)

// version is what the MCP server reports as its implementation version.
const version = "0.1.0"

func logFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "log-file", Usage: "write the INFO lines of each tool call to `FILE` instead of stderr"},
		&cli.StringFlag{Name: "agent-log", Usage: "append each call and its result to `FILE` as TOOL_CALL / TOOL_RESULT records"},
	}
}

// observer builds the call logger the flags ask for; close releases files.
func observer(c *cli.Context) (obs *engine.Observer, close func(), err error) {
	var files []*os.File
	close = func() {
		for _, f := range files {
			f.Close()
		}
	}
	logTo := c.App.ErrWriter
	if p := c.String("log-file"); p != "" {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
		if err != nil {
			return nil, close, fmt.Errorf("--log-file: %w", err)
		}
		files, logTo = append(files, f), f
	}
	obs = &engine.Observer{Log: slog.New(slog.NewTextHandler(logTo, nil))}
	if p := c.String("agent-log"); p != "" {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
		if err != nil {
			close()
			return nil, func() {}, fmt.Errorf("--agent-log: %w", err)
		}
		files, obs.Agent = append(files, f), f
	}
	return obs, close, nil
}

func mcpCommand() *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "serve the edit tools over the Model Context Protocol on stdin/stdout",
		Flags: append([]cli.Flag{rootFlag(), mcpSessionFlag(),
			&cli.StringFlag{Name: "tools", Usage: "comma-separated `LIST` of tools to offer (default: all); see git-edit tools"},
		}, logFlags()...),
		OnUsageError: usageError,
		Action: func(c *cli.Context) error {
			session := newSessionName(time.Now())
			if c.IsSet("session") && c.String("session") != "" {
				session = c.String("session")
			}
			var tools []string
			if list := c.String("tools"); list != "" {
				for _, t := range strings.Split(list, ",") {
					tools = append(tools, strings.TrimSpace(t))
				}
			}
			obs, closeLogs, err := observer(c)
			if err != nil {
				return err
			}
			defer closeLogs()
			e, err := engine.Open(engine.Options{Root: c.String("root"), Session: session})
			if err != nil {
				return refused(err)
			}
			// At shutdown, the conversion process ends with the server.
			defer e.Close()
			server, err := newMCPServer(e, tools, obs)
			if err != nil {
				return err
			}
			fmt.Fprintf(c.App.ErrWriter, "git-edit mcp: session %s (refs/edits/%s) in %s\n", session, session, e.Repo.Top)
			// Not mcp.StdioTransport: one malformed line would end it.
			return server.Run(c.Context, &guardedStdio{in: c.App.Reader, out: c.App.Writer, limit: maxLineBytes})
		},
	}
}

// newSessionName is a readable, sortable name for a server's session:
// mcp-20261121-153000-ab12.
func newSessionName(now time.Time) string {
	var b [2]byte
	rand.Read(b[:])
	return "mcp-" + now.Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// newMCPServer offers the named tools (all when empty), served by e. One
// engine serves every call; calls run one at a time within the process
// (the repository's lock orders them against other processes), so
// concurrent requests never lose an edit. A refused call is a tool error
// (isError) whose text says what to do, never a protocol error.
func newMCPServer(e *engine.Engine, tools []string, obs *engine.Observer) (*mcp.Server, error) {
	defs, err := engine.Definitions(tools...)
	if err != nil {
		return nil, fmt.Errorf("--tools: %w", err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "git-edit", Version: version}, nil)
	var mu sync.Mutex
	var seq atomic.Int64
	for _, d := range defs {
		name := d.Name
		server.AddTool(&mcp.Tool{Name: d.Name, Description: d.Description, InputSchema: d.InputSchema},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				id := fmt.Sprintf("mcp-%04d", seq.Add(1))
				args := []byte(req.Params.Arguments)
				res, err := obs.Call(name, id, args, func() (engine.Result, error) {
					mu.Lock()
					defer mu.Unlock()
					return e.Call(ctx, name, args)
				})
				if err != nil {
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}, IsError: true}, nil
				}
				return &mcp.CallToolResult{
					Content:           []mcp.Content{&mcp.TextContent{Text: res.Text}},
					StructuredContent: res.Value,
					IsError:           !res.OK,
				}, nil
			})
	}
	return server, nil
}

func toolsCommand() *cli.Command {
	return &cli.Command{
		Name:  "tools",
		Usage: "print the tool definitions (name, description, input schema) for frameworks that take tool lists",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "mcp", Usage: "`FORMAT`: mcp, openai or anthropic"},
			&cli.StringFlag{Name: "tools", Usage: "comma-separated `LIST` of tools (default: all)"},
		},
		OnUsageError: usageError,
		Action: func(c *cli.Context) error {
			var names []string
			if list := c.String("tools"); list != "" {
				names = strings.Split(list, ",")
			}
			return runTools(c.App.Writer, c.String("format"), names)
		},
	}
}

// runTools prints definitions in the shape each framework takes.
func runTools(w io.Writer, format string, names []string) error {
	defs, err := engine.Definitions(names...)
	if err != nil {
		return fmt.Errorf("--tools: %w", err)
	}
	switch format {
	case "mcp":
		return writeJSON(w, map[string]any{"tools": defs})
	case "openai":
		type function struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		}
		out := make([]map[string]any, len(defs))
		for i, d := range defs {
			out[i] = map[string]any{"type": "function", "function": function{d.Name, d.Description, d.InputSchema}}
		}
		return writeJSON(w, out)
	case "anthropic":
		type tool struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"input_schema"`
		}
		out := make([]tool, len(defs))
		for i, d := range defs {
			out[i] = tool{d.Name, d.Description, d.InputSchema}
		}
		return writeJSON(w, out)
	}
	return fmt.Errorf("--format %q: use mcp, openai or anthropic", format)
}
