package engine_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/engine"
)

// Every tool has a definition whose schema is a JSON object schema that
// marks required fields and gives every property a type (or a $ref).
func TestDefinitionsCoverEveryTool(t *testing.T) {
	defs, err := engine.Definitions()
	if err != nil {
		t.Fatal(err)
	}
	if len(defs) != len(engine.Tools()) {
		t.Fatalf("%d definitions for %d tools", len(defs), len(engine.Tools()))
	}
	required := map[string][]string{
		"text_editor": {"command", "path"}, "edit": {"command", "arguments"}, "edit_lines": {"path", "operations"},
		"Edit": {"file_path", "old_string", "new_string"}, "MultiEdit": {"file_path", "edits"}, "Read": {"file_path"},
		"code_edit": nil, "edit_history": nil,
	}
	for i, d := range defs {
		if d.Name != engine.Tools()[i] || d.Description == "" || strings.HasPrefix(d.Description, "\n") {
			t.Errorf("definition %d: %q %q", i, d.Name, d.Description)
		}
		var schema struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
			Additional *bool                      `json:"additionalProperties"`
		}
		if err := json.Unmarshal(d.InputSchema, &schema); err != nil {
			t.Fatalf("%s: schema is not JSON: %v", d.Name, err)
		}
		if schema.Type != "object" || len(schema.Properties) == 0 || schema.Additional == nil || *schema.Additional {
			t.Errorf("%s: schema must be a closed object with properties: %s", d.Name, d.InputSchema)
		}
		if strings.Join(schema.Required, ",") != strings.Join(required[d.Name], ",") {
			t.Errorf("%s: required %v, want %v", d.Name, schema.Required, required[d.Name])
		}
		for name, raw := range schema.Properties {
			var p map[string]any
			json.Unmarshal(raw, &p)
			if p["type"] == nil && p["$ref"] == nil {
				t.Errorf("%s.%s has no type", d.Name, name)
			}
		}
	}
	if _, err := engine.Definitions("Edit", "nope"); !errors.Is(err, engine.ErrUnknownTool) {
		t.Fatalf("unknown tool: %v", err)
	}
}
