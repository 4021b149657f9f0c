package positional

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"unicode/utf8"

	"github.com/git-edit/git-edit/ops/text"
)

// MaxSearchMatches is the most matches one search returns. A pattern such
// as x* matches at every character, so an unbounded answer for a 10 MB file
// would be millions of objects and over a gigabyte of JSON, more than any
// agent can read. The first MaxSearchMatches matches are returned, with
// "truncated": true and the "total" count; a narrower pattern finds the
// rest.
const MaxSearchMatches = 1000

// errMatchScan is wrapped when Go's regexp reports a match at a place the
// scan did not expect: a bug (or a change in the standard library), never
// the agent's input. The plan is refused rather than applied wrongly.
var errMatchScan = errors.New("internal error while scanning regexp matches")

// PlanReplaceAll plans replacing every match of re in content and returns
// the edits and the number of matches. path is used in messages only.
//
// Matching is Go's regexp over the content as is, after the BOM (which is
// never matched or replaced): every non-overlapping match, leftmost first,
// as (*regexp.Regexp).ReplaceAll and FindAllSubmatchIndex find them. An
// empty match is a match too (x* matches "abc" at 0, 1, 2 and 3), except one
// right after the previous match, as Go skips it. Without (?m), ^ and $
// anchor at the start and end of the file; (?m) makes them per line, and
// then ^ also matches at the very end of a file that ends with "\n" (use
// (?m)^(.) or similar to skip that empty position). In a CRLF file the "\r"
// is part of the text: `.` matches it, and (?m)$ matches between "\r" and
// "\n" (use (?m)(\r?)$ and put $1 back to append at line ends).
//
// Each replacement is re.Expand of the template: $1, ${1}, $name and
// ${name} insert a group (empty if it did not take part), $$ a literal $.
// Beware $1x: Go reads it as the group named "1x", which does not exist, so
// it inserts nothing; write ${1}x. In a CRLF file the expanded text's lone
// "\n" become "\r\n", except a leading "\n" right after a "\r" in the file
// (a match of `\n` alone), which already completes that "\r\n". In an LF
// file the result is exactly regexp.ReplaceAll's.
//
// The new content is built in one pass over the file, as ReplaceAll builds
// its result, so memory stays a small multiple of the file and the result
// whatever the number of matches. The edits are at most one: the span from
// the first match whose replacement differs from its text to the end of the
// last such match.
//
// The count is the number of matches, including matches whose replacement
// equals the matched text. No change (no match, or every replacement equal
// to its match) is no edits and no error. Errors: a nil re wraps
// ErrInvalidArgs; errMatchScan marks an internal inconsistency.
func PlanReplaceAll(path string, content []byte, re *regexp.Regexp, replacement string) ([]text.Edit, int, error) {
	if re == nil {
		return nil, 0, invalid(`replaceAll of %s needs a compiled "pattern"; parse the arguments with Parse`, path)
	}
	bom := text.BOMLen(content)
	body := content[bom:]
	crlf := text.DetectEOL(content) == text.CRLF
	tmpl := []byte(replacement)
	// Only a template with $ reads groups, as in regexp.ReplaceAll; only a
	// pattern with capture groups needs the submatcher.
	expand := bytes.IndexByte(tmpl, '$') >= 0
	var groups *submatcher
	if expand && re.NumSubexp() > 0 {
		var err error
		if groups, err = newSubmatcher(re); err != nil {
			return nil, 0, err
		}
	}

	var (
		n, prevEnd          int
		firstStart, lastEnd = -1, -1 // the changed span, in body
		exp, conv           []byte   // reused for every match
		m                   []int
		scanErr             error
	)
	out := re.ReplaceAllFunc(body, func(match []byte) []byte {
		// ReplaceAllFunc passes the match as a subslice of body, so its
		// capacity tells where it starts (cap(body[i:j]) is cap(body)-i).
		start := cap(body) - cap(match)
		end := start + len(match)
		if scanErr != nil || start < prevEnd || end > len(body) || (len(match) > 0 && &match[0] != &body[start]) {
			if scanErr == nil {
				scanErr = fmt.Errorf("%w: a match at byte %d of %d after one ending at %d; nothing was changed, please report this", errMatchScan, start, len(body), prevEnd)
			}
			return match
		}
		n++
		prevEnd = end
		text := tmpl
		if expand {
			if groups == nil {
				// No groups but $0, the match itself: its place is known.
				m = append(m[:0], start, end)
			} else if m, scanErr = groups.at(m, body, start, end); scanErr != nil {
				return match
			}
			exp = re.Expand(exp[:0], tmpl, body, m)
			text = exp
		}
		if crlf {
			conv = appendEOLAfter(conv[:0], text, start+bom > 0 && content[start+bom-1] == '\r')
			text = conv
		}
		if !bytes.Equal(text, match) {
			if firstStart < 0 {
				firstStart = start
			}
			lastEnd = end
		}
		return text
	})
	if scanErr != nil {
		return nil, 0, scanErr
	}
	if firstStart < 0 {
		return nil, n, nil
	}
	// Before firstStart and after lastEnd every replacement equals its
	// text, so out is body there, byte for byte.
	mid := out[firstStart : len(out)-(len(body)-lastEnd)]
	return []text.Edit{{Start: bom + firstStart, End: bom + lastEnd, New: string(mid)}}, n, nil
}

