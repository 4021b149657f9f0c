package match

import (
	"fmt"
	"sort"
	"strings"
)

// indentMode is how the needle's indentation relates to the file's where
// the Indentation stage matched.
type indentMode int

const (
	indSame     indentMode = iota // equal on every line: nothing forgiven
	indAdd                        // the file has prefix more on every line
	indRemove                     // the needle has prefix more on every line
	indScaled                     // a w-space indent is the file's w*to/from
	indToTabs                     // from spaces of the needle are one tab of the file
	indToSpaces                   // one tab of the needle is to spaces of the file
	indPerLine                    // a different offset per line
)

// reindent is what the Indentation stage forgave at one place, and how a
// replacement's lines are re-indented the same way.
type reindent struct {
	mode     indentMode
	prefix   string            // indAdd, indRemove: the offset; indToTabs, indToSpaces: the file's offset beyond the converted indent
	from, to int               // indScaled, indToTabs, indToSpaces: the needle's and the file's indent unit, in spaces (1 for a tab)
	perLine  map[string]string // indPerLine: needle indentation -> file indentation
	keys     []string          // perLine's keys, longest first
	lines    int               // how many lines' indentation differed
}

// classifyIndent compares the indentation of the needle's lines with the
// file's lines they matched (blank lines ignored): one offset for every
// line, a scaled indent (a 2-space block in a 4-space file), or a different
// offset per line.
func classifyIndent(needle, file []string) reindent {
	var ns, fs []string
	r := reindent{}
	for i := range needle {
		if strings.TrimSpace(needle[i]) == "" || strings.TrimSpace(file[i]) == "" {
			continue
		}
		ni, fi := leadingSpace(needle[i]), leadingSpace(file[i])
		ns, fs = append(ns, ni), append(fs, fi)
		if ni != fi {
			r.lines++
		}
	}
	if r.lines == 0 {
		return r
	}
	if p, ok := commonOffset(ns, fs); ok {
		r.mode, r.prefix = indAdd, p
		return r
	}
	if p, ok := commonOffset(fs, ns); ok {
		r.mode, r.prefix = indRemove, p
		return r
	}
	if from, to, ok := scaled(ns, fs); ok {
		r.mode, r.from, r.to = indScaled, from, to
		return r
	}
	if from, off, ok := toTabs(ns, fs); ok {
		r.mode, r.from, r.to, r.prefix = indToTabs, from, 1, strings.Repeat("\t", off)
		return r
	}
	if to, off, ok := toSpaces(ns, fs); ok {
		r.mode, r.from, r.to, r.prefix = indToSpaces, 1, to, strings.Repeat(" ", off)
		return r
	}
	r.mode, r.perLine = indPerLine, map[string]string{}
	for i := range ns {
		if _, ok := r.perLine[ns[i]]; !ok {
			r.perLine[ns[i]] = fs[i]
			r.keys = append(r.keys, ns[i])
		}
	}
	sort.SliceStable(r.keys, func(a, b int) bool { return len(r.keys[a]) > len(r.keys[b]) })
	return r
}

// keepNesting returns the places (first lines) where forgiving each
// line's indentation keeps the needle's nesting: a line the needle
// indents deeper than another is deeper in the file too. Elsewhere the
// needle says another structure than the file has (in Python, a line
// inside a block that the file has after it), and its replacement would
// be re-indented into the wrong block. Lines the needle indents alike may
// differ in the file: a needle sent without its indentation (Codex's
// surrounding-whitespace tolerance) says nothing about nesting.
func keepNesting(f *fileView, nl needleLines, firsts []int) []int {
	var kept []int
	for _, first := range firsts {
		var ns, fs []int
		for i, l := range nl.lines {
			fl := f.line(first + i)
			if strings.TrimSpace(l) == "" || strings.TrimSpace(fl) == "" {
				continue
			}
			ns, fs = append(ns, columns(leadingSpace(l))), append(fs, columns(leadingSpace(fl)))
		}
		if keepsOrder(ns, fs) {
			kept = append(kept, first)
		}
	}
	return kept
}

