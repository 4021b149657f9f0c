package codeedit

import (
	"slices"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

// apply runs Match and applies its edits.
func apply(t *testing.T, content, search, replace string) (string, Planned) {
	t.Helper()
	r, err := Match([]byte(content), search, replace)
	if err != nil {
		t.Fatalf("Match: %v", err)
	}
	out, err := text.ApplyEdits([]byte(content), r.Edits)
	if err != nil {
		t.Fatalf("ApplyEdits: %v", err)
	}
	return string(out), r
}

// plan runs Plan on an existing file and applies its edits.
func plan(t *testing.T, path, content, search, replace string) (string, Planned) {
	t.Helper()
	r, err := Plan(Edit{FilePath: path, Search: search, Replace: replace}, []byte(content), true)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	out, err := text.ApplyEdits([]byte(content), r.Edits)
	if err != nil {
		t.Fatalf("ApplyEdits: %v", err)
	}
	return string(out), r
}

// check compares bytes and the stage (and the first line when line > 0).
func check(t *testing.T, got string, r Planned, want, stage string, line int) {
	t.Helper()
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	if r.Stage != stage {
		t.Errorf("stage %q, want %q (message: %s)", r.Stage, stage, r.Message)
	}
	if line > 0 && r.Line != line {
		t.Errorf("line %d, want %d", r.Line, line)
	}
}

func sameInts(a, b []int) bool { return slices.Equal(a, b) }
