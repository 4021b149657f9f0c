package applypatch

import (
	"errors"
	"testing"
)

// A hunk whose lines occur only inside a line of the file (the shared
// ladder's Exact stage and Escapes' exact try search text anywhere) is
// not placed there: it is refused, and the bytes before the text are
// never deleted (review of issue 25b, finding 1: they were).
func TestLadderKeepsTheRestOfALine(t *testing.T) {
	cases := []struct{ name, patch, file, prefix string }{
		{"exact stage inside a line", "*** Begin Patch\n*** Update File: a.go\n@@\n-foo()\n+baz()\n bar()\n*** End Patch", "x := 1\nkeep_prefix(); foo()\nbar()\n", "keep_prefix(); "},
		{"escapes stage inside a line", "*** Begin Patch\n*** Update File: a.go\n@@\n-foo(\"a\\tb\")\n+baz()\n*** End Patch", "x := 1\nkeep(); foo(\"a\tb\")\nbar()\n", "keep(); "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := map[string][]byte{"a.go": []byte(c.file)}
			p, err := Parse(c.patch)
			if err != nil {
				t.Fatal(err)
			}
			changes, sum, err := Plan(p, state(p, in))
			if !errors.Is(err, ErrNoMatch) {
				t.Fatalf("Plan: %v; want ErrNoMatch", err)
			}
			if changes != nil {
				t.Fatalf("a.go after: %q\nthe bytes %q before the matched text on line 2; result: %s", applyChanges(t, in, changes)["a.go"], c.prefix, sum.Text())
			}
		})
	}
}
