package applypatch

import (
	"fmt"
	"slices"
	"strings"

	"github.com/git-edit/git-edit/ops/match"
	"github.com/git-edit/git-edit/ops/text"
)

// File is one path's current state, as the caller read it under its lock.
type File struct {
	Content []byte
	Exists  bool
}

// Change is one path's new state: Content, or removal when Delete.
type Change struct {
	Path    string
	Content []byte
	Delete  bool
	// From is a move's source path (on its destination's change): the new
	// file keeps the source's text encoding.
	From string
}

// Plan computes every change of the patch against files, keyed by the
// paths of p.Paths() (a path missing from files counts as not existing),
// all or nothing: the first operation that cannot be applied refuses the
// whole patch, and nothing is returned but the refusal. files is not
// modified, and no Change aliases it.
//
// Changes come in patch order: an Add gives the file's lines, each ended
// with "\n"; a Delete gives Delete; an Update gives the new content; a
// move gives the destination's content, then the source with Delete. An
// Update whose hunks change no byte still gives its Change (and counts as
// modified, as Codex reports it); the caller may record nothing for it.
//
// An Update's hunks are located in order, each after the previous one (see
// planUpdate), and compiled to text.Edit spans applied with text.ApplyEdits.
//
// Refusals, each a *Failure: an Add or a Move to whose file exists
// (ErrFileExists), an Update or Delete whose file does not
// (ErrFileNotFound), an Update of a file that is not text (ErrBinary), a
// hunk or "@@" header not found (ErrNoMatch, with Path, Hunk and Lines), two
// operations on one path (ErrSamePath).
func Plan(p Patch, files map[string]File) ([]Change, Summary, error) {
	if err := p.Distinct(func(path string) string { return path }); err != nil {
		return nil, Summary{}, err
	}
	var changes []Change
	var sum Summary
	for _, how := range p.Lenient {
		sum.Forgiven = append(sum.Forgiven, Forgiven{Text: "Read leniently: " + how + ".", Trailer: "patch: " + how})
	}
	for _, op := range p.Files {
		f := files[op.Path]
		switch op.Kind {
		case Add:
			if f.Exists {
				return nil, Summary{}, &Failure{Err: ErrFileExists, Path: op.Path, PatchLine: op.Line, Message: fmt.Sprintf(
					"Failed to add file %s: it already exists. To change it, use '*** Update File: %s' with hunks; nothing was changed.", op.Path, op.Path)}
			}
			var sb strings.Builder
			for _, l := range op.Lines {
				sb.WriteString(l + "\n")
			}
			changes = append(changes, Change{Path: op.Path, Content: []byte(sb.String())})
			sum.Added = append(sum.Added, op.Path)
		case Delete:
			if !f.Exists {
				return nil, Summary{}, &Failure{Err: ErrFileNotFound, Path: op.Path, PatchLine: op.Line, Message: fmt.Sprintf(
					"Failed to delete file %s: there is no such file. Check the path; nothing was changed.", op.Path)}
			}
			changes = append(changes, Change{Path: op.Path, Delete: true})
			sum.Deleted = append(sum.Deleted, op.Path)
		case Update:
			c, notes, err := planFile(op, f, files[op.MoveTo])
			if err != nil {
				return nil, Summary{}, err
			}
			sum.Forgiven = append(sum.Forgiven, notes...)
			if op.MoveTo == "" {
				changes = append(changes, Change{Path: op.Path, Content: c})
				sum.Modified = append(sum.Modified, op.Path)
				continue
			}
			changes = append(changes, Change{Path: op.MoveTo, Content: c, From: op.Path}, Change{Path: op.Path, Delete: true})
			sum.Modified = append(sum.Modified, op.MoveTo)
			sum.Moved = append(sum.Moved, Move{From: op.Path, To: op.MoveTo})
		default:
			return nil, Summary{}, fmt.Errorf("%w: operation on line %d has no kind", ErrInvalidPatch, op.Line)
		}
	}
	return changes, sum, nil
}

