package codeedit

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/git-edit/git-edit/ops/text"
)

// Bounds of a NoMatch report.
const (
	maxShownLines = 30  // closest lines shown
	maxShownChars = 200 // bytes of one shown line
	maxTokenScan  = 16 << 20
)

// NoMatch is the error when a search (or one part of an elided search)
// matches no lines of the file at any stage. It wraps ErrNoMatch.
type NoMatch struct {
	// Path is the file as the agent named it; Plan sets it, Match leaves it
	// empty (the message then says "the file").
	Path string
	// Part names the part of an elided search that failed; "" for the whole
	// SEARCH block.
	Part string
	// SearchLines is the number of lines searched for.
	SearchLines int
	// Closest are the file's lines most like the search (did you mean?),
	// numbered, at most maxShownLines and each clipped; empty when no line
	// of the file resembles it.
	Closest []NumberedLine
	// Difference describes the first line where Closest differs from the
	// search; "" when there is none to show.
	Difference string
	// AlreadyAt is the first line where the REPLACE text already is in the
	// file (at stages 1-3), 0 when it is not there or too short to tell.
	AlreadyAt int
	// Hints are further advice, such as a pasted marker line in search.
	Hints []string
}

// NumberedLine is one line of the file with its 1-based number.
type NumberedLine struct {
	Line int
	Text string
}

// Unwrap makes errors.Is(err, ErrNoMatch) true.
func (e *NoMatch) Unwrap() error { return ErrNoMatch }

// Error says what did not match, whether the edit looks already applied,
// the closest lines with their numbers, the first difference, and what to do.
func (e *NoMatch) Error() string {
	where, what := e.Path, e.Part
	if where == "" {
		where = "the file"
	}
	if what == "" {
		what = "the SEARCH block"
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s in %s: %s (%s) matches no lines of the file, not even ignoring trailing whitespace and indentation.",
		ErrNoMatch, where, what, plural(e.SearchLines, "line"))
	if e.AlreadyAt > 0 {
		fmt.Fprintf(&sb, " The REPLACE text is already in the file at line %d — was this edit already applied? If so, skip it.", e.AlreadyAt)
	}
	if len(e.Closest) > 0 {
		sb.WriteString("\n")
		e.writeClosest(&sb)
	} else {
		sb.WriteString("\nNo line of search appears in the file; check that file_path names the right file.\n")
	}
	for _, h := range e.Hints {
		sb.WriteString(h + "\n")
	}
	sb.WriteString("Copy the lines exactly as the file has them into search (view the file first if unsure), including comments, docstrings and blank lines, and retry.")
	return sb.String()
}

// writeClosest writes "Did you mean …? The file has:", the closest lines
// and the first difference, each line ending with "\n".
func (e *NoMatch) writeClosest(sb *strings.Builder) {
	first, last := e.Closest[0].Line, e.Closest[len(e.Closest)-1].Line
	fmt.Fprintf(sb, "Did you mean %s? The file has:\n", lineRange(first, last))
	for _, l := range e.Closest {
		fmt.Fprintf(sb, "%6d\t%s\n", l.Line, l.Text)
	}
	if e.Difference != "" {
		sb.WriteString(e.Difference + "\n")
	}
}

// Nearest words, for a text that had to match content exactly and did not
// (text_editor's str_replace, Edit and MultiEdit), the lines of content
// most like it and their first difference, found and worded as code_edit's
// NoMatch does: "Did you mean line 3? The file has:", the numbered lines,
// then "The first difference is at line 3, in whitespace only: …". name is
// what the caller's dialect calls the text ("old_str"). It returns "" when
// no line of content resembles search. The result has no final newline.
func Nearest(content []byte, search, name string) string {
	f := newFile(content)
	blk := newBlock(splitLines(strings.TrimPrefix(search, text.BOM)), nil)
	start, ok := f.closest(blk)
	if !ok {
		return ""
	}
	nm := &NoMatch{}
	f.describeClosest(nm, blk, start, name)
	if len(nm.Closest) == 0 {
		return ""
	}
	if nm.Difference == "" {
		nm.Difference = f.breakDifference(search, nm.Closest[0].Line, nm.Closest[0].Line-1-start, name)
	}
	var sb strings.Builder
	nm.writeClosest(&sb)
	return strings.TrimSuffix(sb.String(), "\n")
}

