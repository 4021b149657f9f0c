package applypatch

import (
	"errors"
	"strings"
	"testing"
)

// Hunks Codex's ladder finds nowhere climb the shared ladder's stages it
// lacks: runs of spaces inside a line (OpenCode's whitespace-normalized
// replacer), a block similar above the threshold with equal first and last
// lines (Cline's and OpenCode's anchored fallbacks: a typo in a middle
// line). The hunk's lines are written as the file has those they repeat.
func TestLadderPlacesWhatCodexCannot(t *testing.T) {
	runForgiveCases(t, []forgiveCase{
		{
			name:    "OpenCode: runs of spaces inside a line",
			files:   map[string]string{"a.py": "x  =  1\ny = 2\n"},
			patch:   "*** Begin Patch\n*** Update File: a.py\n@@\n x = 1\n-y = 2\n+y = 3\n*** End Patch",
			want:    map[string]string{"a.py": "x  =  1\ny = 3\n"},
			result:  "Success. Updated the following files:\nM a.py\nHunk 1 of a.py matched at line 1 at the matching ladder's inner whitespace stage, forgiving runs of spaces inside 1 line; its lines were written as the file has those it repeats.\n",
			matched: []string{"inner whitespace: hunk 1 of a.py at line 1, runs of spaces inside 1 line"},
		},
		{
			name:    "Cline/OpenCode anchors: a typo in a middle context line",
			files:   map[string]string{"t.go": "func total(items []Item) int {\n\ts := 0\n\tfor _, it := range items {\n\t\ts += it.Price\n\t}\n\treturn s\n}\n"},
			patch:   "*** Begin Patch\n*** Update File: t.go\n@@\n func total(items []Item) int {\n \ts := 0\n \tfor _, it := range itens {\n-\t\ts += it.Price\n+\t\ts += it.Price * it.Count\n \t}\n \treturn s\n }\n*** End Patch",
			want:    map[string]string{"t.go": "func total(items []Item) int {\n\ts := 0\n\tfor _, it := range items {\n\t\ts += it.Price * it.Count\n\t}\n\treturn s\n}\n"},
			result:  "Success. Updated the following files:\nM t.go\nHunk 1 of t.go matched at line 1 at the matching ladder's similarity stage, forgiving similar (98%): line 3 differs; its lines were written as the file has those it repeats.\n",
			matched: []string{"similarity: hunk 1 of t.go at line 1, similar (98%): line 3 differs"},
		},
	})
}

// A forgiven match found at several places is refused naming them; the
// patch changes nothing.
func TestLadderRefusesSeveralPlaces(t *testing.T) {
	in := map[string][]byte{"a.txt": []byte("a  =  1\nb\na   =  1\nb\nx\na\t=\t1\nb\n")}
	p, err := Parse("*** Begin Patch\n*** Update File: a.txt\n@@\n-a = 1\n+a = 2\n b\n*** End Patch")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Plan(p, state(p, in))
	const says = "forgiving runs of spaces inside 1 line (the matching ladder's inner whitespace stage) they occur at 3 places (lines 1, 3, 6), and a forgiven match is not chosen among several. Nothing was changed"
	if !errors.Is(err, ErrNoMatch) || !strings.Contains(err.Error(), says) {
		t.Fatalf("Plan: %v; want ErrNoMatch saying %q", err, says)
	}
}
