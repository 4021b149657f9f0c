package ops_test

// The fuzz targets that send raw JSON arguments: one per tool, and one
// over every tool of the registry. Only the general oracles apply.

import (
	"testing"

	"github.com/git-edit/git-edit/ops"
)

// fuzzArgs runs tools[which % len] with raw arguments on f.txt holding
// content: only the general checks apply.
func fuzzArgs(f *testing.F, tools ...string) {
	env := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, content []byte, which uint8, args string) {
		r := env.get(t)
		r.reset(t, content)
		tool := tools[int(which)%len(tools)]
		c := r.run(t, tool, []byte(args), "")
		if reg, _ := registered(tool); c.moved && reg.ReadOnly() {
			t.Fatalf("read-only %s recorded a commit", tool)
		}
	})
}

// FuzzEveryToolArgs covers every tool of the registry, so a new dialect
// is fuzzed without a new target: its seeds are each tool's write call
// (Tool.WriteCall) and an empty object; mutated names that name no tool
// are skipped.
func FuzzEveryToolArgs(f *testing.F) {
	for _, tool := range ops.Registry() {
		f.Add([]byte("hello\nworld\n"), tool.Name, "{}")
		if tool.WriteCall != nil {
			f.Add([]byte("hello\nworld\n"), tool.Name, string(fuzzJSON(f, tool.WriteCall("f.txt", "world", "earth"))))
		}
	}
	env := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, content []byte, tool, args string) {
		reg, ok := registered(tool)
		if !ok {
			t.Skip("not a tool name") // mutated names
		}
		r := env.get(t)
		r.reset(t, content)
		if c := r.run(t, tool, []byte(args), ""); c.moved && reg.ReadOnly() {
			t.Fatalf("read-only %s recorded a commit", tool)
		}
	})
}

func FuzzTextEditorArgs(f *testing.F)  { fuzzArgs(f, "text_editor") }
func FuzzEditArgs(f *testing.F)        { fuzzArgs(f, "edit") }
func FuzzEditLinesArgs(f *testing.F)   { fuzzArgs(f, "edit_lines") }
func FuzzExactEditArgs(f *testing.F)   { fuzzArgs(f, "Edit", "MultiEdit", "Read") }
func FuzzCodeEditArgs(f *testing.F)    { fuzzArgs(f, "code_edit") }
func FuzzEditHistoryArgs(f *testing.F) { fuzzArgs(f, "edit_history") }