// breakDifference words the difference between search and the file lines
// from line (1-based), which have search's text from its line i on, line
// for line: then only their line breaks differ. It names the first line
// whose break differs ("\n" against "\r\n", or one the file lacks).
func (f *file) breakDifference(search string, line, i int, name string) string {
	ends := breaks(search)
	for off := f.lineStart(line); i < len(ends) && off < len(f.b); i, line = i+1, line+1 {
		s := f.lineAt(off)
		if fe := string(f.b[s.textEnd:s.end]); ends[i] != "" && fe != ends[i] {
			if fe == "" {
				return fmt.Sprintf("Those lines have %s's text, line for line; the difference is a line break: line %d of the file has none (it is the last line), %s line %d ends with %q.", name, line, name, i+1, ends[i])
			}
			return fmt.Sprintf("Those lines have %s's text, line for line; the difference is in the line breaks: line %d of the file ends with %q, %s line %d with %q.", name, line, fe, name, i+1, ends[i])
		}
		off = s.end
	}
	return fmt.Sprintf("Those lines have %s's text, line for line; the difference is in the line breaks.", name)
}

// breaks returns the line break ending each of search's lines (as
// splitLines splits them): "\n", "\r\n", or "" for a last line without.
func breaks(search string) []string {
	var ends []string
	for search != "" {
		k := strings.IndexByte(search, '\n')
		if k < 0 {
			return append(ends, "")
		}
		if k > 0 && search[k-1] == '\r' {
			ends = append(ends, "\r\n")
		} else {
			ends = append(ends, "\n")
		}
		search = search[k+1:]
	}
	return ends
}

// noMatch builds the report for a block that matched nowhere; R is the
// replacement that went with it.
func (f *file) noMatch(blk *block, R []string) *NoMatch {
	nm := &NoMatch{SearchLines: len(blk.lines)}
	if start, ok := f.closest(blk); ok {
		f.describeClosest(nm, blk, start, "search")
	}
	if distinctive(R) && !equalLines(blk.lines, R) {
		if m, _, ok := f.find(newBlock(R, nil), stIndent); ok {
			nm.AlreadyAt = m.line
		}
	}
	for _, l := range blk.lines {
		if isSearchMarker(l) || isReplaceMarker(l) || isDivider(l) {
			nm.Hints = append(nm.Hints, "search has a marker line ("+trimSpace(l)+"): put only the lines between <<<<<<< SEARCH and ======= in search, and those between ======= and >>>>>>> REPLACE in replace.")
			break
		}
	}
	return nm
}

// distinctive reports whether a replacement says enough to be recognised in
// the file: two non-blank lines, or one of at least 8 characters. A lone
// "}" is everywhere and proves nothing.
func distinctive(R []string) bool {
	n := 0
	for _, l := range R {
		if t := trimSpace(l); t != "" {
			n++
			if n >= 2 || len(t) >= 8 {
				return true
			}
		}
	}
	return false
}

func equalLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// closest returns the 0-based file line where the window of file lines most
// like the block starts (it may be negative when the best window begins
// before the file). Each file line whose trimmed text is a line of the
// block votes for the window that would align them, weighted by the line's
// length so that a shared "}" counts less than a shared statement; the
// window with the most votes wins, the earliest on a tie. That is one pass
// with a map lookup per line. When no line is shared, windows are scored by
// the identifiers they share with the block (closestByTokens).
func (f *file) closest(blk *block) (int, bool) {
	m := len(blk.lines)
	n := text.LineCount(f.b)
	if n == 0 {
		return 0, false
	}
	at := map[string][]int{}
	for i, t := range blk.trimmed {
		if t != "" && len(at[t]) < 4 { // a line repeated more is noise
			at[t] = append(at[t], i)
		}
	}
	votes := make([]int32, n+m) // votes[start+m] for a window starting at line start
	j := 0
	for off := f.bom; off < len(f.b); j++ {
		s := f.lineAt(off)
		t := trimSpaceBytes(f.b[s.start:s.textEnd])
		if is, ok := at[string(t)]; ok {
			w := int32(1 + min(len(t), 60)/6)
			for _, i := range is {
				votes[j-i+m] += w
			}
		}
		off = s.end
	}
	best := -1
	for k, v := range votes {
		if v > 0 && (best < 0 || v > votes[best]) {
			best = k
		}
	}
	if best >= 0 {
		return best - m, true
	}
	return f.closestByTokens(blk, n)
}