// planFile checks an Update's file (and its move destination, dest) and
// returns the file's new content.
func planFile(op FileOp, f, dest File) ([]byte, []Forgiven, error) {
	switch {
	case !f.Exists:
		return nil, nil, &Failure{Err: ErrFileNotFound, Path: op.Path, PatchLine: op.Line, Message: fmt.Sprintf(
			"Failed to read file to update %s: there is no such file. Check the path; to create the file, use '*** Add File: %s' with every line starting with '+'. Nothing was changed.", op.Path, op.Path)}
	case text.NotText(f.Content) != nil:
		return nil, nil, &Failure{Err: ErrBinary, Path: op.Path, PatchLine: op.Line, Message: fmt.Sprintf(
			"Failed to update %s: it %v, so it is not text; apply_patch edits text files only (UTF-8, UTF-16 with a byte order mark, or the encoding its git attributes declare). Nothing was changed.", op.Path, text.NotText(f.Content))}
	case op.MoveTo != "" && dest.Exists:
		return nil, nil, &Failure{Err: ErrFileExists, Path: op.MoveTo, PatchLine: op.Line, Message: fmt.Sprintf(
			"Failed to move %s to %s: %s already exists. Move to a path where no file is, or change %s in its own '*** Update File' section; nothing was changed.", op.Path, op.MoveTo, op.MoveTo, op.MoveTo)}
	}
	edits, notes, err := planUpdate(op, f.Content)
	if err != nil {
		return nil, nil, err
	}
	out, err := text.ApplyEdits(f.Content, edits)
	if err != nil {
		// planUpdate's spans are disjoint and in range; this is a bug here.
		return nil, nil, fmt.Errorf("apply_patch %s: %w", op.Path, err)
	}
	return out, notes, nil
}

// run is one change to a file's lines: lines [from, to) (0-based) are
// replaced by added; from == to inserts before line from.
type run struct {
	from, to int
	added    []string
}

