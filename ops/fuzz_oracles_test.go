package ops_test

// The oracles every fuzzed call must pass, whatever its input (run applies
// them all):
//
//   - ops.Call never panics, and returns an error only for an unknown
//     tool; the result object marshals to JSON in its dialect's shape
//     (checkResultShape);
//   - a refused call (Result.OK false) changes nothing: every worktree
//     file's bytes and mode, and the session ref, are as before; a
//     successful call that leaves the session ref alone changed nothing; a
//     call that moved the ref changed some file (checkRecorded);
//   - a successful call that moved the ref is reverted by engine Undo (Redo
//     when the call was itself an undo_edit), which must bring back exactly
//     the worktree as it was before the call (revert).
//
// Where an input is simple enough to know the answer, a target adds an
// expectation (fuzz_expect_test.go).

import (
	"context"
	"encoding/json"
	"maps"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/ops/dialect"
)

// checkResultShape checks a result is a JSON object in its dialect's shape,
// refusals with a message.
func checkResultShape(t *testing.T, tool string, args []byte, res ops.Result) {
	t.Helper()
	raw, err := json.Marshal(res.Value)
	if err != nil {
		t.Fatalf("%s %s: the result does not marshal: %v", tool, quoteArgs(args), err)
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatalf("%s %s: the result is not a JSON object: %s", tool, quoteArgs(args), raw)
	}
	if !res.OK && strings.TrimSpace(res.Text) == "" {
		t.Fatalf("%s %s: refused without a message: %s", tool, quoteArgs(args), raw)
	}
	reg, ok := registered(tool)
	if !ok {
		t.Fatalf("%s is not in ops.Registry(): a tool the tests do not know", tool)
	}
	bad := reg.Succeeded(obj) != res.OK
	if bad {
		t.Fatalf("%s %s: OK=%v but the result says %s", tool, quoteArgs(args), res.OK, raw)
	}
}

// registered finds tool in ops.Registry().
func registered(tool string) (dialect.Tool, bool) {
	for _, t := range ops.Registry() {
		if t.Name == tool {
			return t, true
		}
	}
	return dialect.Tool{}, false
}

// checkRecorded checks that the session ref and the worktree agree with
// the result: a refusal moved nothing and wrote nothing, a success that
// recorded nothing wrote nothing, and a recorded commit changed a file.
func checkRecorded(t *testing.T, c fuzzCall) {
	t.Helper()
	switch {
	case !c.res.OK && c.moved:
		t.Fatalf("%s %s: refused (%s), yet the session ref moved %s -> %s", c.tool, quoteArgs(c.args), c.res.Text, c.refBefore, c.refAfter)
	case !c.res.OK && !maps.Equal(c.before, c.after):
		t.Fatalf("%s %s: refused (%s), yet the worktree changed:\n%s", c.tool, quoteArgs(c.args), c.res.Text, worktreeDiff(c.before, c.after))
	case c.res.OK && !c.moved && !maps.Equal(c.before, c.after):
		t.Fatalf("%s %s: succeeded without recording anything (%s), yet the worktree changed:\n%s", c.tool, quoteArgs(c.args), c.res.Text, worktreeDiff(c.before, c.after))
	case c.moved && maps.Equal(c.before, c.after) && c.tool != "edit_checkpoint":
		t.Fatalf("%s %s: recorded a commit without changing any file (%s)", c.tool, quoteArgs(c.args), c.res.Text)
	}
}

// revert undoes c (or, if c was itself an undo, redoes what it undid) and
// checks the worktree is exactly as before c.
func (r *fuzzRepo) revert(t *testing.T, c fuzzCall, path string) {
	t.Helper()
	e, err := ops.Open(r.opts)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	log, err := e.Log(1, nil, false)
	if err != nil || len(log) != 1 {
		t.Fatalf("log of the session after %s %s: %v %v", c.tool, quoteArgs(c.args), log, err)
	}
	what, op := "Undo", e.Undo
	switch log[0].Op {
	case "undo":
		what, op = "Redo", e.Redo
	case "edit", "redo", "rollback": // the history tools' commits undo as edits do
	default:
		t.Fatalf("%s %s: the session's newest commit is a %q commit, not the edit", c.tool, quoteArgs(c.args), log[0].Op)
	}
	tip := r.tip(t)
	rev, err := op(context.Background(), path, false)
	if err != nil {
		t.Fatalf("%s %s succeeded (%s); then %s(%q) failed: %v", c.tool, quoteArgs(c.args), c.res.Text, what, path, err)
	}
	if got := r.files(t); !maps.Equal(got, c.before) {
		t.Fatalf("%s %s, then %s(%q) (%v): the worktree is not as before the call:\n%s", c.tool, quoteArgs(c.args), what, path, rev.Paths, worktreeDiff(c.before, got))
	}
	if r.tip(t) == tip {
		t.Fatalf("%s(%q) after %s %s restored the files without recording a commit", what, path, c.tool, quoteArgs(c.args))
	}
}
