package codeedit

import (
	"fmt"
	"strings"
)

// Matching stages of one block, in the order they are tried (and ranked).
const (
	stExact    = iota // every line equal
	stTrailing        // equal once trailing whitespace is trimmed on both sides
	stIndent          // equal once indentation is shifted (see classify)
)

// How a replacement is re-indented to fit the file.
const (
	riNone    = iota
	riAdd     // search lacked prefix on every line: add it to the replacement
	riRemove  // search had prefix too much on every line: remove it
	riColumns // search and file indent with different characters (tabs/spaces)
)

// reindent says how to turn an agent's line into the file's indentation.
type reindent struct {
	mode   int
	prefix string // riAdd, riRemove: the uniform offset, in the file's own whitespace
	// riAdd: the file indents with tabs (toTabs) or spaces (toSpaces) where
	// the agent's new lines indent with the other; n spaces make a tab.
	toTabs, toSpaces bool

	// riColumns: indentation measured in columns, a tab counting as n.
	fileTabs bool // the file indents with tabs and search with spaces; else the reverse
	n        int  // spaces per tab
	s0, f0   int  // columns of the first non-blank line of search and of the file block
}

// apply re-indents one replace line. Blank lines are kept as the agent wrote
// them. Relative indentation is kept: a line indented 4 more than search's
// first line lands 4 columns (one tab, with n == 4) deeper than the file's.
func (r reindent) apply(line string) string {
	if isBlank(line) {
		return line
	}
	switch r.mode {
	case riAdd:
		l := lead(line)
		switch {
		case r.toTabs && !strings.Contains(l, "\t"):
			w := len(l)
			return r.prefix + strings.Repeat("\t", w/r.n) + strings.Repeat(" ", w%r.n) + line[len(l):]
		case r.toSpaces && strings.Contains(l, "\t"):
			return r.prefix + strings.Repeat(" ", columns(l, r.n)) + line[len(l):]
		}
		return r.prefix + line
	case riRemove:
		if strings.HasPrefix(line, r.prefix) {
			return line[len(r.prefix):]
		}
		// Less indented than the offset: remove what it has of it.
		l := lead(line)
		i := 0
		for i < len(l) && i < len(r.prefix) && l[i] == r.prefix[i] {
			i++
		}
		return line[i:]
	case riColumns:
		l := lead(line)
		w := max(r.f0+columns(l, r.n)-r.s0, 0)
		if r.fileTabs {
			return strings.Repeat("\t", w/r.n) + strings.Repeat(" ", w%r.n) + line[len(l):]
		}
		return strings.Repeat(" ", w) + line[len(l):]
	}
	return line
}

// describe says in words what apply does, for the result's message.
func (r reindent) describe() string {
	switch r.mode {
	case riAdd:
		return fmt.Sprintf("search lacked %s of indentation on every line; the replacement was indented by the same amount", wsWords(r.prefix))
	case riRemove:
		return fmt.Sprintf("search had %s of indentation too many on every line; the replacement was un-indented by the same amount", wsWords(r.prefix))
	case riColumns:
		if r.fileTabs {
			return fmt.Sprintf("search indents with spaces where the file indents with tabs; the replacement's indentation was converted to tabs, %d spaces to a tab", r.n)
		}
		return fmt.Sprintf("search indents with tabs where the file indents with spaces; the replacement's indentation was converted to spaces, %d spaces to a tab", r.n)
	}
	return ""
}

// short says what apply does in a few words ("4 spaces added").
func (r reindent) short() string {
	switch r.mode {
	case riAdd:
		return wsWords(r.prefix) + " of indentation added"
	case riRemove:
		return wsWords(r.prefix) + " of indentation removed"
	case riColumns:
		if r.fileTabs {
			return "spaces converted to tabs"
		}
		return "tabs converted to spaces"
	}
	return ""
}

// wsWords names whitespace: "4 spaces", "1 tab", "2 tabs and 1 space".
func wsWords(s string) string {
	tabs := strings.Count(s, "\t")
	spaces := len(s) - tabs
	var parts []string
	if tabs > 0 {
		parts = append(parts, plural(tabs, "tab"))
	}
	if spaces > 0 || tabs == 0 {
		parts = append(parts, plural(spaces, "space"))
	}
	return strings.Join(parts, " and ")
}