// planUpdate locates op's hunks in content and compiles them to spans.
//
// Lines are compared without their line endings, and line 1 without the
// BOM. Each hunk is searched for at or after the end of the previous one:
// first its "@@" headers, each as one line (after the previous), then its
// context and removed lines together, climbing seek's tolerance ladder; a
// hunk ending in "*** End of File" must match the file's last lines. When
// the lines end with an empty context line that is not found, they are
// searched again without it (Codex's allowance for a blank line written
// after a hunk). A hunk of only added lines is inserted after its "@@
// header" line, or appended to the file when it has no header.
//
// Context lines keep the file's bytes; removed lines are removed; added
// lines are written with the file's line ending (text.DetectEOL). A file
// without a final newline keeps lacking one (unless its new last line is
// empty: an empty last line exists only with its terminator); an empty file
// gets "\n"-terminated lines.
func planUpdate(op FileOp, content []byte) ([]text.Edit, []Forgiven, error) {
	idx := text.NewLineIndex(content)
	count := idx.Count()
	f := &fileLines{lines: make([]string, count)}
	for n := 1; n <= count; n++ {
		start, textEnd, _, _ := idx.Bounds(n, content)
		f.lines[n-1] = string(content[start:textEnd])
	}

	var runs []run
	var pending []noted
	var laddered []Forgiven // hunks placed by placeByLadder
	var placed []span       // each hunk's matched lines, to refuse overlaps
	cursor := 0
	// Searches Codex does not make (further places of a hunk, hunks out of
	// file order) each cost a pass over the file; they share a budget of
	// passes so that a patch of many hunks stays linear in the file's
	// size. Past it, hunks are placed as Codex places them, and the result
	// says which were not checked for further places.
	budget := extraPasses * (count + 1)
	unchecked := 0
	for hi, h := range op.Hunks {
		h := h
		early := false // found only before the previous hunk's lines
		for _, c := range append(slices.Clone(h.Outer), h.Context) {
			if c == "" {
				continue
			}
			i, ok := f.seek([]string{c}, cursor, false)
			if !ok && cursor > 0 && budget >= count {
				// Hunks out of file order: Codex refuses; the header
				// anywhere before is searched for too.
				budget -= count
				i, ok = f.seek([]string{c}, 0, false)
				early = ok
			}
			if !ok {
				return nil, nil, contextNotFound(op, hi, c)
			}
			cursor = i + 1
		}
		lines := h.Lines
		old := oldLines(lines)
		if len(old) == 0 {
			at := count
			if h.Context != "" {
				at = cursor
			}
			runs = append(runs, run{from: at, to: at, added: addedLines(lines)})
			if h.Bare > 0 || early {
				pending = append(pending, noted{hi, at, exact, nil, nil, h, early, nil, false, 0, false})
			}
			continue
		}
		at, t, ok := f.seekAt(old, cursor, h.EndOfFile)
		if last := lines[len(lines)-1]; !ok && last.Op == ' ' && last.Text == "" {
			lines = lines[:len(lines)-1]
			old = old[:len(old)-1]
			at, t, ok = f.seekAt(old, cursor, h.EndOfFile)
		}
		split := 0 // lines whose literal `\n`s were read as line breaks
		if !ok {
			if lines2, n := splitEscapedNewlines(lines); n > 0 {
				if at2, t2, ok2 := f.seekAt(oldLines(lines2), cursor, h.EndOfFile); ok2 {
					lines, old, at, t, ok, split = lines2, oldLines(lines2), at2, t2, true, n
				}
			}
		}
		if !ok && cursor > 0 && !h.EndOfFile && budget >= count {
			budget -= count
			// Hunks out of file order: searched for from the start, and
			// refused below if they overlap a hunk already placed.
			lines, old = h.Lines, oldLines(h.Lines)
			at, t, ok = f.seekAt(old, 0, false)
			if last := lines[len(lines)-1]; !ok && last.Op == ' ' && last.Text == "" {
				lines = lines[:len(lines)-1]
				old = old[:len(old)-1]
				at, t, ok = f.seekAt(old, 0, false)
			}
			early = ok
		}
		if !ok {
			// The shared ladder's stages Codex lacks, from the cursor: a
			// pass over the file, from the budget.
			if budget < count {
				return nil, nil, linesNotFound(op, hi, h, oldLines(h.Lines))
			}
			budget -= count
			l, fail := f.placeByLadder(op, hi, h, h.Lines, cursor)
			if fail != nil {
				return nil, nil, fail
			}
			if l == nil {
				return nil, nil, linesNotFound(op, hi, h, oldLines(h.Lines))
			}
			here := span{from: l.from, to: l.to, hunk: hi}
			for _, p := range placed {
				if here.from < p.to && p.from < here.to {
					return nil, nil, hunksOverlap(op, p, here)
				}
			}
			placed = append(placed, here)
			if fail := checkOmissionAdded(op, hi, f.lines[l.from:l.to], l.added); fail != nil {
				return nil, nil, fail
			}
			laddered = append(laddered, l.note)
			runs = append(runs, run{from: l.from, to: l.to, added: l.added})
			cursor = l.to
			continue
		}
		here := span{from: at, to: at + len(old), hunk: hi}
		for _, p := range placed {
			if here.from < p.to && p.from < here.to {
				return nil, nil, hunksOverlap(op, p, here)
			}
		}
		placed = append(placed, here)
		var also []int
		if h.Context == "" && len(h.Outer) == 0 && !h.EndOfFile {
			if cost := count - at; budget >= cost {
				budget -= cost
				also = f.others(old, at, t, maxOthers)
			} else {
				unchecked++
			}
		}
		matched := f.lines[at : at+len(old)]
		if t == escapes {
			// Matched with the literal `\t`s read as tabs: the added
			// lines were escaped the same way.
			lines = unescapeTabs(lines)
		}
		asSent, reindented := false, false
		if t >= surroundWS {
			// Added lines adapted the way the match was: re-indented,
			// and a line repeating a removed one as the file has it.
			adapted, ok := adaptByLadder(lines, matched)
			if ok {
				reindented = indentChanged(lines, adapted)
				lines = adapted
			}
			asSent = !ok && hasAdded(lines)
		}
		if err := checkOmission(op, hi, matched, lines); err != nil {
			return nil, nil, err
		}
		if t != exact || h.Bare > 0 || early || len(also) > 0 || split > 0 {
			pending = append(pending, noted{hi, at, t, old, matched, h, early, also, asSent, split, reindented})
		}
		runs = append(runs, hunkRuns(at, lines)...)
		cursor = at + len(old)
	}
	var notes []Forgiven
	for _, n := range pending {
		// A further place another hunk of the patch changed is no
		// ambiguity: the patch said where each goes.
		n.also = slices.DeleteFunc(n.also, func(a int) bool {
			return slices.ContainsFunc(placed, func(p span) bool { return p.hunk != n.hi && p.from <= a && a < p.to })
		})
		if n.t != exact || n.h.Bare > 0 || n.early || len(n.also) > 0 || n.split > 0 {
			notes = append(notes, hunkNote(op, n))
		}
	}
	notes = append(notes, laddered...)
	if unchecked > 0 {
		notes = append(notes, Forgiven{Text: fmt.Sprintf(
			"%s of %s without an '@@' header %s not checked for further places where %s lines occur (the patch is large); each was applied at the first place after the previous hunk, as Codex does.",
			plural(unchecked, "hunk"), op.Path, map[bool]string{true: "was", false: "were"}[unchecked == 1], map[bool]string{true: "its", false: "their"}[unchecked == 1])})
	}
	edits, err := spans(content, idx, runs)
	return edits, notes, err
}

