package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/ops"
	"github.com/urfave/cli/v2"
)

// blameFormatFlag is blame's --format: "agent-trace" prints Agent Trace
// records instead of the lines.
func blameFormatFlag() cli.Flag {
	return &cli.StringFlag{Name: "format", Usage: "`FORMAT` of the output: agent-trace prints one Agent Trace record (https://agent-trace.dev, JSON, one per line) per commit of REV (default HEAD) or of the range A..B"}
}

// runAgentTrace prints the Agent Trace record of each commit of spec, one
// JSON object per line (as .agent-trace/traces.jsonl holds them).
func runAgentTrace(c *cli.Context, e *ops.Engine, spec string, w io.Writer) error {
	recs, err := e.AgentTrace(c.Context, spec, clikit.Version)
	if err != nil {
		return blameRefusal(err)
	}
	for _, r := range recs {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "%s\n", b); err != nil {
			return err
		}
	}
	return nil
}