// columns is the width of an indentation with a tab counting as n.
func columns(l string, n int) int {
	tabs := strings.Count(l, "\t")
	return tabs*n + len(l) - tabs
}

// classify decides at which stage the block's lines match the file lines
// spans (which have the same trimmed content line by line, as candidates
// do), up to maxStage. At the indentation stage it tries a uniform offset
// first (offsetIndent), then tabs against spaces (columnIndent).
func (f *file) classify(blk *block, spans []span, maxStage int) (int, reindent, bool) {
	exact := true
	for i, s := range spans {
		fl := f.b[s.start:s.textEnd]
		if exact && string(fl) == blk.lines[i] {
			continue
		}
		exact = false
		if string(trimRightBytes(fl)) != trimRight(blk.lines[i]) {
			if maxStage < stIndent {
				return 0, reindent{}, false
			}
			if r, ok := f.offsetIndent(blk, spans); ok {
				return stIndent, r, true
			}
			if r, ok := f.columnIndent(blk, spans); ok {
				return stIndent, r, true
			}
			return 0, reindent{}, false
		}
	}
	if exact {
		return stExact, reindent{}, true
	}
	if maxStage < stTrailing {
		return 0, reindent{}, false
	}
	return stTrailing, reindent{}, true
}

func trimRightBytes(b []byte) []byte {
	j := len(b)
	for j > 0 && isSpace(b[j-1]) {
		j--
	}
	return b[:j]
}

func leadBytes(b []byte) []byte {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return b[:i]
}

// offsetIndent matches when every non-blank file line is a common
// whitespace prefix plus the search line (riAdd: search under-indented, the
// agent dropped some indentation), or every non-blank search line is that
// prefix plus the file line (riRemove), trailing whitespace aside. Relative
// indentation inside the block must agree, so 8/12 spaces in the file match
// 4/8 in search with an offset of 4 spaces. Blank lines match blank lines.
func (f *file) offsetIndent(blk *block, spans []span) (reindent, bool) {
	mode := riNone
	var prefix []byte
	var sprefix string
	for i, s := range spans {
		if blk.blank[i] {
			continue
		}
		fl, sl := f.b[s.start:s.textEnd], blk.lines[i]
		lf, ls := leadBytes(fl), lead(sl)
		if string(trimRightBytes(fl[len(lf):])) != trimRight(sl[len(ls):]) {
			return reindent{}, false
		}
		switch {
		case len(lf) > len(ls) && string(lf[len(lf)-len(ls):]) == ls:
			p := lf[:len(lf)-len(ls)]
			if mode == riNone {
				mode, prefix = riAdd, p
			} else if mode != riAdd || string(p) != string(prefix) {
				return reindent{}, false
			}
		case len(ls) > len(lf) && ls[len(ls)-len(lf):] == string(lf):
			p := ls[:len(ls)-len(lf)]
			if mode == riNone {
				mode, sprefix = riRemove, p
			} else if mode != riRemove || p != sprefix {
				return reindent{}, false
			}
		default:
			return reindent{}, false
		}
	}
	switch mode {
	case riAdd:
		return f.addIndent(blk, spans, string(prefix)), true
	case riRemove:
		return reindent{mode: riRemove, prefix: sprefix}, true
	}
	return reindent{}, false
}