// closestByTokens scores each file line by the identifiers (3 or more
// letters, digits or _) it shares with the block, and returns the start of
// the block-sized window with the highest total.
func (f *file) closestByTokens(blk *block, n int) (int, bool) {
	if len(f.b) > maxTokenScan {
		return 0, false
	}
	tokens := map[string]bool{}
	for _, l := range blk.lines {
		eachToken([]byte(l), func(t []byte) { tokens[string(t)] = true })
	}
	if len(tokens) == 0 {
		return 0, false
	}
	score := make([]int, n)
	j := 0
	for off := f.bom; off < len(f.b) && j < n; j++ {
		s := f.lineAt(off)
		eachToken(f.b[s.start:s.textEnd], func(t []byte) {
			if tokens[string(t)] {
				score[j]++
			}
		})
		off = s.end
	}
	m := min(len(blk.lines), n)
	sum := 0
	for j := range m {
		sum += score[j]
	}
	bestSum, best := sum, 0
	for start := 1; start+m <= n; start++ {
		sum += score[start+m-1] - score[start-1]
		if sum > bestSum {
			bestSum, best = sum, start
		}
	}
	return best, bestSum > 0
}

// eachToken calls fn with each run of 3 or more ASCII letters, digits or _.
func eachToken(b []byte, fn func([]byte)) {
	for i := 0; i < len(b); {
		if !wordByte(b[i]) {
			i++
			continue
		}
		j := i
		for j < len(b) && wordByte(b[j]) {
			j++
		}
		if j-i >= 3 {
			fn(b[i:j])
		}
		i = j
	}
}

func wordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// describeClosest fills Closest and Difference for the window at start;
// name is what the search text is called in Difference ("search").
func (f *file) describeClosest(nm *NoMatch, blk *block, start int, name string) {
	n := text.LineCount(f.b)
	m := len(blk.lines)
	lo, hi := max(start, 0), min(start+m, n) // 0-based file lines [lo, hi)
	if lo >= hi {
		return
	}
	texts := make([]string, 0, hi-lo)
	for off, j := f.lineStart(lo+1), lo; j < hi && off < len(f.b); j++ {
		s := f.lineAt(off)
		texts = append(texts, f.text(s))
		off = s.end
	}

	diff := -1 // 0-based file line of the first difference
	for j := lo; j < lo+len(texts); j++ {
		if i := j - start; texts[j-lo] != blk.lines[i] {
			diff = j
			fl, sl := texts[j-lo], blk.lines[i]
			if trimSpace(fl) == trimSpace(sl) {
				nm.Difference = fmt.Sprintf("The first difference is at line %d, in whitespace only: the file has %q where %s line %d has %q.",
					j+1, clip(fl, maxShownChars), name, i+1, clip(sl, maxShownChars))
				if fi, si := lead(fl), lead(sl); fi != si {
					// The usual cause: tabs against spaces, or another
					// depth. Say it in words; %q shows "\t" easily missed.
					nm.Difference += fmt.Sprintf(" The file's indentation of that line is %s, %s's is %s.", indentWords(fi), name, indentWords(si))
				}
			} else {
				nm.Difference = fmt.Sprintf("The first difference is at line %d: the file has %q where %s line %d has %q.",
					j+1, clip(fl, maxShownChars), name, i+1, clip(sl, maxShownChars))
			}
			break
		}
	}

	// Show at most maxShownLines, keeping the first difference in view.
	from := lo
	if len(texts) > maxShownLines && diff >= 0 {
		from = min(max(diff-maxShownLines/3, lo), lo+len(texts)-maxShownLines)
	}
	for j := from; j < lo+len(texts) && j < from+maxShownLines; j++ {
		nm.Closest = append(nm.Closest, NumberedLine{Line: j + 1, Text: clip(texts[j-lo], maxShownChars)})
	}
}

// indentWords names an indentation: "none", or wsWords' "1 tab".
func indentWords(s string) string {
	if s == "" {
		return "none"
	}
	return wsWords(s)
}

// clip shortens s to at most n bytes, at a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
