package codeedit

import (
	"errors"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

// After aider's own stages, a SEARCH block climbs the rest of the shared
// ladder (ops/match), and the replacement is adapted the way it matched;
// similarity stays off (the seed's SEARCH must match character for
// character). Exact bytes of the file after the edit.
func TestLaterStages(t *testing.T) {
	tests := []struct {
		name, content, search, replace string
		stage, matched, want           string
		err                            error
	}{
		{
			name:    "Cline/Roo: curly quotes in the file, straight in search; the unchanged line keeps the file's",
			content: "say(“hi”)\nx = 1\n",
			search:  "say(\"hi\")\nx = 1\n",
			replace: "say(\"hi\")\nx = 2\n",
			stage:   "unicode", matched: "unicode: curly quotes on line 1",
			want: "say(“hi”)\nx = 2\n",
		},
		{
			name:    "OpenCode whitespace-normalized: runs of spaces inside lines",
			content: "a  =  1\nb = 2\n",
			search:  "a = 1\nb = 2\n",
			replace: "a = 1\nb = 3\n",
			stage:   "inner whitespace", matched: "inner whitespace: runs of spaces inside 1 line",
			want: "a  =  1\nb = 3\n",
		},
		{
			name:    "Gemini CLI edit corrector: over-escaped newlines and quotes",
			content: "print(\"a\")\nprint(\"b\")\n",
			search:  `print(\"a\")\nprint(\"b\")` + "\n",
			replace: `print(\"a\")\nprint(\"c\")` + "\n",
			stage:   "escapes",
			want:    "print(\"a\")\nprint(\"c\")\n",
		},
		{
			name:    "aider: each line's indentation off by a different amount",
			content: "  a\n      b\n    c\n",
			search:  "a\n  b\n c\n",
			replace: "a\n  b\n    bb\n c\n",
			stage:   "indentation", matched: "indentation: indentation off by different amounts on 3 lines (relative indentation kept)",
			want: "  a\n      b\n        bb\n    c\n",
		},
		{
			name:    "several places at a forgiven stage are refused, not the first taken",
			content: "f(‘x’)\ny\nf(‘x’)\ny\n",
			search:  "f('x')\ny\n",
			replace: "g()\n",
			err:     ErrAmbiguous,
		},
		{
			name:    "a typo is not forgiven (similarity off)",
			content: "def total(items):\n    s = 0\n    for it in items:\n        s += it.price\n    return s\n",
			search:  "def total(items):\n    s = 0\n    for it in items:\n        s += it.prices\n    return s\n",
			replace: "x\n",
			err:     ErrNoMatch,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Match([]byte(tt.content), tt.search, tt.replace)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("Match: %+v, %v; want %v", r, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := text.ApplyEdits([]byte(tt.content), r.Edits)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want || r.Stage != tt.stage {
				t.Fatalf("stage %q, file\n%q\nwant stage %q, file\n%q", r.Stage, got, tt.stage, tt.want)
			}
			if tt.matched != "" && r.Matched != tt.matched {
				t.Errorf("Matched %q, want %q", r.Matched, tt.matched)
			}
		})
	}
}
