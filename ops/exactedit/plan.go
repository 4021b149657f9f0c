package exactedit

import (
	"errors"
	"fmt"
	"iter"
	"strconv"
	"strings"

	"github.com/git-edit/git-edit/ops/codeedit"
	"github.com/git-edit/git-edit/ops/text"
)

// Planned is a resolved Edit or MultiEdit.
type Planned struct {
	// Edits are byte spans over the content that was planned against, for
	// text.ApplyEdits, in increasing order and non-overlapping. There are
	// none when the edit would not change a byte (the caller reports "no
	// change").
	Edits []text.Edit
	// Replacements counts the occurrences replaced; for MultiEdit, summed
	// over its edits.
	Replacements int
	// Line is the 1-based line, in the content planned against, where the
	// first replaced text starts; for MultiEdit, where the changed bytes
	// start (0 when nothing changes).
	Line int
	// Notes tell the agent what was done beyond the plain request, such as
	// line-number prefixes removed from old_string. Nil when there are none.
	Notes []string
}

// PlanEdit plans replacing oldString by newString in content.
//
// Matching is text.FindExact's: exact, case- and whitespace-sensitive, except
// that in a CRLF file (text.DetectEOL) an old_string written with "\n"
// matches the file's "\r\n"; in a CRLF file new_string's lone "\n" are
// written as "\r\n" (text.ToEOL), so the file stays CRLF. Without replaceAll
// oldString must occur exactly once, overlapping occurrences counted (in
// "aaa", "aa" occurs twice). With replaceAll every non-overlapping
// occurrence is replaced, taken from left to right (as strings.ReplaceAll).
// An empty newString deletes.
//
// When oldString is not found and each of its lines starts with a Read
// line-number prefix (spaces, digits, a tab, as RenderRead shows it) with
// consecutive numbers, those prefixes are removed and the search is retried.
// If that matches, newString's prefixes are removed too when every one of its
// lines has one, and Notes say so.
//
// When the matched text equals the text to write (possible only through the
// CRLF or prefix allowances), Planned has no Edits.
//
// Errors, all *Failure: oldString empty (MsgEmptyOldString, ErrEmptyOldString),
// oldString == newString (MsgIdentical, ErrIdentical), not found (MsgNotFound,
// ErrNotFound), several occurrences without replaceAll (MsgMultiple,
// ErrAmbiguous; Details give the count and the lines).
func PlanEdit(content []byte, oldString, newString string, replaceAll bool) (Planned, error) {
	switch {
	case oldString == "":
		return Planned{}, &Failure{Message: MsgEmptyOldString, Err: ErrEmptyOldString,
			Details: "Empty text cannot be located. Set old_string to the exact text to replace, copied from the file; to add text, put a neighbouring line in old_string and that line plus the addition in new_string"}
	case oldString == newString:
		return Planned{}, &Failure{Message: MsgIdentical, Err: ErrIdentical, Details: "No changes would be made"}
	}

	// The occurrences are never collected: a one-byte old_string may occur
	// at every byte, and what is kept of them (a count, the first, the
	// replaced text) is what bounds memory.
	var p Planned
	offs, matched, _ := text.FindExactSeq(content, oldString)
	first, found := firstOf(offs)
	if !found {
		// Text copied from Read output with its line-number prefixes:
		// retry without them (the seed's "Line Number Prefix Handling").
		stripped, example, ok := readPrefixes(oldString, true)
		if ok {
			offs, matched, _ = text.FindExactSeq(content, stripped)
			first, found = firstOf(offs)
		}
		if !found {
			return Planned{}, notFound(content, oldString)
		}
		p.Notes = append(p.Notes, fmt.Sprintf("old_string had Read line-number prefixes (e.g. %q); they were removed before matching", example))
		if s, _, ok := readPrefixes(newString, false); ok {
			newString = s
			p.Notes = append(p.Notes, "new_string had line-number prefixes too; they were removed from it as well")
		} else if anyPrefix(newString) {
			p.Notes = append(p.Notes, "new_string was written as given, line-number prefixes included: only some of its lines had one")
		}
	}

	if !replaceAll {
		if n, overlap, lines := text.DescribeOccurrences(content, offs, len(matched)); n > 1 {
			note := ""
			if overlap {
				note = " (some of them overlap)"
			}
			return Planned{}, &Failure{Message: MsgMultiple, Err: ErrAmbiguous,
				Details: fmt.Sprintf("Found %d occurrences%s, at %s. Use replace_all: true to replace all, or include more surrounding context to make old_string unique",
					n, note, lines)}
		}
	}

	repl := text.ToEOL(newString, text.DetectEOL(content))
	p.Edits, p.Replacements, _ = text.ReplaceAll(content, offs, len(matched), repl)
	p.Line = text.OccurrenceLines(content, []int{first})[0]
	return p, nil
}

// firstOf returns the first offset offs yields.
func firstOf(offs iter.Seq[int]) (int, bool) {
	for off := range offs {
		return off, true
	}
	return 0, false
}

// notFound words the refusal: the seed's text, what to do, a hint when
// old_string still carries line-number prefixes (whose removal did not help
// either), and the lines of content most like old_string with their first
// difference (codeedit.Nearest, as code_edit teaches).
func notFound(content []byte, oldString string) *Failure {
	d := "The specified old_string does not exist in the file. Read the file again and copy the exact text, including whitespace and indentation"
	if _, example, ok := readPrefixes(oldString, false); ok {
		d += fmt.Sprintf(". Its lines start with Read line-number prefixes (e.g. %q), which are not part of the file; it does not match without them either", example)
	}
	f := &Failure{Message: MsgNotFound, Err: ErrNotFound}
	if near := codeedit.Nearest(content, oldString, "old_string"); near != "" {
		f.tail = "\n" + near
	}
	f.Details = d + f.tail
	return f
}

