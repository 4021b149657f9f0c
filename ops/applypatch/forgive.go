package applypatch

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Forgiven is one thing the patch got wrong that was forgiven (a hunk
// matched other than exactly, a patch read more loosely than Codex's
// grammar), or one ambiguity resolved Codex's way: what the result says
// and, when something was forgiven, what the Edit-Match trailer records.
type Forgiven struct {
	// Text is the sentence the result adds after the list of files.
	Text string
	// Trailer is "<stage>: <what was forgiven>" for dialect.Plan.Matched
	// (the Edit-Match trailer); "" for an ambiguity resolved as Codex does,
	// which forgives nothing.
	Trailer string
}

// hunkNote says how hunk n.hi of op was placed at line n.at (0-based): at
// tolerance n.t, its lines n.old found as the file's n.matched, with
// h.Bare context lines read without their leading space, n.early when
// found before the previous hunk's lines, and n.also the further places
// its lines occur.
//
// Its sentence is the result's; its Trailer "<stage>: hunk N of PATH at
// line L, <what>" the Edit-Match trailer's.
func hunkNote(op FileOp, n noted) Forgiven {
	hi, at, t, old, matched, h, early, also := n.hi, n.at, n.t, n.old, n.matched, n.h, n.early, n.also
	var forgave []string
	counts := map[tolerance]int{}
	for j := range old {
		if j < len(matched) {
			if l := lowest(old[j], matched[j]); l != exact {
				counts[l]++
			}
		}
	}
	for _, l := range ladder {
		if n := counts[l]; n > 0 {
			forgave = append(forgave, l.forgave()+" on "+plural(n, "line"))
		}
	}
	if n.split > 0 {
		forgave = append(forgave, "a literal \\n written for a line break on "+plural(n.split, "patch line"))
	}
	if h.Bare > 0 {
		forgave = append(forgave, "a missing leading space on "+plural(h.Bare, "context line"))
	}
	where := fmt.Sprintf("Hunk %d of %s matched at line %d", hi+1, op.Path, at+1)
	if len(old) == 0 {
		where = fmt.Sprintf("Hunk %d of %s was inserted at line %d", hi+1, op.Path, at+1)
	}
	var sb strings.Builder
	sb.WriteString(where)
	if len(forgave) > 0 {
		sb.WriteString(" ignoring " + strings.Join(forgave, " and "))
	}
	switch {
	case n.asSent:
		sb.WriteString("; its added lines were written as sent (their indentation could not be adapted to the file's: check them)")
	case n.reindented:
		sb.WriteString("; its added lines were re-indented as the file indents the lines they follow")
	}
	if t == escapes && slices.ContainsFunc(h.Lines, func(l Line) bool { return l.Op == '+' && strings.Contains(l.Text, `\t`) }) {
		sb.WriteString("; the literal \\t in its added lines were written as tabs")
	}
	sb.WriteString(".")
	if early {
		sb.WriteString(" It was found before the lines of the hunk before it (the hunks were out of file order).")
		forgave = append(forgave, "the hunks out of file order")
	}
	if len(also) > 0 {
		nums := make([]string, len(also))
		for i, a := range also {
			nums[i] = strconv.Itoa(a + 1)
		}
		more := ""
		if len(also) == maxOthers {
			more = " and maybe more"
		}
		fmt.Fprintf(&sb, " Its lines also occur at %s %s%s; as Codex does, the first place after the previous hunk was changed. If you meant another, undo this edit and send the hunk with an '@@' header naming a line just before that place.",
			map[bool]string{true: "line", false: "lines"}[len(also) == 1], strings.Join(nums, ", "), more)
	}
	f := Forgiven{Text: sb.String()}
	if len(forgave) > 0 {
		stage := t.stageName()
		switch {
		case t == exact && n.split > 0:
			stage = escapes.stageName()
		case t == exact:
			stage = "patch"
		}
		f.Trailer = fmt.Sprintf("%s: hunk %d of %s at line %d, %s", stage, hi+1, op.Path, at+1, strings.Join(forgave, " and "))
	}
	return f
}

// hunksOverlap refuses a hunk found (out of file order) on lines that a
// hunk already placed changes or keeps.
func hunksOverlap(op FileOp, prev, here span) *Failure {
	return &Failure{Err: ErrOverlap, Path: op.Path, Hunk: here.hunk + 1, Message: fmt.Sprintf(
		"Failed to apply hunk %d of %s: its lines are not after those of hunk %d, and the only place they match, lines %d-%d, overlaps hunk %d's lines %d-%d. Nothing was changed: the whole patch was refused. Merge the two hunks into one, or re-read %s and send the patch again with each hunk's lines as they are now.",
		here.hunk+1, op.Path, here.hunk, here.from+1, here.to, prev.hunk+1, prev.from+1, prev.to, op.Path)}
}

func hasAdded(lines []Line) bool {
	for _, l := range lines {
		if l.Op == '+' {
			return true
		}
	}
	return false
}

// plural is "1 line", "2 lines".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// leading is s's indentation: its leading spaces and tabs.
func leading(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}