// extraPasses is how many passes over a file the searches Codex does not
// make may take, for one file of a patch.
const extraPasses = 8

// noted is a hunk placed other than exactly where Codex would, or
// ambiguously, for its note (hunkNote).
type noted struct {
	hi, at  int
	t       tolerance
	old     []string
	matched []string
	h       Hunk
	early   bool
	also    []int
	asSent  bool // added lines written as sent: ops/match could not adapt them
	split   int  // patch lines whose literal `\n`s were read as line breaks
	// reindented: an added line's indentation was adapted to the file's.
	reindented bool
}

// indentChanged reports whether adapting lines to after changed the
// indentation of an added line that is not written as the file has a
// removed line.
func indentChanged(before, after []Line) bool {
	for i, l := range before {
		if l.Op == '+' && leading(l.Text) != leading(after[i].Text) && !slices.ContainsFunc(before, func(r Line) bool { return r.Op == '-' && r.Text == l.Text }) {
			return true
		}
	}
	return false
}

// splitEscapedNewlines returns lines with each line holding a literal
// `\n` split there into lines of the same kind (a model that escaped the
// line breaks of a block it wrote on one line), and how many lines were
// split. It is tried only for a hunk found nowhere as written: a literal
// `\n` in the file (a C string, say) is matched as written first.
func splitEscapedNewlines(lines []Line) ([]Line, int) {
	var out []Line
	n := 0
	for _, l := range lines {
		if !strings.Contains(l.Text, `\n`) {
			out = append(out, l)
			continue
		}
		n++
		for _, part := range strings.Split(l.Text, `\n`) {
			out = append(out, Line{Op: l.Op, Text: part})
		}
	}
	return out, n
}

// maxOthers is how many further places of an ambiguous hunk a result names.
const maxOthers = 5

// span is the lines [from, to) (0-based) a hunk's context and removed
// lines matched.
type span struct {
	from, to int
	hunk     int
}

