package engine

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
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
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
		defs = append(defs, ToolDef{Name: n, Description: strings.TrimSpace(t.Description), InputSchema: json.RawMessage(t.Schema)})
	}
	return defs, nil
}
