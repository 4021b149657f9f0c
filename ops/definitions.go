package ops

import (
	"encoding/json"
	"strings"
)

// ToolDef is what a framework needs to offer a tool to a model: its name,
// a description (the seed's, shortened) and a JSON Schema (2020-12) of its
// arguments that marks required fields and types. The schemas describe;
// the dialects' own parsers stay the judges of what is valid.
type ToolDef struct {
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Annotations Annotations     `json:"annotations"`
}

// Annotations are the hints MCP hosts read to decide how to present a tool
// and whether to ask before running it, in MCP's shape. They come from the
// tool's registration (dialect.Tool): ReadOnlyHint is Tool.ReadOnly,
// DestructiveHint and IdempotentHint its Destructive and Idempotent.
// OpenWorldHint is false for every tool: they touch the repository's
// files only, never the network.
type Annotations struct {
	Title           string `json:"title"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	DestructiveHint bool   `json:"destructiveHint"`
	IdempotentHint  bool   `json:"idempotentHint"`
	OpenWorldHint   bool   `json:"openWorldHint"`
}

// Definitions returns the definitions of the named tools in that order,
// or of every tool (sorted) when names is empty. An unknown name is an
// error listing the known ones.
func Definitions(names ...string) ([]ToolDef, error) {
	if len(names) == 0 {
		names = Tools()
	}
	defs := make([]ToolDef, 0, len(names))
	for _, n := range names {
		t, err := lookup(n)
		if err != nil {
			return nil, err
		}
		defs = append(defs, ToolDef{
			Name:        n,
			Title:       t.Title,
			Description: strings.TrimSpace(t.Description),
			InputSchema: json.RawMessage(schemaOf(t)),
			Annotations: Annotations{
				Title:           t.Title,
				ReadOnlyHint:    t.ReadOnly(),
				DestructiveHint: t.Destructive,
				IdempotentHint:  t.Idempotent,
			},
		})
	}
	return defs, nil
}
