package exactedit

import (
	"errors"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/git-edit/git-edit/ops/codeedit"
	"github.com/git-edit/git-edit/ops/match"
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
	// Forgiven is the sentence the result adds when the ladder matched
	// old_string other than exactly ("" otherwise); for MultiEdit, one per
	// such edit, joined.
	Forgiven string
	// Matched has one "<stage>: <what was forgiven>" per place matched
	// other than exactly (dialect.Plan.Matched, the Edit-Match trailers).
	Matched []string
	// Filled: an empty old_string filled a file without text.
	Filled bool
}

// Stages are the ladder's tolerant stages Edit and MultiEdit try when
// old_string is not found exactly, nor without Read line-number prefixes:
// all of them. The seed asks for an exact match, and every exact match is
// still taken first and alone; a tolerant match only turns what would be
// "String not found in file" into an edit, and says what it forgave (the
// result and the Edit-Match trailer), so an agent that relied on exactness
// is told. Uniqueness is checked at the winning stage as at Exact.
var Stages = match.All

// PlanEdit plans replacing oldString by newString in content: Plan with
// no expected count and no line hint.
func PlanEdit(content []byte, oldString, newString string, replaceAll bool) (Planned, error) {
	return Plan(content, EditArgs{OldString: oldString, NewString: newString, ReplaceAll: replaceAll})
}

// Plan plans one Edit (a's FilePath is not used) against content.
//
// Matching is text.FindExact's first: exact, case- and whitespace-sensitive,
// except that in a CRLF file (text.DetectEOL) an old_string written with
// "\n" matches the file's "\r\n"; in a CRLF file new_string's lone "\n" are
// written as "\r\n" (text.ToEOL), so the file stays CRLF. Without ReplaceAll
// oldString must occur exactly once, overlapping occurrences counted (in
// "aaa", "aa" occurs twice). With ReplaceAll every non-overlapping
// occurrence is replaced, taken from left to right (as strings.ReplaceAll).
// An empty NewString deletes.
//
// When OldString is not found and each of its lines starts with a Read
// line-number prefix (spaces, digits, a tab, as RenderRead shows it) with
// consecutive numbers, those prefixes are removed and the search is retried.
// If that matches, NewString's prefixes are removed too when every one of its
// lines has one, and Notes say so.
//
// When neither finds it, the matching ladder (match.Find with Stages) is
// climbed: the places of the first stage that matches are taken as exact
// occurrences are, each replaced by NewString adapted to it
// (match.Match.Replacement), and Planned.Forgiven and Planned.Matched say
// what was forgiven.
//
// ExpectedReplacements, when above 0, is the number of places the agent
// expects: the places found (overlapping ones counted) must be exactly that
// many, and all are replaced. Line, when above 0 and OldString matches at
// several places (without ReplaceAll or ExpectedReplacements), picks the
// place that starts on that line, or else the one nearest to it within
// match.HintWindow lines when no other is as near; a unique place is taken
// whatever Line says.
//
// An empty OldString on a file with no text (empty, or only a BOM) fills it
// with NewString as given (Planned.Filled); on any other file it is refused.
//
// When the matched text equals the text to write (possible only through the
// CRLF, prefix or ladder allowances), Planned has no Edits.
//
// Errors, all *Failure: OldString empty on a file with text
// (MsgEmptyOldString, ErrEmptyOldString), OldString == NewString
// (MsgIdentical, ErrIdentical), not found (MsgNotFound, ErrNotFound),
// several places without ReplaceAll and not picked by Line (MsgMultiple,
// ErrAmbiguous; Details give the count and the lines), a count other than
// ExpectedReplacements (MsgCountMismatch, ErrCountMismatch).
func Plan(content []byte, a EditArgs) (Planned, error) {
	p, _, err := plan(content, a)
	return p, err
}

