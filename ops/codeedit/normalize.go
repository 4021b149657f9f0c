package codeedit

import (
	"path"
	"strings"
)

// Agents paste parts of Aider's block format into search and replace:
//
//	src/utils.py
//	```python
//	<<<<<<< SEARCH
//	existing lines
//	=======
//	new lines
//	>>>>>>> REPLACE
//	```
//
// The functions here peel those wrapper lines off the top and bottom of the
// text, and only there: a wrapper line in the middle is content. Each rule
// demands a shape that code rarely has, and Plan first tries the search as
// written, so a wrapper that is real file content (a Markdown code fence, a
// .gitignore that names itself) is kept.

// wrapping records what was peeled off one text, for the result's message.
type wrapping struct {
	notes  []string // "the filename line", "the ``` fences", ...
	fenced bool     // an opening and a closing fence were removed as a pair
}

// peeler walks the lines of one text from both ends.
type peeler struct {
	lines  []string
	lo, hi int  // lines[lo:hi] are kept
	final  bool // the text ended with "\n"
	cut    bool // a bottom line was removed, so the kept text ends with "\n"
	w      wrapping
}

func newPeeler(text string) *peeler {
	p := &peeler{final: strings.HasSuffix(text, "\n")}
	if text != "" {
		p.lines = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	}
	p.hi = len(p.lines)
	return p
}

func (p *peeler) n() int { return p.hi - p.lo }

// at returns the kept line i (0 = top, -1 = bottom), or "" when out of range.
func (p *peeler) at(i int) string {
	if i < 0 {
		i += p.hi
	} else {
		i += p.lo
	}
	if i < p.lo || i >= p.hi {
		return ""
	}
	return p.lines[i]
}

func (p *peeler) top(note string) {
	p.lo++
	p.w.notes = append(p.w.notes, note)
}

func (p *peeler) bottom(note string) {
	p.hi--
	p.cut = true
	p.w.notes = append(p.w.notes, note)
}

// text returns the kept lines. The line ending of the last kept line
// survives when the text had one or when the line after it was removed.
func (p *peeler) text() string {
	if p.n() <= 0 {
		return ""
	}
	s := strings.Join(p.lines[p.lo:p.hi], "\n")
	if p.final || p.cut {
		s += "\n"
	}
	return s
}

// stripSearch peels wrappers off search: from the top a filename line, an
// opening ``` fence and a `<<<<<<< SEARCH` line; from the bottom a closing
// fence and, when the edit has a worded marker (see hasWordedMarker), a
// `=======` line. The fences go as a pair, or the opening one alone when a
// `<<<<<<< SEARCH` line follows it (the whole block pasted into search).
func stripSearch(filePath, text string, worded bool) (string, wrapping) {
	p := newPeeler(text)
	if p.n() >= 2 && isFilenameLine(p.at(0), filePath) {
		p.top("the filename line")
	}
	if p.n() >= 2 && isFenceOpen(p.at(0)) {
		switch {
		case isFenceClose(p.at(-1)):
			p.top("the ``` fences")
			p.hi--
			p.cut = true
			p.w.fenced = true
		case isSearchMarker(p.at(1)):
			p.top("the opening ``` fence")
		}
	}
	if p.n() >= 1 && isSearchMarker(p.at(0)) {
		p.top("the <<<<<<< SEARCH line")
	}
	if worded && p.n() >= 1 && isDivider(p.at(-1)) {
		p.bottom("the ======= line")
	}
	return p.text(), p.w
}

// stripReplace peels wrappers off replace: from the top a filename line, a
// fence and (when the edit has a worded marker) a `=======` line; from the
// bottom a fence and a `>>>>>>> REPLACE` line. A fence pair goes only when
// pairOK (see Plan: in Markdown files fences are content unless search was
// fenced too); a lone opening fence goes when a `=======` line follows it,
// a lone closing one when a `>>>>>>> REPLACE` line precedes it.
func stripReplace(filePath, text string, worded, pairOK bool) (string, wrapping) {
	p := newPeeler(text)
	if p.n() >= 2 && isFilenameLine(p.at(0), filePath) {
		p.top("the filename line")
	}
	if p.n() >= 2 && pairOK && isFenceOpen(p.at(0)) && isFenceClose(p.at(-1)) {
		p.top("the ``` fences")
		p.hi--
		p.cut = true
		p.w.fenced = true
	}
	if p.n() >= 2 && isFenceClose(p.at(-1)) && isReplaceMarker(p.at(-2)) {
		p.bottom("the closing ``` fence")
	}
	if p.n() >= 2 && worded && isFenceOpen(p.at(0)) && isDivider(p.at(1)) {
		p.top("the opening ``` fence")
	}
	if worded && p.n() >= 1 && isDivider(p.at(0)) {
		p.top("the ======= line")
	}
	if p.n() >= 1 && isReplaceMarker(p.at(-1)) {
		p.bottom("the >>>>>>> REPLACE line")
	}
	return p.text(), p.w
}