// columnIndent matches a block indented with spaces against file lines
// indented with tabs, or the reverse. The tab side's indentation must be
// tabs then (alignment) spaces, the other side's spaces only. Measuring in
// columns with a tab as n spaces, every non-blank line must be indented
// relative to the block's first non-blank line by the same number of columns
// on both sides. n is solved from the lines whose tab count differs from the
// first line's, and must be the same whole number for all of them; when no
// line's tab count differs, n comes from the space side's own indentation
// steps (search and replace for the agent's side, the block or else the
// whole file for the file's side), else 4.
func (f *file) columnIndent(blk *block, spans []span) (reindent, bool) {
	var fileTabs, searchTabs bool
	for i, s := range spans {
		if blk.blank[i] {
			continue
		}
		lf, ls := leadBytes(f.b[s.start:s.textEnd]), lead(blk.lines[i])
		if !tabsThenSpaces(string(lf)) || !tabsThenSpaces(ls) {
			return reindent{}, false
		}
		fileTabs = fileTabs || strings.Contains(string(lf), "\t")
		searchTabs = searchTabs || strings.Contains(ls, "\t")
	}
	if fileTabs == searchTabs {
		return reindent{}, false
	}

	// tabSide and spaceSide give line i's indentation on each side.
	tabSide := func(i int) string { return lead(blk.lines[i]) }
	spaceSide := func(i int) string { return string(leadBytes(f.b[spans[i].start:spans[i].textEnd])) }
	if fileTabs {
		tabSide, spaceSide = spaceSide, tabSide
	}

	first := -1
	n := 0
	for i := range spans {
		if blk.blank[i] {
			continue
		}
		if first < 0 {
			first = i
			continue
		}
		dt := strings.Count(tabSide(i), "\t") - strings.Count(tabSide(first), "\t")
		if dt == 0 {
			continue
		}
		// Columns on the space side = dt*n + the tab side's alignment change.
		ds := len(spaceSide(i)) - len(spaceSide(first))
		da := columns(tabSide(i), 0) - columns(tabSide(first), 0)
		if (ds-da)%dt != 0 || (ds-da)/dt <= 0 || (n != 0 && (ds-da)/dt != n) {
			return reindent{}, false
		}
		n = (ds - da) / dt
	}
	if first < 0 {
		return reindent{}, false
	}
	if n == 0 {
		if fileTabs {
			n = blk.unit
		} else {
			var u unitCounter
			for _, s := range spans {
				u.add(f.text(s))
			}
			if n = u.unit(); n == 0 {
				n = f.fileUnit()
			}
		}
		if n <= 0 {
			n = 4
		}
	}

	r := reindent{mode: riColumns, fileTabs: fileTabs, n: n}
	r.s0 = columns(lead(blk.lines[first]), n)
	r.f0 = columns(string(leadBytes(f.b[spans[first].start:spans[first].textEnd])), n)
	for i, s := range spans {
		if blk.blank[i] {
			continue
		}
		fl, sl := f.b[s.start:s.textEnd], blk.lines[i]
		lf, ls := leadBytes(fl), lead(sl)
		if string(trimRightBytes(fl[len(lf):])) != trimRight(sl[len(ls):]) ||
			columns(string(lf), n)-r.f0 != columns(ls, n)-r.s0 {
			return reindent{}, false
		}
	}
	return r, true
}

// tabsThenSpaces reports whether an indentation is tabs followed by spaces.
func tabsThenSpaces(l string) bool {
	return !strings.Contains(strings.TrimLeft(l, "\t"), "\t")
}

// addIndent builds the riAdd re-indentation for prefix. When the prefix is
// tabs only and no search line is indented with spaces, the agent's lines
// were matched by their text alone, so any space indentation in replace is
// the agent's own style: it becomes tabs, n spaces to a tab (n from search
// and replace, else 4), so that a file indented with tabs gets no lines
// indented with "\t    ". The same, the other way round, for a prefix of
// spaces only and tab-indented new lines (n from the matched lines, else
// the whole file, else 4).
func (f *file) addIndent(blk *block, spans []span, prefix string) reindent {
	r := reindent{mode: riAdd, prefix: prefix}
	searchSpaces, searchTabs := false, false
	for i, l := range blk.lines {
		if !blk.blank[i] {
			searchSpaces = searchSpaces || strings.Contains(lead(l), " ")
			searchTabs = searchTabs || strings.Contains(lead(l), "\t")
		}
	}
	switch {
	case strings.Trim(prefix, "\t") == "" && !searchSpaces:
		r.toTabs, r.n = true, blk.unit
	case strings.Trim(prefix, " ") == "" && !searchTabs && blk.tabsIn:
		var u unitCounter
		for _, s := range spans {
			u.add(f.text(s))
		}
		r.toSpaces, r.n = true, u.unit()
		if r.n == 0 {
			r.n = f.fileUnit()
		}
	}
	if r.n <= 0 {
		r.n = 4
	}
	return r
}