// adaptByLadder adapts lines' added lines with ops/match: the hunk's
// context and removed lines are found in the lines they matched, and the
// hunk's new text for them (context and added lines) is adapted as
// Match.Replacement adapts a replacement. It reports false when ops/match
// does not find the old lines as the whole region, or the adapted text
// does not keep one line per line.
func adaptByLadder(lines []Line, matched []string) ([]Line, bool) {
	old := oldLines(lines)
	region := strings.Join(matched, "\n") + "\n"
	m, err := match.Find([]byte(region), strings.Join(old, "\n")+"\n", match.Of(match.TrailingSpace, match.Unicode, match.Indentation, match.Escapes))
	if err != nil || len(m.Places) != 1 || m.Places[0].Start != 0 || m.Places[0].End != len(region) {
		return nil, false
	}
	var repl []string
	for _, l := range lines {
		if l.Op != '-' {
			repl = append(repl, l.Text)
		}
	}
	adapted := strings.Split(strings.TrimSuffix(m.Replacement(0, strings.Join(repl, "\n")+"\n"), "\n"), "\n")
	if len(adapted) != len(repl) {
		return nil, false
	}
	out := slices.Clone(lines)
	k := 0
	for i, l := range lines {
		switch l.Op {
		case '+':
			out[i].Text = adapted[k]
			k++
		case ' ':
			k++
		}
	}
	return out, true
}

// unescapeTabs returns lines with each literal `\t` a tab.
func unescapeTabs(lines []Line) []Line {
	out := make([]Line, len(lines))
	for i, l := range lines {
		out[i] = Line{Op: l.Op, Text: strings.ReplaceAll(l.Text, `\t`, "\t")}
	}
	return out
}

// hunkRuns turns a hunk matched at line at into runs: each stretch of
// removed and added lines between context lines is one run.
func hunkRuns(at int, lines []Line) []run {
	var runs []run
	cur := at
	r := run{from: cur, to: cur}
	flush := func() {
		if r.to > r.from || len(r.added) > 0 {
			runs = append(runs, r)
		}
		r = run{from: cur, to: cur}
	}
	for _, l := range lines {
		switch l.Op {
		case ' ':
			flush()
			cur++
			r = run{from: cur, to: cur}
		case '-':
			cur++
			r.to = cur
		case '+':
			r.added = append(r.added, l.Text)
		}
	}
	flush()
	return runs
}

// spans compiles runs into byte spans over content. Runs are ordered and
// those that touch are merged first, so that each span's neighbourhood is
// untouched: removing the last lines of a file without a final newline
// takes the line ending before them, which must not belong to another span.
func spans(content []byte, idx *text.LineIndex, runs []run) ([]text.Edit, error) {
	slices.SortStableFunc(runs, func(a, b run) int {
		if a.from != b.from {
			return a.from - b.from
		}
		return a.to - b.to
	})
	var merged []run
	for _, r := range runs {
		if n := len(merged); n > 0 && merged[n-1].to >= r.from {
			if merged[n-1].to > r.from {
				// Hunks are located one after another, so runs never overlap.
				return nil, fmt.Errorf("%w: hunk changes overlap at line %d", text.ErrBadEdit, r.from+1)
			}
			merged[n-1].to = r.to
			merged[n-1].added = append(slices.Clone(merged[n-1].added), r.added...)
			continue
		}
		merged = append(merged, r)
	}

	count := idx.Count()
	eol := text.DetectEOL(content)
	terminated := count == 0 || text.EndsWithNewline(content)
	edits := make([]text.Edit, 0, len(merged))
	for _, r := range merged {
		start, _ := idx.Start(r.from + 1)
		end, _ := idx.Start(r.to + 1)
		var sb strings.Builder
		switch {
		case r.to < count || terminated:
			for _, a := range r.added {
				sb.WriteString(a + eol)
			}
		case len(r.added) > 0:
			// The run reaches the end of a file without a final newline:
			// its last line stays unterminated.
			if r.from == count {
				sb.WriteString(eol) // after the old last line
			}
			sb.WriteString(strings.Join(r.added, eol))
			if r.added[len(r.added)-1] == "" {
				sb.WriteString(eol)
			}
		case r.from > 0:
			// Removing the last lines: the line before becomes the last,
			// so its line ending goes too, unless it is empty (an empty
			// last line exists only with its terminator).
			if s, textEnd, _, _ := idx.Bounds(r.from, content); textEnd > s {
				start = textEnd
			}
		}
		edits = append(edits, text.Edit{Start: start, End: end, New: sb.String()})
	}
	return edits, nil
}

