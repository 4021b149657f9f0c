package editlines

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

// run parses args, plans against content and applies the edits, the way the
// caller does.
func run(t *testing.T, content, args string) (string, Planned, error) {
	t.Helper()
	a, err := Parse([]byte(args))
	if err != nil {
		return "", Planned{}, err
	}
	p, err := Plan(a.Path, []byte(content), a.Operations)
	if err != nil {
		return "", Planned{}, err
	}
	got, err := text.ApplyEdits([]byte(content), p.Edits)
	if err != nil {
		t.Fatalf("edits do not apply: %v (edits %+v)", err, p.Edits)
	}
	if n := text.LineCount(got); n != p.NewLineCount {
		t.Errorf("NewLineCount = %d, but the result has %d lines", p.NewLineCount, n)
	}
	return string(got), p, nil
}

// numbered returns "prefix1\nprefix2\n...prefixN\n".
func numbered(prefix string, from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		b.WriteString(prefix)
		b.WriteString(strconv.Itoa(i))
		b.WriteString("\n")
	}
	return b.String()
}

// seedApply is the seed's own algorithm (Implementation Notes): split on
// "\n", sort by position descending, splice, join with "\n". It is right for
// LF files whose operations do not touch the final newline, and serves as a
// cross-check of the seed's examples. getPosition is taken as startLine for
// ranges and afterLine+1 for inserts (after line 50 is "at" line 51). Two
// inserts after the same line come out in reverse input order here, which
// is one reason Plan does not splice.
func seedApply(content string, list []Operation) string {
	lines := strings.Split(content, "\n")
	pos := func(o Operation) int {
		if o.Op == OpInsert {
			return o.AfterLine + 1
		}
		return o.StartLine
	}
	sorted := append([]Operation(nil), list...)
	for i := 1; i < len(sorted); i++ { // insertion sort: stable, descending
		for j := i; j > 0 && pos(sorted[j]) > pos(sorted[j-1]); j-- {
			sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
		}
	}
	splice := func(start, deleteCount int, insert []string) {
		out := make([]string, 0, len(lines)-deleteCount+len(insert))
		out = append(out, lines[:start]...)
		out = append(out, insert...)
		out = append(out, lines[start+deleteCount:]...)
		lines = out
	}
	for _, o := range sorted {
		switch o.Op {
		case OpReplace:
			splice(o.StartLine-1, o.EndLine-o.StartLine+1, o.Content)
		case OpInsert:
			splice(o.AfterLine, 0, o.Content)
		case OpDelete:
			splice(o.StartLine-1, o.EndLine-o.StartLine+1, nil)
		}
	}
	return strings.Join(lines, "\n")
}

// seedPart is the seed's text of a refusal: an *Error's Text, without the
// help that follows it; any other error's whole text.
func seedPart(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Text
	}
	return err.Error()
}