// omission is the refusal of a newString with a placeholder line standing
// for lines of oldString it drops (match.Omission), or nil.
func omission(oldString, newString string) *Failure {
	n, l, found := match.Omission(oldString, newString)
	if !found {
		return nil
	}
	return &Failure{Message: MsgOmission, Err: ErrOmission,
		Details: fmt.Sprintf("Line %d of new_string, %q, stands for code it leaves out, and the edit would delete the lines it stands for. Send new_string in full, every line that should remain written out", n, strings.TrimSpace(l))}
}

// occurrence is one place an edit replaces, in the content it was planned
// against; MultiEdit tracks them to find edits that overlap.
type occurrence struct{ start, end, newLen int }

// plan is Plan; it also returns a sequence of the places replaced, in
// increasing order (yielded again on each range, holding none of them for
// an exact replace_all), for MultiEdit's overlap check.
func plan(content []byte, a EditArgs) (Planned, iter.Seq[occurrence], error) {
	oldString, newString := a.OldString, a.NewString
	switch {
	case oldString == "" && newString != "" && text.BOMLen(content) == len(content):
		// Claude Code's Edit fills an empty file (and creates a missing
		// one, which the tool does): nothing to locate, nothing to lose.
		if a.ExpectedReplacements > 1 {
			return Planned{}, nil, countMismatch(a.ExpectedReplacements, 1, "line 1", false)
		}
		e := text.Edit{Start: len(content), End: len(content), New: newString}
		p := Planned{Edits: []text.Edit{e}, Replacements: 1, Line: 1, Filled: true}
		return p, single(occurrence{e.Start, e.End, len(e.New)}), nil
	case oldString == "":
		return Planned{}, nil, &Failure{Message: MsgEmptyOldString, Err: ErrEmptyOldString,
			Details: "Empty text cannot be located. Set old_string to the exact text to replace, copied from the file; to add text, put a neighbouring line in old_string and that line plus the addition in new_string"}
	case oldString == newString:
		return Planned{}, nil, &Failure{Message: MsgIdentical, Err: ErrIdentical, Details: "No changes would be made"}
	}
	// A placeholder in new_string standing for lines it leaves out (Cline's
	// detectCodeOmission, aider's lazy comments) would delete them. The
	// agent's old_string, not the matched bytes, is compared: that covers
	// the exact and tolerant searches, replace_all and expected_replacements
	// at once (lines are compared trimmed, so forgiven whitespace does not
	// matter), and refuses before the file is searched.
	if f := omission(oldString, newString); f != nil {
		return Planned{}, nil, f
	}

	// The occurrences are never collected unless a choice among them needs
	// it: a one-byte old_string may occur at every byte, and what is kept
	// of them (a count, the first, the replaced text) is what bounds memory.
	var p Planned
	offs, matched, _ := text.FindExactSeq(content, oldString)
	first, found := firstOf(offs)
	if !found {
		// Text copied from Read output with its line-number prefixes:
		// retry without them (the seed's "Line Number Prefix Handling").
		if stripped, example, ok := readPrefixes(oldString, true); ok {
			if offs, matched, _ = text.FindExactSeq(content, stripped); anyOf(offs) {
				first, found = firstOf(offs)
				p.Notes = append(p.Notes, fmt.Sprintf("old_string had Read line-number prefixes (e.g. %q); they were removed before matching", example))
				if s, _, ok := readPrefixes(newString, false); ok {
					// The placeholder line had a prefix too; without
					// it, it is checked like any other.
					if f := omission(stripped, s); f != nil {
						return Planned{}, nil, f
					}
					newString = s
					p.Notes = append(p.Notes, "new_string had line-number prefixes too; they were removed from it as well")
				} else if anyPrefix(newString) {
					p.Notes = append(p.Notes, "new_string was written as given, line-number prefixes included: only some of its lines had one")
				}
			}
		}
	}
	if !found {
		return planLadder(content, a, p)
	}

	n, repl := len(matched), text.ToEOL(newString, text.DetectEOL(content))
	if a.ReplaceAll && a.ExpectedReplacements == 0 {
		p.Edits, p.Replacements, _ = text.ReplaceAll(content, offs, n, repl)
		p.Line = text.OccurrenceLines(content, []int{first})[0]
		return p, nonOverlapping(offs, n, len(repl)), nil
	}
	count, overlap, lines := text.DescribeOccurrences(content, offs, n)
	if count == 1 && a.ExpectedReplacements <= 1 {
		p.Edits, p.Replacements, _ = text.ReplaceAll(content, offs, n, repl)
		p.Line = text.OccurrenceLines(content, []int{first})[0]
		return p, single(occurrence{first, first + n, len(repl)}), nil
	}
	if a.ExpectedReplacements == 0 && a.Line == 0 {
		return Planned{}, nil, multiple(count, overlap, lines, "")
	}
	// An expected count or a line hint decides: the places are collected.
	var places []place
	x := text.NewLineIndex(content)
	for off := range offs {
		places = append(places, place{start: off, end: off + n, line: x.LineAt(off), endLine: x.LineAt(max(off, off+n-1)), repl: repl})
	}
	return finish(content, a, p, places, "")
}