// PlanMultiEdit plans edits in order, each as PlanEdit against the content
// the previous ones produce, all or nothing. It returns at most one span:
// the window of content that differs from the final content (their common
// prefix and suffix left out), so the caller applies a MultiEdit like any
// other edit. When the final content equals content there are no Edits.
// Replacements are summed; each edit's Notes are kept, prefixed with "edit
// N of M: ".
//
// The first edit that fails fails the call: its *Failure comes back with
// Message "Edit N of M failed: <its Message>" (N 1-based), its Details
// extended to say that nothing was applied, and the same Err. An empty edits
// is refused as MsgInvalidArgs.
func PlanMultiEdit(content []byte, edits []EditArgs) (Planned, error) {
	if len(edits) == 0 {
		return Planned{}, invalid(`"edits" is empty; give at least one {"old_string", "new_string"} object`)
	}
	var p Planned
	cur := content
	for i, e := range edits {
		step, err := PlanEdit(cur, e.OldString, e.NewString, e.ReplaceAll)
		if err != nil {
			return Planned{}, multiFailure(i, len(edits), err)
		}
		if cur, err = text.ApplyEdits(cur, step.Edits); err != nil {
			// PlanEdit's spans always apply; this would be a bug here.
			return Planned{}, fmt.Errorf("edit %d of %d: %w", i+1, len(edits), err)
		}
		p.Replacements += step.Replacements
		for _, n := range step.Notes {
			p.Notes = append(p.Notes, fmt.Sprintf("edit %d of %d: %s", i+1, len(edits), n))
		}
	}

	pre := 0
	for pre < len(content) && pre < len(cur) && content[pre] == cur[pre] {
		pre++
	}
	suf := 0
	for suf < len(content)-pre && suf < len(cur)-pre && content[len(content)-1-suf] == cur[len(cur)-1-suf] {
		suf++
	}
	if pre == len(content) && pre == len(cur) {
		return p, nil
	}
	p.Edits = []text.Edit{{Start: pre, End: len(content) - suf, New: string(cur[pre : len(cur)-suf])}}
	p.Line = text.OccurrenceLines(content, []int{pre})[0]
	return p, nil
}

// multiFailure names edit i (0-based) of n in its failure. A later edit is
// matched against the earlier edits' result, which surprises agents who
// copied old_string from the file as they read it, so the details say so.
func multiFailure(i, n int, err error) error {
	var f *Failure
	if !errors.As(err, &f) {
		return fmt.Errorf("edit %d of %d: %w", i+1, n, err)
	}
	d := strings.TrimSuffix(f.Details, f.tail) // sentences go before the closest lines
	if i > 0 && (errors.Is(f.Err, ErrNotFound) || errors.Is(f.Err, ErrAmbiguous)) {
		earlier := "edit 1 leaves"
		switch {
		case i == 2:
			earlier = "edits 1 and 2 leave"
		case i > 2:
			earlier = fmt.Sprintf("edits 1 to %d leave", i)
		}
		d += fmt.Sprintf(". Edit %d is matched against the file as %s it", i+1, earlier)
	}
	if n > 1 {
		d += fmt.Sprintf(". None of the %d edits was applied; send them all again with edit %d fixed", n, i+1)
	}
	return &Failure{Message: fmt.Sprintf("Edit %d of %d failed: %s", i+1, n, f.Message), Details: d + f.tail, Err: f.Err, tail: f.tail}
}

// readPrefixes removes the Read line-number prefix (`^ *[0-9]+\t`, the
// `cat -n` form RenderRead writes) from each line of s. ok is false unless s
// has at least one line and every line has a prefix; with consecutive, the
// numbers must also count up by one, as in a copied run of Read output, so
// that text which merely starts with numbers and tabs is not mistaken for
// it. example is the first prefix. A line is text up to and including "\n";
// text after a final "\n" is no line.
func readPrefixes(s string, consecutive bool) (stripped, example string, ok bool) {
	if s == "" {
		return "", "", false
	}
	var b strings.Builder
	b.Grow(len(s))
	prev := 0
	for i, rest := 0, s; rest != ""; i++ {
		line := rest
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			line = rest[:nl+1]
		}
		rest = rest[len(line):]
		n, num, has := prefixLen(line)
		if !has || (consecutive && i > 0 && num != prev+1) {
			return "", "", false
		}
		if i == 0 {
			example = line[:n]
		}
		prev = num
		b.WriteString(line[n:])
	}
	return b.String(), example, true
}

// anyPrefix reports whether some line of s has a Read line-number prefix.
func anyPrefix(s string) bool {
	for _, line := range strings.SplitAfter(s, "\n") {
		if _, _, has := prefixLen(line); has {
			return true
		}
	}
	return false
}

// prefixLen returns the length of line's Read prefix (spaces, ASCII digits,
// one tab) and its number; has is false when line has none, or a number too
// large to be a line number.
func prefixLen(line string) (n, num int, has bool) {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	d := i
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i == d || i >= len(line) || line[i] != '\t' {
		return 0, 0, false
	}
	num, err := strconv.Atoi(line[d:i])
	if err != nil {
		return 0, 0, false
	}
	return i + 1, num, true
}
