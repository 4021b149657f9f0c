package codeedit

import (
	"errors"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

// A SEARCH and a REPLACE both sent without indentation (every line at
// column 0) say nothing of nesting: a changed line takes the file's
// indentation of the line it stands in place of, not the first line's,
// and stays in its block (review of issue 25b, finding 2).
func TestFlattenedSearchKeepsNesting(t *testing.T) {
	content := "def f(a, b):\n    if b:\n        c()\n    d()\n"
	r, err := Match([]byte(content), "if b:\nc()\nd()\n", "if b:\nc2()\nd()\n")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := text.ApplyEdits([]byte(content), r.Edits)
	if want := "def f(a, b):\n    if b:\n        c2()\n    d()\n"; string(got) != want {
		t.Errorf("file after:\n%q\nwant\n%q\n(%s)", got, want, r.Message)
	}
}

// A SEARCH that is the tail of a line is not the file's lines: the
// shared ladder's exact stages find text anywhere, and a place that
// begins inside a line is not taken (review of issue 25b, finding 8: it
// was applied, the result saying "forgiving )").
func TestPartialLineIsNotAMatch(t *testing.T) {
	content := "x := 1\nkeep(); foo()\nbar()\n"
	r, err := Match([]byte(content), "foo()\nbar()\n", "baz()\nbar()\n")
	if !errors.Is(err, ErrNoMatch) {
		t.Fatalf("Match: %+v, %v; want ErrNoMatch", r, err)
	}
}
