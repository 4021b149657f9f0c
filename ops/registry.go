package ops

import (
	"fmt"
	"slices"
	"strings"

	"github.com/git-edit/git-edit/ops/applypatch"
	"github.com/git-edit/git-edit/ops/codeedit"
	"github.com/git-edit/git-edit/ops/dialect"
	"github.com/git-edit/git-edit/ops/editlines"
	"github.com/git-edit/git-edit/ops/exactedit"
	"github.com/git-edit/git-edit/ops/positional"
	"github.com/git-edit/git-edit/ops/texteditor"
)

// registry is every tool git-edit offers, one registration each. The
// engine's dispatch, the MCP server, `git-edit tools` and every "for each
// tool" test derive from it: adding a dialect is adding its package and
// one line here. Its order is the order of the MCP server's instructions
// (ServerInstructions): looking back first, then the dialects, then the
// ways to take edits back.
var registry = []dialect.Tool{
	editHistoryTool,
	texteditor.Tool,
	positional.Tool,
	editlines.Tool,
	exactedit.EditTool,
	exactedit.MultiEditTool,
	exactedit.ReadTool,
	codeedit.Tool,
	applypatch.Tool,
	editUndoTool,
	editRedoTool,
	editRollbackTool,
	editCheckpointTool,
	editRejectTool,
}

// Registry returns every tool's registration, sorted by name.
func Registry() []dialect.Tool {
	out := make([]dialect.Tool, 0, len(registry))
	for _, n := range Tools() {
		t, _ := lookup(n)
		out = append(out, t)
	}
	return out
}

// Tools lists the tool names Call accepts, sorted.
func Tools() []string { return dialect.Names(registry) }

// lookup finds a tool by name; an unknown name is an error wrapping
// ErrUnknownTool that lists the known ones.
func lookup(name string) (dialect.Tool, error) {
	for _, t := range registry {
		if t.Name == name {
			return t, nil
		}
	}
	return dialect.Tool{}, fmt.Errorf("%w %q; the tools are: %s", ErrUnknownTool, name, strings.Join(Tools(), ", "))
}

// ServerInstructions are the sentences the registrations of the offered
// tools (every tool when offered is empty) tell agents through the MCP
// server (dialect.Tool.Instructions), in the registry's order, each said
// once. Unknown names are ignored: the server refuses them when it offers
// its tools.
func ServerInstructions(offered []string) []string {
	var out []string
	said := map[string]bool{}
	for _, t := range registry {
		if len(offered) > 0 && !slices.Contains(offered, t.Name) {
			continue
		}
		for _, s := range t.Instructions {
			if !said[s] {
				said[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// Refuse is the named tool's refusal of err in its dialect's shape, as
// Call refuses a repository it cannot open: for a call that cannot run at
// all (the MCP server that has no repository to work in). The only error
// is ErrUnknownTool.
func Refuse(name string, err error) (Result, error) {
	t, lerr := lookup(name)
	if lerr != nil {
		return Result{}, lerr
	}
	return t.Refuse(err), nil
}
