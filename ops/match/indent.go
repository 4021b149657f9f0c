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
	indSame    indentMode = iota // equal on every line: nothing forgiven
	indAdd                       // the file has prefix more on every line
	indRemove                    // the needle has prefix more on every line
	indScaled                    // a w-space indent is the file's w*to/from
	indPerLine                   // a different offset per line
)

// reindent is what the Indentation stage forgave at one place, and how a
// replacement's lines are re-indented the same way.
type reindent struct {
	mode     indentMode
	prefix   string            // indAdd, indRemove: the offset
	from, to int               // indScaled: the needle's and the file's indent unit, in spaces
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
	case indPerLine:
		return "indentation off by different amounts on " + nLines(r.lines) + " (relative indentation kept)"
	}
	return ""
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