// appendEOLAfter appends s to dst with every lone "\n" written as "\r\n",
// as text.ToEOL(s, text.CRLF) does, except that a leading "\n" is kept when
// afterCR: the file's "\r" before it already makes the pair, and "\r\r\n"
// would be wrong.
func appendEOLAfter(dst, s []byte, afterCR bool) []byte {
	for i, c := range s {
		if c == '\n' && ((i == 0 && !afterCR) || (i > 0 && s[i-1] != '\r')) {
			dst = append(dst, '\r')
		}
		dst = append(dst, c)
	}
	return dst
}

// submatcher finds the groups of a match whose place is already known,
// with the same context the full scan had: the character before the match
// decides \b and (?m)^ there, and "start of text" holds only at offset 0.
// after is re anchored after one character of any kind, run from the
// character before the match, so that character is matched as context and
// not as part of the match.
type submatcher struct {
	re, after *regexp.Regexp
}

// newSubmatcher builds the anchored form of re from its syntax tree, so no
// spelling of the pattern (such as an unterminated \Q) can change its
// meaning when wrapped. Its groups are re's, in the same order.
func newSubmatcher(re *regexp.Regexp) (*submatcher, error) {
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("%w: reparse %q: %v", errMatchScan, re.String(), err)
	}
	wrapped := &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{
		{Op: syntax.OpBeginText}, {Op: syntax.OpAnyChar}, tree,
	}}
	after, err := regexp.Compile(wrapped.String())
	if err != nil {
		return nil, fmt.Errorf("%w: anchor %q: %v", errMatchScan, re.String(), err)
	}
	if after.NumSubexp() != re.NumSubexp() {
		return nil, fmt.Errorf("%w: anchoring %q changed its groups", errMatchScan, re.String())
	}
	return &submatcher{re: re, after: after}, nil
}

// at returns, in dst's storage when it fits, the submatch indices (as
// FindSubmatchIndex gives them, offsets in body) of the match of re that
// occupies body[start:end], a match the full scan found.
func (s *submatcher) at(dst []int, body []byte, start, end int) ([]int, error) {
	var m []int
	if start == 0 {
		// The scan's first search started here too: same input, same match.
		m = s.re.FindSubmatchIndex(body)
	} else {
		_, w := utf8.DecodeLastRune(body[:start])
		from := start - w
		m = s.after.FindSubmatchIndex(body[from:])
		for i, v := range m {
			if v >= 0 {
				m[i] = v + from
			}
		}
		if m != nil {
			m[0] = start // the context character is not part of the match
		}
	}
	if m == nil || m[0] != start || m[1] != end {
		return dst, fmt.Errorf("%w: the match at bytes %d-%d has no groups there (found %v); nothing was changed, please report this", errMatchScan, start, end, m)
	}
	return append(dst[:0], m...), nil
}

// Search returns the matches of re in content, found as PlanReplaceAll
// finds them (after the BOM, the content as is): all of them, in order,
// when there are at most MaxSearchMatches; otherwise the first
// MaxSearchMatches, Truncated and the Total count. Matches is never nil.
//
// Each position gives line and column (1-based) and offset (0-based),
// counting code points after the BOM, as positions are given to insert,
// delete and replace, so a match's range can be passed back to them. One
// exception: a position between the "\r" and "\n" of a "\r\n" (a match of
// `\n` alone) is reported with the column after the "\r", which those
// commands refuse.
//
// Positions are computed in one forward pass (cursor), and the matches past
// the cap are only counted, never built, so time and memory stay linear in
// the file whatever the number of matches.
func Search(content []byte, re *regexp.Regexp) SearchResult {
	res := SearchResult{Matches: []Match{}}
	if re == nil {
		return res
	}
	bom := text.BOMLen(content)
	body := content[bom:]
	cur := newCursor(content)
	found := re.FindAllSubmatchIndex(body, MaxSearchMatches)
	for _, m := range found {
		groups := make([]string, len(m)/2)
		for g := range groups {
			if m[2*g] >= 0 {
				groups[g] = string(body[m[2*g]:m[2*g+1]])
			}
		}
		start := cur.at(bom + m[0])
		end := cur.at(bom + m[1])
		res.Matches = append(res.Matches, Match{Range: Range{Start: start, End: end}, Groups: groups})
	}
	if len(found) == MaxSearchMatches {
		if total := countMatches(re, body); total > MaxSearchMatches {
			res.Truncated, res.Total = true, total
		}
	}
	return res
}

// countMatches returns the number of matches of re in body, the matches
// FindAllIndex(body, -1) would return. It counts in regexp.ReplaceAllFunc's
// loop, which reuses one index buffer for every match, so nothing is
// allocated per match; the only allocation is ReplaceAllFunc's copy of the
// text between matches, at most len(body).
func countMatches(re *regexp.Regexp, body []byte) int {
	n := 0
	re.ReplaceAllFunc(body, func([]byte) []byte { n++; return nil })
	return n
}
