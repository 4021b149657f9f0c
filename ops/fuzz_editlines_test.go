package ops_test

// The fuzz target of edit_lines, and what README promises of it.

import (
	"strings"
	"testing"
)

var editLinesKinds = []string{"replace", "insert", "delete"}

// FuzzEditLines: a batch of up to 8 line operations on f.txt. Each 4 bytes
// of spec are one operation: its kind, two line numbers (signed bytes) and
// how many content strings it takes from pool (split at "\x1e").
func FuzzEditLines(f *testing.F) {
	env := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, content, spec []byte, pool string) {
		r := env.get(t)
		r.reset(t, content)
		strs := strings.Split(pool, "\x1e")
		next := 0
		take := func(k int) []string {
			out := []string{}
			for range k {
				out = append(out, strs[next%len(strs)])
				next++
			}
			return out
		}
		var ops []elOp
		for i := 0; i+4 <= len(spec) && len(ops) < 8; i += 4 {
			op := elOp{kind: editLinesKinds[int(spec[i])%3], a: int(int8(spec[i+1])), b: int(int8(spec[i+2]))}
			if op.kind != "delete" {
				op.content = take(int(spec[i+3]) % 4)
			}
			ops = append(ops, op)
		}
		var list []any
		for _, op := range ops {
			m := map[string]any{"op": op.kind}
			switch op.kind {
			case "replace":
				m["startLine"], m["endLine"], m["content"] = op.a, op.b, op.content
			case "insert":
				m["afterLine"], m["content"] = op.a, op.content
			case "delete":
				m["startLine"], m["endLine"] = op.a, op.b
			}
			list = append(list, m)
		}
		if list == nil {
			list = []any{}
		}
		c := r.run(t, "edit_lines", fuzzJSON(t, map[string]any{"path": "f.txt", "operations": list}), "f.txt")

		var x expectation
		s := string(content)
		switch {
		case isBinary(content):
			x = mustRefuse()
		case plainLF(content) && (s == "" || strings.HasSuffix(s, "\n")):
			x = editLinesExpectation(s, ops)
		}
		x.check(t, c, content)
	})
}

// elOp is one generated edit_lines operation; a and b are startLine and
// endLine, or afterLine (a) for an insert.
type elOp struct {
	kind    string
	a, b    int
	content []string
}

// editLinesExpectation is the result of ops on s, an LF file that is empty
// or ends with "\n", as README states it: all line numbers refer to the
// file before the batch; ranges sharing a line, or an insert after a line a
// range removes, overlap; inserts after the same line keep their order and
// come before the lines of a range starting on the next line.
func editLinesExpectation(s string, ops []elOp) expectation {
	lines := splitLines(s)
	n := len(lines)
	if len(ops) == 0 {
		return mustRefuse()
	}
	for _, op := range ops {
		switch {
		case op.kind == "insert" && (op.a < 0 || op.a > n):
			return mustRefuse()
		case op.kind != "insert" && (op.a < 1 || op.b < op.a || op.b > n):
			return mustRefuse()
		}
	}
	covered := make([]int, n+2) // how many ranges cover each line
	for _, op := range ops {
		if op.kind != "insert" {
			for l := op.a; l <= op.b; l++ {
				if covered[l]++; covered[l] > 1 {
					return mustRefuse()
				}
			}
		}
	}
	for _, op := range ops {
		if op.kind == "insert" && op.a >= 1 && covered[op.a] > 0 {
			return mustRefuse()
		}
	}
	text := func(content []string) string {
		if len(content) == 0 {
			return ""
		}
		var sb strings.Builder
		for _, l := range strings.Split(strings.Join(sentAll(content), "\n"), "\n") {
			sb.WriteString(l + "\n")
		}
		return sb.String()
	}
	var out strings.Builder
	for at := 0; at <= n; at++ { // at: lines of the original emitted so far
		for _, op := range ops {
			if op.kind == "insert" && op.a == at {
				out.WriteString(text(op.content))
			}
		}
		if at == n {
			break
		}
		line := at + 1
		if covered[line] == 0 {
			out.WriteString(lines[at])
			continue
		}
		for _, op := range ops {
			if op.kind == "replace" && op.a == line {
				out.WriteString(text(op.content))
			}
		}
	}
	return mustBecome(out.String())
}

func sentAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = sent(s)
	}
	return out
}