// place is one place old_string matched, with the text to put there.
type place struct {
	start, end    int
	line, endLine int // the first and last lines of the place (1-based)
	repl          string
	forgave       string // what the ladder forgave there; "" when exact
}

// planLadder climbs the ladder for an old_string not found exactly.
func planLadder(content []byte, a EditArgs, p Planned) (Planned, iter.Seq[occurrence], error) {
	m, err := match.Find(content, a.OldString, Stages)
	if err != nil {
		return Planned{}, nil, notFound(content, a.OldString)
	}
	if m.Count > len(m.Places) {
		lines := make([]int, len(m.Places))
		for i, pl := range m.Places {
			lines[i] = pl.Line
		}
		return Planned{}, nil, &Failure{Message: MsgMultiple, Err: ErrAmbiguous, Details: fmt.Sprintf(
			"Found %d occurrences at the ladder's %s stage (none matches exactly), the first at %s: more than the %d places a near match may replace. Copy old_string exactly from the file, or include more surrounding context to make it unique",
			m.Count, m.Stage, text.DescribeLines(lines[:1]), match.MaxPlaces)}
	}
	places := make([]place, len(m.Places))
	for i, pl := range m.Places {
		places[i] = place{start: pl.Start, end: pl.End, line: pl.Line, endLine: pl.EndLine, repl: m.Replacement(i, a.NewString), forgave: pl.Forgave}
	}
	stage := ""
	if m.Stage != match.Exact {
		stage = m.Stage.String()
	}
	return finish(content, a, p, places, stage)
}

// finish chooses among places (in file order) as a asks and plans them;
// stage names the ladder's stage that found them ("" for exact).
func finish(content []byte, a EditArgs, p Planned, places []place, stage string) (Planned, iter.Seq[occurrence], error) {
	chosen, err := choose(places, a, stage)
	if err != nil {
		return Planned{}, nil, err
	}
	var forgave []string
	for _, pl := range chosen {
		if string(content[pl.start:pl.end]) != pl.repl {
			p.Edits = append(p.Edits, text.Edit{Start: pl.start, End: pl.end, New: pl.repl})
		}
		if stage != "" {
			p.Matched = append(p.Matched, stage+": "+pl.forgave)
			if pl.forgave != "" && !slices.Contains(forgave, pl.forgave) {
				forgave = append(forgave, pl.forgave)
			}
		}
	}
	if stage != "" {
		p.Forgiven = fmt.Sprintf("old_string was not found exactly; it matched at the ladder's %s stage", stage)
		if len(forgave) > 0 {
			p.Forgiven += ", forgiving " + strings.Join(forgave, "; ")
		}
		p.Forgiven += "."
	}
	p.Replacements, p.Line = len(chosen), chosen[0].line
	occ := func(yield func(occurrence) bool) {
		for _, pl := range chosen {
			if !yield(occurrence{pl.start, pl.end, len(pl.repl)}) {
				return
			}
		}
	}
	return p, occ, nil
}