// hasWordedMarker reports whether text has a `<<<<<<< SEARCH` or
// `>>>>>>> REPLACE` line anywhere. Only then is a bare `=======` line taken
// for Aider's divider: alone it is as likely a reStructuredText underline.
func hasWordedMarker(text string) bool {
	if !strings.Contains(text, "SEARCH") && !strings.Contains(text, "REPLACE") {
		return false
	}
	for line := range strings.SplitSeq(text, "\n") {
		if isSearchMarker(line) || isReplaceMarker(line) {
			return true
		}
	}
	return false
}

// markerLine reports whether line, trimmed, is 5 to 9 times c followed by
// word (optionally after spaces). Aider's markers have 7; agents miscount.
func markerLine(line string, c byte, word string) bool {
	t := trimSpace(line)
	n := 0
	for n < len(t) && t[n] == c {
		n++
	}
	return n >= 5 && n <= 9 && strings.TrimLeft(t[n:], " ") == word
}

func isSearchMarker(line string) bool  { return markerLine(line, '<', "SEARCH") }
func isReplaceMarker(line string) bool { return markerLine(line, '>', "REPLACE") }
func isDivider(line string) bool       { return markerLine(line, '=', "") }

// isFenceOpen reports whether line, trimmed, is three or more backticks and
// an optional language tag without spaces or backticks ("```", "```go").
func isFenceOpen(line string) bool {
	t := trimSpace(line)
	if !strings.HasPrefix(t, "```") {
		return false
	}
	tag := strings.TrimLeft(t, "`")
	return !strings.ContainsAny(tag, "` \t")
}

// isFenceClose reports whether line, trimmed, is three or more backticks.
func isFenceClose(line string) bool {
	t := trimSpace(line)
	return len(t) >= 3 && strings.Trim(t, "`") == ""
}

// isFilenameLine reports whether line names filePath, as Aider puts the
// file's name on the line before a block. The line, trimmed and with
// Markdown emphasis (surrounding ` or **) and a trailing ":" removed, must
// have no whitespace, contain "/" or ".", and, with "\" read as "/" and a
// leading "./" dropped, equal filePath, end with "/"+filePath (a longer or
// absolute path), or be a "/"-bounded suffix of filePath (its base name, or
// its last directories and base name). So "utils.py" names src/utils.py but
// "os.path", "return utils.py" and "xutils.py" do not, and Makefile is never
// taken for a filename line (no "/" or ".").
func isFilenameLine(line, filePath string) bool {
	l := trimSpace(line)
	l = strings.TrimSuffix(l, ":")
	l = strings.TrimPrefix(strings.TrimSuffix(l, "**"), "**")
	l = strings.TrimPrefix(strings.TrimSuffix(l, "`"), "`")
	if l == "" || len(l) > 4096 || strings.ContainsAny(l, " \t") || !strings.ContainsAny(l, "/.") {
		return false
	}
	l, p := cleanPath(l), cleanPath(filePath)
	if p == "" || l == "" {
		return false
	}
	return l == p || strings.HasSuffix(l, "/"+p) || strings.HasSuffix(p, "/"+l)
}

func cleanPath(s string) string {
	s = strings.ReplaceAll(s, `\`, "/")
	for strings.HasPrefix(s, "./") {
		s = s[2:]
	}
	return s
}

// isMarkdown reports whether the file is Markdown, where ``` fences are
// common content.
func isMarkdown(filePath string) bool {
	switch strings.ToLower(path.Ext(cleanPath(filePath))) {
	case ".md", ".markdown", ".mdx", ".mdown", ".mkd":
		return true
	}
	return false
}