// keepsOrder reports whether b[i] < b[j] wherever a[i] < a[j]. Sorted by
// a, each group of equal a must lie wholly above every b before it.
func keepsOrder(a, b []int) bool {
	idx := make([]int, len(a))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(x, y int) bool { return a[idx[x]] < a[idx[y]] })
	below, groupMax := -1, -1 // the greatest b of the groups before, of this group
	for k, i := range idx {
		if k > 0 && a[i] != a[idx[k-1]] {
			below = max(below, groupMax)
		}
		if b[i] <= below {
			return false
		}
		groupMax = max(groupMax, b[i])
	}
	return true
}

// columns is the width of an indentation, a tab advancing to the next
// multiple of 8 as git and terminals show it.
func columns(p string) int {
	c := 0
	for i := 0; i < len(p); i++ {
		if p[i] == '\t' {
			c += 8 - c%8
		} else {
			c++
		}
	}
	return c
}

// commonOffset reports whether every b[i] is p+a[i] for one p.
func commonOffset(a, b []string) (p string, ok bool) {
	for i := range a {
		if len(b[i]) < len(a[i]) || b[i][len(b[i])-len(a[i]):] != a[i] {
			return "", false
		}
		q := b[i][:len(b[i])-len(a[i])]
		if i > 0 && q != p {
			return "", false
		}
		p = q
	}
	return p, p != ""
}

// scaled reports whether the needle indents in units of from spaces where
// the file indents the same lines in units of to spaces (spaces only).
func scaled(ns, fs []string) (from, to int, ok bool) {
	for i := range ns {
		if strings.Contains(ns[i], "\t") || strings.Contains(fs[i], "\t") {
			return 0, 0, false
		}
		from, to = gcd(from, len(ns[i])), gcd(to, len(fs[i]))
	}
	if from == 0 || to == 0 || from == to {
		return 0, 0, false
	}
	for i := range ns {
		if len(ns[i])*to != len(fs[i])*from {
			return 0, 0, false
		}
	}
	return from, to, true
}

// toTabs reports whether the needle indents with spaces (ns) where the
// file indents the same lines with tabs only (fs): n spaces for each tab,
// the file's lines off more tabs deeper (a 4-space block quoted from a
// Go function body). n comes from two lines at different depths; when
// the needle has one depth, its unit is taken as 4 spaces, else 2, else
// the depth itself (the units people indent with).
func toTabs(ns, fs []string) (n, off int, ok bool) {
	for i := range ns {
		if strings.Trim(ns[i], " ") != "" || strings.Trim(fs[i], "\t") != "" {
			return 0, 0, false
		}
	}
	n = unitOf(ns, fs)
	if n == 0 {
		return 0, 0, false
	}
	for i := range ns {
		if len(ns[i])%n != 0 {
			return 0, 0, false
		}
		o := len(fs[i]) - len(ns[i])/n
		if o < 0 || i > 0 && o != off {
			return 0, 0, false
		}
		off = o
	}
	return n, off, true
}

// toSpaces reports whether the needle indents with tabs only (ns) where
// the file indents the same lines with spaces (fs): n spaces for each
// tab, and off spaces more on every line of the file.
func toSpaces(ns, fs []string) (n, off int, ok bool) {
	for i := range ns {
		if strings.Trim(ns[i], "\t") != "" || strings.Trim(fs[i], " ") != "" {
			return 0, 0, false
		}
	}
	n = unitOf(fs, ns)
	if n == 0 {
		return 0, 0, false
	}
	for i := range ns {
		o := len(fs[i]) - n*len(ns[i])
		if o < 0 || i > 0 && o != off {
			return 0, 0, false
		}
		off = o
	}
	return n, off, true
}