// choose returns the places to replace: all of them for an expected count
// that matches, the non-overlapping ones from the left for replace_all, the
// only one, or the one a line hint picks. Otherwise it refuses.
func choose(places []place, a EditArgs, stage string) ([]place, error) {
	lines := make([]int, len(places))
	overlap := false
	for i, pl := range places {
		lines[i] = pl.line
		if i > 0 && pl.start < places[i-1].end {
			overlap = true
		}
	}
	switch {
	case a.ExpectedReplacements > 0:
		if len(places) != a.ExpectedReplacements || overlap {
			return nil, countMismatch(a.ExpectedReplacements, len(places), text.DescribeLines(lines), overlap)
		}
		return places, nil
	case a.ReplaceAll:
		var kept []place
		for _, pl := range places {
			if len(kept) == 0 || pl.start >= kept[len(kept)-1].end {
				kept = append(kept, pl)
			}
		}
		return kept, nil
	case len(places) == 1:
		return places, nil
	case a.Line > 0:
		return pick(places, a.Line, lines, overlap, stage)
	}
	return nil, multiple(len(places), overlap, text.DescribeLines(lines), stage)
}

// pick is the place a line hint picks (match.PickByHint: the one whose
// lines contain line, else the nearest within match.HintWindow lines, when
// no other is as near). Otherwise it refuses, saying why the hint did not
// decide.
func pick(places []place, line int, lines []int, overlap bool, stage string) ([]place, error) {
	i, miss := match.PickByHint(len(places), func(i int) (int, int) { return places[i].line, places[i].endLine }, line)
	if miss == match.HintPicked {
		return places[i : i+1], nil
	}
	f := multiple(len(places), overlap, text.DescribeLines(lines), stage)
	why := fmt.Sprintf("two of them are equally near line %d, the line given", line)
	if miss == match.HintTooFar {
		why = fmt.Sprintf("none is within %d lines of line %d, the line given", match.HintWindow, line)
	}
	f.Details = strings.Replace(f.Details, ". Use replace_all", "; "+why+". Give the line where the one to replace starts, use replace_all", 1)
	return nil, f
}

// multiple is the seed's "Multiple matches found" refusal of count places
// at lines; stage names the ladder's stage that found them ("" for exact).
func multiple(count int, overlap bool, lines, stage string) *Failure {
	note := ""
	if stage != "" {
		note = fmt.Sprintf(" at the ladder's %s stage (none matches exactly)", stage)
	}
	if overlap {
		note += " (some of them overlap)"
	}
	return &Failure{Message: MsgMultiple, Err: ErrAmbiguous,
		Details: fmt.Sprintf("Found %d occurrences%s, at %s. Use replace_all: true to replace all, or include more surrounding context to make old_string unique",
			count, note, lines)}
}

