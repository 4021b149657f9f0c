package ops_test

// What the engine receives after JSON, and the exact expectations a
// target states where an input is simple enough to know the answer (an LF
// text file without a BOM, arguments as the engine receives them): the
// bytes README.md promises, or that the call must be refused.

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// fuzzJSON marshals generated arguments.
func fuzzJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sent is s as the engine receives it after a JSON round trip (invalid
// UTF-8 becomes U+FFFD).
func sent(s string) string {
	b, _ := json.Marshal(s)
	var out string
	_ = json.Unmarshal(b, &out)
	return out
}

// plainLF reports whether content is a text file whose exact results are
// simple to state: no "\r" anywhere, no BOM, no NUL.
func plainLF(content []byte) bool {
	return !bytes.ContainsAny(content, "\r\x00") && !bytes.HasPrefix(content, []byte("\uFEFF"))
}

// isBinary is git's test, which git-edit uses to refuse editing a file as
// text: a NUL byte in the first 8000 bytes.
func isBinary(content []byte) bool {
	return bytes.IndexByte(content[:min(len(content), 8000)], 0) >= 0
}

// lineCount counts lines as README says: text up to and including "\n".
func lineCount(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// splitLines splits s into lines, each with its "\n" (the last maybe not).
func splitLines(s string) []string {
	ls := strings.SplitAfter(s, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

func joinLines(ls []string) string { return strings.Join(ls, "") }

// occurrences lists where needle occurs in hay, overlapping ones included.
func occurrences(hay, needle string) []int {
	var offs []int
	for i := 0; needle != "" && i+len(needle) <= len(hay); i++ {
		if strings.HasPrefix(hay[i:], needle) {
			offs = append(offs, i)
		}
	}
	return offs
}

// expectation is what a call must do to a file (f.txt unless path says
// otherwise), when the input is simple enough to know: be refused, or
// succeed leaving exactly result.
type expectation struct {
	known  bool
	refuse bool
	result string
	path   string
}

func mustRefuse() expectation              { return expectation{known: true, refuse: true} }
func mustBecome(result string) expectation { return expectation{known: true, result: result} }

// at makes x about path.
func (x expectation) at(path string) expectation {
	x.path = path
	return x
}

// check compares a call with what was expected of it.
func (x expectation) check(t *testing.T, c fuzzCall, content []byte) {
	t.Helper()
	if !x.known {
		return
	}
	path := x.path
	if path == "" {
		path = "f.txt"
	}
	switch got := c.after.get(path); {
	case x.refuse && c.res.OK:
		t.Fatalf("%s %s on %s: succeeded (%s), must be refused", c.tool, quoteArgs(c.args), shorten(string(content)), c.res.Text)
	case !x.refuse && !c.res.OK:
		t.Fatalf("%s %s on %s: refused (%s), must succeed with %s = %s", c.tool, quoteArgs(c.args), shorten(string(content)), c.res.Text, path, shorten(x.result))
	case !x.refuse && got != x.result:
		t.Fatalf("%s %s on %s: %s is\n     %s\nwant %s", c.tool, quoteArgs(c.args), shorten(string(content)), path, shorten(got), shorten(x.result))
	}
}