// oldLines are the lines a hunk expects in the file: context and removed.
func oldLines(lines []Line) []string {
	var out []string
	for _, l := range lines {
		if l.Op != '+' {
			out = append(out, l.Text)
		}
	}
	return out
}

// addedLines are the lines of a hunk made only of added lines.
func addedLines(lines []Line) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		out = append(out, l.Text)
	}
	return out
}

// contextNotFound is the refusal of hunk hi's "@@" header c, in Codex's
// words and then what to do.
func contextNotFound(op FileOp, hi int, c string) *Failure {
	return &Failure{Err: ErrNoMatch, Path: op.Path, Hunk: hi + 1, Lines: []string{c}, Message: fmt.Sprintf(
		"Failed to find context '%s' in %s\nThis is the '@@' header of hunk %d of %d in '*** Update File: %s'; it must be a whole line of the file, such as a function or class header, after the lines of the hunks before it. Nothing was changed: the whole patch was refused. Re-read %s and send the patch again.",
		c, op.Path, hi+1, len(op.Hunks), op.Path, op.Path)}
}

// checkOmissionAdded is checkOmission for a hunk placed by the shared
// ladder: matched are the file's lines it replaces, after what stands
// there after it (its new lines, adapted).
func checkOmissionAdded(op FileOp, hi int, matched, after []string) *Failure {
	lines := make([]Line, len(after))
	for i, a := range after {
		lines[i] = Line{Op: '+', Text: a}
	}
	return checkOmission(op, hi, matched, lines)
}

// checkOmission refuses hunk hi when one of its added lines is a
// placeholder standing for code the hunk deletes ("// ... rest of the
// method ..." in place of removed lines: Cline's detectCodeOmission,
// aider's lazy comments). What the hunk replaces is the file's lines it
// matched (context and removed); what stands there after is its context
// lines as the file has them and its added lines, in order. A hunk that
// only adds lines loses nothing and is never checked.
func checkOmission(op FileOp, hi int, matched []string, lines []Line) *Failure {
	after := make([]string, 0, len(lines))
	j := 0
	for _, l := range lines {
		switch l.Op {
		case ' ':
			if j < len(matched) {
				after = append(after, matched[j])
			}
			j++
		case '-':
			j++
		case '+':
			after = append(after, l.Text)
		}
	}
	_, l, found := match.Omission(strings.Join(matched, "\n"), strings.Join(after, "\n"))
	if !found {
		return nil
	}
	return &Failure{Err: ErrOmission, Path: op.Path, Hunk: hi + 1, Message: fmt.Sprintf(
		"Refused hunk %d of %d in '*** Update File: %s': its added line '%s' is a placeholder that stands for code it leaves out, and the hunk would delete the lines it stands for. Nothing was changed: the whole patch was refused. Send the patch again with every line that should remain written out as context (' '), and '-' only on the lines to delete.",
		hi+1, len(op.Hunks), op.Path, strings.TrimSpace(l))}
}

// linesNotFound is the refusal of hunk hi's lines, in Codex's words and then
// what to do.
func linesNotFound(op FileOp, hi int, h Hunk, old []string) *Failure {
	eof := ""
	if h.EndOfFile {
		eof = " (it ends with '*** End of File', so they must be the file's last lines)"
	}
	return &Failure{Err: ErrNoMatch, Path: op.Path, Hunk: hi + 1, Lines: old, Message: fmt.Sprintf(
		"Failed to find expected lines in %s:\n%s\nThis is hunk %d of %d in '*** Update File: %s'%s; its context (' ') and removed ('-') lines must be consecutive lines of the file, after those of the hunks before it. Nothing was changed: the whole patch was refused. Re-read %s and send the patch again with the lines as they are now.",
		op.Path, strings.Join(old, "\n"), hi+1, len(op.Hunks), op.Path, eof, op.Path)}
}