// unitOf is how many spaces of sp make one tab of tb, lines of the same
// indentation in spaces and in tabs: the ratio of the differences between
// two lines at different depths (0 when that is not a whole number, or
// the lines disagree), or, with one depth, 4, 2 or the width itself,
// whichever first divides the widths.
func unitOf(sp, tb []string) int {
	for i := 1; i < len(sp); i++ {
		if dt := len(tb[i]) - len(tb[0]); dt != 0 {
			ds := len(sp[i]) - len(sp[0])
			if ds%dt != 0 || ds/dt <= 0 {
				return 0
			}
			return ds / dt
		}
	}
	w := len(sp[0])
	for _, n := range []int{4, 2} {
		if w%n == 0 {
			return n
		}
	}
	return w
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// apply re-indents one line of a replacement the way the needle's
// indentation was forgiven. Blank lines are kept as the agent wrote them;
// relative indentation is kept.
func (r reindent) apply(line string) string {
	if strings.TrimSpace(line) == "" {
		return line
	}
	return r.indent(leadingSpace(line)) + strings.TrimLeft(line, " \t")
}

// indent maps one needle-side indentation to the file's.
func (r reindent) indent(l string) string {
	switch r.mode {
	case indAdd:
		return r.prefix + l
	case indRemove:
		if strings.HasPrefix(l, r.prefix) {
			return l[len(r.prefix):]
		}
		// Less indented than the offset: remove what it has of it.
		i := 0
		for i < len(l) && i < len(r.prefix) && l[i] == r.prefix[i] {
			i++
		}
		return l[i:]
	case indScaled:
		if strings.Contains(l, "\t") {
			return l
		}
		return strings.Repeat(" ", len(l)/r.from*r.to+len(l)%r.from)
	case indToTabs:
		if strings.Trim(l, " ") != "" {
			return r.prefix + l
		}
		return r.prefix + strings.Repeat("\t", len(l)/r.from) + strings.Repeat(" ", len(l)%r.from)
	case indToSpaces:
		t := len(l) - len(strings.TrimLeft(l, "\t"))
		return r.prefix + strings.Repeat(" ", t*r.to) + l[t:]
	case indPerLine:
		if f, ok := r.perLine[l]; ok {
			return f
		}
		for _, k := range r.keys {
			if strings.HasPrefix(l, k) {
				return r.perLine[k] + l[len(k):]
			}
		}
	}
	return l
}

// describe says what was forgiven, for Place.Forgave; "" when nothing was.
func (r reindent) describe() string {
	switch r.mode {
	case indAdd, indRemove:
		if r.prefix == " " {
			if r.mode == indAdd {
				return "a missing leading space on " + nLines(r.lines)
			}
			return "an extra leading space on " + nLines(r.lines)
		}
		return "indentation off by " + widthWords(r.prefix) + " on " + nLines(r.lines)
	case indScaled:
		return fmt.Sprintf("a %d-space indent read as the file's %d-space indent", r.from, r.to)
	case indToTabs:
		return fmt.Sprintf("a %d-space indent read as the file's tabs", r.from) + deeper(r.prefix, r.lines)
	case indToSpaces:
		return fmt.Sprintf("tabs read as the file's %d-space indent", r.to) + deeper(r.prefix, r.lines)
	case indPerLine:
		return "indentation off by different amounts on " + nLines(r.lines) + " (relative indentation kept)"
	}
	return ""
}

// deeper words the offset beyond a change of unit: "" when there is none.
func deeper(prefix string, lines int) string {
	if prefix == "" {
		return ""
	}
	return ", " + widthWords(prefix) + " deeper on " + nLines(lines)
}

// widthWords words an indentation offset: "4 spaces", "1 tab", "1 tab and 2 spaces".
func widthWords(p string) string {
	t := strings.Count(p, "\t")
	s := len(p) - t
	var parts []string
	if t > 0 {
		parts = append(parts, plural(t, "tab"))
	}
	if s > 0 {
		parts = append(parts, plural(s, "space"))
	}
	return strings.Join(parts, " and ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func nLines(n int) string { return plural(n, "line") }
