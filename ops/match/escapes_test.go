package match_test

import (
	"testing"

	"github.com/git-edit/git-edit/ops/match"
)

// TestEscapesUnescapeOnlyWhatTheNeedleHad: the replacement is read
// unescaped only in the kinds of escape the needle was over-escaped in
// (review of issue 25: a needle over-escaped in its quotes turned the
// replacement's `\n` inside a string literal into a line break, and its
// `\t` into a tab).
func TestEscapesUnescapeOnlyWhatTheNeedleHad(t *testing.T) {
	for _, c := range []struct {
		name, content, needle, repl, want string
	}{
		{"quotes over-escaped; the replacement's \\n stays in its string literal",
			"say(\"hi\")\n", `say(\"hi\")`, `say(\"hi\n\")`, "say(\"hi\\n\")\n"},
		{"quotes over-escaped; the replacement's \\t stays",
			"say(\"hi\")\n", `say(\"hi\")`, `say(\"a\tb\")`, "say(\"a\\tb\")\n"},
		{"newlines over-escaped; the replacement's \\\" stays",
			"a\nb\n", `a\nb`, `a\n\"b\"`, "a\n\\\"b\\\"\n"},
		{"Gemini CLI editCorrector: both kinds in the needle, both read in the replacement",
			"x = \"1\"\ny\n", `x = \"1\"\ny`, `x = \"2\"\nz`, "x = \"2\"\nz\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := match.Find([]byte(c.content), c.needle, match.All)
			if err != nil {
				t.Fatalf("Find: %v", err)
			}
			if m.Stage != match.Escapes || m.Count != 1 {
				t.Fatalf("stage %v, %d places; want escapes, 1", m.Stage, m.Count)
			}
			p := m.Places[0]
			got := c.content[:p.Start] + m.Replacement(0, c.repl) + c.content[p.End:]
			if got != c.want {
				t.Fatalf("file after = %q, want %q", got, c.want)
			}
		})
	}
}
