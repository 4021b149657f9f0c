package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/ops"
	"github.com/urfave/cli/v2"
)

func toolsCommand() *cli.Command {
	return &cli.Command{
		Name:  "tools",
		Usage: "print the tool definitions (name, description, input schema) for frameworks that take tool lists",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "mcp", Usage: "`FORMAT`: mcp, openai or anthropic"},
			&cli.StringFlag{Name: "tools", Usage: "comma-separated `LIST` of tools (default: all)"},
		},
		OnUsageError: clikit.UsageError,
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
	defs, err := ops.Definitions(names...)
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
