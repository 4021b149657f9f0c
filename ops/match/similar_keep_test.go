package match_test

import (
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/match"
)

// TestSimilarKeepsTheLinesTheNeedleSkipped: a block matched at Similar
// whose file lines include one the agent's text skipped keeps that line
// whatever the replacement does around it (review of issue 25: a
// 12-line function quoted without its 4th line lost that line when the
// replacement rewrote or deleted the block). The agent never saw it; it
// stays right after the nearest earlier file line the replacement keeps.
func TestSimilarKeepsTheLinesTheNeedleSkipped(t *testing.T) {
	var file, needle strings.Builder
	file.WriteString("func alpha() {\n")
	needle.WriteString("func alpha() {\n")
	for i, w := range []string{"First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth", "Ninth", "Tenth"} {
		l := "\tcomputeThe" + w + "Value(argumentNumber" + w + ")\n"
		file.WriteString(l)
		needle.WriteString(l)
		if i == 1 {
			file.WriteString("\tIMPORTANT_UNSEEN_LINE_KEEP_ME()\n")
		}
	}
	file.WriteString("}\n")
	needle.WriteString("}\n")
	content := "// before\n" + file.String() + "// after\n"
	for _, c := range []struct{ name, repl, want string }{
		{"the block rewritten", "func alpha() {\n\tdone()\n}\n", "// before\nfunc alpha() {\n\tIMPORTANT_UNSEEN_LINE_KEEP_ME()\n\tdone()\n}\n// after\n"},
		{"the block deleted", "", "// before\n\tIMPORTANT_UNSEEN_LINE_KEEP_ME()\n// after\n"},
		{"the block kept with one line changed", strings.Replace(needle.String(), "Fifth", "5th", 2),
			"// before\n" + strings.Replace(file.String(), "Fifth", "5th", 2) + "// after\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := match.Find([]byte(content), needle.String(), match.All)
			if err != nil {
				t.Fatalf("Find: %v", err)
			}
			if m.Stage != match.Similar || m.Count != 1 {
				t.Fatalf("stage %v, %d places; want similarity, 1", m.Stage, m.Count)
			}
			p := m.Places[0]
			if got := content[:p.Start] + m.Replacement(0, c.repl) + content[p.End:]; got != c.want {
				t.Fatalf("file after =\n%q\nwant\n%q", got, c.want)
			}
		})
	}
}
