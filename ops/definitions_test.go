package ops_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

// Every tool has a definition whose schema is a JSON object schema that
// marks required fields and gives every property a type (or a $ref).
func TestDefinitionsCoverEveryTool(t *testing.T) {
	defs, err := ops.Definitions()
	if err != nil {
		t.Fatal(err)
	}
	if len(defs) != len(ops.Tools()) {
		t.Fatalf("%d definitions for %d tools", len(defs), len(ops.Tools()))
	}
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	for i, d := range defs {
		if d.Name != ops.Tools()[i] || d.Description == "" || strings.HasPrefix(d.Description, "\n") {
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
		// What the schema requires, the dialect's parser requires too: an
		// empty object is refused naming a required field.
		for _, r := range schema.Required {
			if schema.Properties[r] == nil {
				t.Errorf("%s: required %q is not a property", d.Name, r)
			}
		}
		if len(schema.Required) > 0 {
			res, err := ops.Call(context.Background(), ops.Options{Root: dir, Session: "s"}, d.Name, []byte("{}"))
			if err != nil || res.OK || !slices.ContainsFunc(schema.Required, func(r string) bool { return strings.Contains(res.Text, r) }) {
				t.Errorf("%s: {} was not refused naming one of %v: %v %s", d.Name, schema.Required, err, res.Text)
			}
		}
		for name, raw := range schema.Properties {
			var p map[string]any
			json.Unmarshal(raw, &p)
			if p["type"] == nil && p["$ref"] == nil {
				t.Errorf("%s.%s has no type", d.Name, name)
			}
		}
	}
	if _, err := ops.Definitions("Edit", "nope"); !errors.Is(err, ops.ErrUnknownTool) {
		t.Fatalf("unknown tool: %v", err)
	}
}