// countMismatch refuses a count of places other than expected_replacements.
func countMismatch(expected, found int, lines string, overlap bool) *Failure {
	if found == expected && overlap {
		return &Failure{Message: MsgCountMismatch, Err: ErrCountMismatch,
			Details: fmt.Sprintf("Expected %d occurrences and found %d, at %s, but some of them overlap, so they cannot all be replaced. Include more surrounding context in old_string so that each occurrence stands apart", expected, found, lines)}
	}
	return &Failure{Message: MsgCountMismatch, Err: ErrCountMismatch,
		Details: fmt.Sprintf("Expected %d %s but found %d, at %s. Set expected_replacements to %d if all of them are meant, or include more surrounding context in old_string to match only the ones you mean",
			expected, plural(expected, "occurrence", "occurrences"), found, lines, found)}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// single yields o.
func single(o occurrence) iter.Seq[occurrence] {
	return func(yield func(occurrence) bool) { yield(o) }
}

// nonOverlapping yields the occurrences text.ReplaceAll replaces: those at
// offs (n bytes each) that do not overlap the previous one kept.
func nonOverlapping(offs iter.Seq[int], n, newLen int) iter.Seq[occurrence] {
	return func(yield func(occurrence) bool) {
		last := -1
		for off := range offs {
			if off < last {
				continue
			}
			last = off + n
			if !yield(occurrence{off, off + n, newLen}) {
				return
			}
		}
	}
}

// anyOf reports whether offs yields anything.
func anyOf(offs iter.Seq[int]) bool {
	_, ok := firstOf(offs)
	return ok
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

// PlanMultiEdit plans a MultiEdit's edits in order, each as Plan against
// the content the previous ones produce, all or nothing. It returns at most
// one span: the window of content that differs from the final content
// (their common prefix and suffix left out), so the caller applies a
// MultiEdit like any other edit. When the final content equals content
// there are no Edits. Replacements are summed; each edit's Notes are kept,
// prefixed with "edit N of M: ", and so are its Forgiven sentence and its
// Matched entries.
//
// Edits must not overlap (VS Code Copilot's #277154: a second edit whose
// old_string still matches in what the first wrote duplicates a block). An
// edit whose place overlaps text an earlier edit wrote, or spans a place
// where an earlier edit deleted text, is refused (MsgOverlap, ErrOverlap),
// naming both edits and their lines; edits of disjoint text work as if
// each were matched against the file as read. The one exception is asked
// for with a.Sequential: an edit whose place lies wholly inside text an
// earlier edit wrote then changes that text.
//
// The first edit that fails fails the call: its *Failure comes back with
// Message "Edit N of M failed: <its Message>" (N 1-based), its Details
// extended to say that nothing was applied, and the same Err. An empty edits
// is refused as MsgInvalidArgs.
func PlanMultiEdit(content []byte, a MultiEditArgs) (Planned, error) {
	edits := a.Edits
	if len(edits) == 0 {
		return Planned{}, invalid(`"edits" is empty; give at least one {"old_string", "new_string"} object`)
	}
	var p Planned
	var w written
	cur := content
	for i, e := range edits {
		step, occ, err := plan(cur, e)
		if err == nil && !w.add(len(cur), occ, a.Sequential) {
			err = explainOverlap(content, a, i)
		}
		if err != nil {
			return Planned{}, multiFailure(i, len(edits), err)
		}
		if cur, err = text.ApplyEdits(cur, step.Edits); err != nil {
			// plan's spans always apply; this would be a bug here.
			return Planned{}, fmt.Errorf("edit %d of %d: %w", i+1, len(edits), err)
		}
		p.Replacements += step.Replacements
		prefix := fmt.Sprintf("edit %d of %d: ", i+1, len(edits))
		for _, n := range step.Notes {
			p.Notes = append(p.Notes, prefix+n)
		}
		for _, m := range step.Matched {
			p.Matched = append(p.Matched, prefix+m)
		}
		if step.Forgiven != "" {
			p.Forgiven = strings.TrimPrefix(p.Forgiven+" Edit "+strconv.Itoa(i+1)+": "+step.Forgiven, " ")
		}
		p.Filled = p.Filled || step.Filled
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

// written marks, byte by byte, the text of a MultiEdit's current content
// that earlier edits wrote, and the places where they deleted text of the
// file as read. It is a bit per byte (not a record per place replaced) so
// that its memory does not grow with the number of places, which a
// one-byte replace_all makes as large as the file.
type written struct {
	text bitset // bit b: byte b was written by an earlier edit
	cuts bitset // bit b: text of the file as read was deleted just before byte b
}

// add checks the places of the next edit (occ, over content n bytes long,
// in increasing order) and records them. It reports false, recording
// nothing, when a place overlaps written text or spans a cut, unless
// sequential and the place lies wholly inside written text.
func (w *written) add(n int, occ iter.Seq[occurrence], sequential bool) bool {
	newLen := n
	for o := range occ {
		if w.overlaps(o) && !(sequential && w.inside(o)) {
			return false
		}
		newLen += o.newLen - (o.end - o.start)
	}
	text, cuts := newBitset(newLen), newBitset(newLen+1)
	pos, npos := 0, 0
	keep := func(end int) { // copies bytes pos to end, unchanged
		for b := pos; b <= end; b++ {
			if b&63 == 0 && b+64 <= end && w.text.word(b>>6) == 0 && w.cuts.word(b>>6) == 0 {
				b += 63 // 64 bytes neither written nor cut: nothing to copy
				continue
			}
			if b < end {
				text.put(npos+b-pos, w.text.get(b))
			}
			if w.cuts.get(b) {
				cuts.set(npos + b - pos)
			}
		}
		npos += end - pos
		pos = end
	}
	for o := range occ {
		keep(o.start)
		nested := o.start < o.end && w.inside(o)
		for b := range o.newLen {
			text.set(npos + b)
		}
		if o.newLen == 0 && !nested {
			cuts.set(npos)
		}
		npos += o.newLen
		pos = o.end
	}
	keep(n)
	w.text, w.cuts = text, cuts
	return true
}

// overlaps reports whether o covers written text or spans a cut.
func (w *written) overlaps(o occurrence) bool {
	for b := o.start; b < o.end; b++ {
		if w.text.get(b) || (b > o.start && w.cuts.get(b)) {
			return true
		}
	}
	return false
}

// inside reports whether o is non-empty and wholly inside written text.
func (w *written) inside(o occurrence) bool {
	if o.start == o.end {
		return false
	}
	for b := o.start; b < o.end; b++ {
		if !w.text.get(b) || (b > o.start && w.cuts.get(b)) {
			return false
		}
	}
	return true
}

// bitset is a set of small non-negative integers; a nil bitset is empty.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (s bitset) get(i int) bool {
	return i>>6 < len(s) && s[i>>6]&(1<<(i&63)) != 0
}

func (s bitset) set(i int) { s[i>>6] |= 1 << (i & 63) }

// word is the i-th 64 bits of s (0 past its end).
func (s bitset) word(i int) uint64 {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func (s bitset) put(i int, v bool) {
	if v {
		s.set(i)
	}
}

// explainOverlap words the refusal of edit i of a, whose place overlaps
// what an earlier edit wrote: it replays the edits before it keeping a
// record per place (the refusal's cost, not the edit's), to name the
// earlier edit and both edits' lines.
func explainOverlap(content []byte, a MultiEditArgs, i int) error {
	var t tracker
	cur := content
	for k := 0; k <= i; k++ {
		step, occ, err := plan(cur, a.Edits[k])
		if err != nil {
			return err // cannot happen: the same plans succeeded
		}
		if err := t.add(content, cur, k, occ, a.Sequential, k == i); err != nil {
			return err
		}
		if cur, err = text.ApplyEdits(cur, step.Edits); err != nil {
			return err
		}
	}
	// The record per place found nothing to name (places of two earlier
	// edits side by side): the refusal stands, worded without lines.
	return &Failure{Message: MsgOverlap, Err: ErrOverlap, Details: fmt.Sprintf(
		"Edit %d's old_string matches text that earlier edits wrote, reaching beyond what any one of them wrote. Merge the edits into one (one old_string covering the places, copied from the file as read)", i+1)}
}

// region is text an earlier edit of a MultiEdit wrote: bytes start to end
// of the current content (empty where the edit deleted), in place of bytes
// origStart to origEnd of the content as read.
type region struct {
	start, end         int
	origStart, origEnd int
	edit               int // 0-based
}

// tracker follows, through a MultiEdit's edits, which text of the current
// content earlier edits wrote. Its regions are sorted and disjoint;
// neighbouring places one edit replaced make one region, so memory grows
// with the runs of replaced text, not with each occurrence.
type tracker struct{ regions []region }

// add records the places edit i replaces in cur (occ, in increasing
// order); with check, it returns the refusal of the first place that
// overlaps a region earlier edits wrote (written.add's rule). orig is the
// content as read, for the refusal's lines.
func (t *tracker) add(orig, cur []byte, i int, occ iter.Seq[occurrence], sequential, check bool) error {
	var out []region
	rs := t.regions
	j := 0         // the next region of rs not yet copied to out
	open := false  // rs[j] holds places of this edit (sequential), its start copied
	shift := 0     // how far this edit's places so far move what follows
	origDelta := 0 // current offset minus offset as read, before rs[j]
	var err error
	closeRegion := func() {
		r := rs[j]
		if !open {
			r.start += shift
		}
		r.end += shift
		if !open {
			out = append(out, r)
		} else {
			out[len(out)-1].end = r.end
		}
		origDelta += (rs[j].end - rs[j].start) - (rs[j].origEnd - rs[j].origStart)
		open = false
		j++
	}
	for o := range occ {
		for j < len(rs) && rs[j].end <= o.start {
			closeRegion()
		}
		if j < len(rs) && rs[j].start < o.end && rs[j].end > o.start {
			r := rs[j]
			if check && (!sequential || r.start == r.end || o.start < r.start || o.end > r.end) {
				err = overlapFailure(orig, cur, r, i, o, sequential)
				break
			}
			if !open {
				nr := r
				nr.start += shift
				out = append(out, nr)
				open = true
			}
			shift += o.newLen - (o.end - o.start)
			continue
		}
		nr := region{start: o.start + shift, end: o.start + shift + o.newLen,
			origStart: o.start - origDelta, origEnd: o.end - origDelta, edit: i}
		if k := len(out) - 1; k >= 0 && !open && out[k].edit == i && out[k].end == nr.start && out[k].origEnd == nr.origStart {
			out[k].end, out[k].origEnd = nr.end, nr.origEnd
		} else {
			out = append(out, nr)
		}
		shift += o.newLen - (o.end - o.start)
	}
	if err != nil {
		return err
	}
	for j < len(rs) {
		closeRegion()
	}
	t.regions = out
	return nil
}

// overlapFailure refuses edit i, whose place o in cur overlaps region r of
// an earlier edit.
func overlapFailure(orig, cur []byte, r region, i int, o occurrence, sequential bool) *Failure {
	x, ox := text.NewLineIndex(cur), text.NewLineIndex(orig)
	span := func(x *text.LineIndex, start, end int) string {
		a, b := x.LineAt(start), x.LineAt(max(start, end-1))
		if a == b {
			return "line " + strconv.Itoa(a)
		}
		return fmt.Sprintf("lines %d-%d", a, b)
	}
	n, m := r.edit+1, i+1
	wrote := fmt.Sprintf("edit %d wrote %s there, in place of %s of the file as read", n, span(x, r.start, r.end), span(ox, r.origStart, r.origEnd))
	changed := fmt.Sprintf("what edit %d just wrote", n)
	if r.start == r.end {
		wrote = fmt.Sprintf("edit %d deleted %s of the file as read, and edit %d's place spans that deletion", n, span(ox, r.origStart, r.origEnd), m)
		changed = fmt.Sprintf("the text on both sides of what edit %d just deleted", n)
	}
	d := fmt.Sprintf("Edit %d's old_string matches %s of the file as the edits before it leave it, and %s. "+
		"Applying edit %d there would change %s, which is how a MultiEdit duplicates or garbles a block. "+
		"Merge the two edits into one (one old_string covering both places, copied from the file as read)",
		m, span(x, o.start, o.end), wrote, m, changed)
	inside := r.start < r.end && r.start <= o.start && o.end <= r.end
	switch {
	case inside && !sequential:
		d += fmt.Sprintf(`, or, if edit %d is meant to change the text edit %d writes, set "sequential": true on the MultiEdit call`, m, n)
	case !inside && sequential:
		d += fmt.Sprintf(`; "sequential": true lets an edit change only text wholly inside what an earlier edit wrote, and edit %d's place reaches beyond it`, m)
	}
	return &Failure{Message: MsgOverlap, Err: ErrOverlap, Details: d}
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
