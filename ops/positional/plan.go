package positional

import (
	"regexp"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/ops/jsonargs"
)

// Position is a point in a file as the seed's results give it: all three
// forms, Line and Column 1-based, Offset 0-based, counting code points after
// any BOM.
type Position struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Offset int `json:"offset"`
}

// Range is a span of a file in results: Start inclusive, End exclusive.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Match is one search match: its range and its groups, the whole match
// first, then each capture group in order ("" for a group that did not
// take part in the match). Groups is never empty.
type Match struct {
	Range  Range    `json:"range"`
	Groups []string `json:"groups"`
}

// MessageResult is the result of insert, delete and replace.
type MessageResult struct {
	Status  string `json:"status"`
	Message string `json:"message"`
}

// ReplaceAllResult is the result of replaceAll.
type ReplaceAllResult struct {
	Status           string `json:"status"`
	ReplacementsMade int    `json:"replacements_made"`
}

// SearchResult is the result of search. Matches is never nil, so it
// encodes as [] when nothing matches.
type SearchResult struct {
	Matches []Match `json:"matches"`
}

// StatusSuccess is the "status" of every successful result.
const StatusSuccess = "success"

// Inserted returns insert's result.
func Inserted() MessageResult {
	return MessageResult{Status: StatusSuccess, Message: "Content inserted successfully."}
}

// Deleted returns delete's result.
func Deleted() MessageResult {
	return MessageResult{Status: StatusSuccess, Message: "Text deleted successfully."}
}

// Replaced returns replace's result.
func Replaced() MessageResult {
	return MessageResult{Status: StatusSuccess, Message: "Text replaced successfully."}
}

// ReplacedAll returns replaceAll's result for n matches.
func ReplacedAll(n int) ReplaceAllResult {
	return ReplaceAllResult{Status: StatusSuccess, ReplacementsMade: n}
}

// Found returns search's result; a nil matches becomes an empty list.
func Found(matches []Match) SearchResult {
	if matches == nil {
		matches = []Match{}
	}
	return SearchResult{Matches: matches}
}

// Plan runs the planner of a.Command against content and returns its edits
// and its seed result (MessageResult, ReplaceAllResult or SearchResult; the
// edits of search are always nil). path is used in messages only.
// Errors are those of the planner, with nil edits and result; an unknown
// command, or a pattern command without a.Regexp, wraps ErrInvalidArgs.
func Plan(path string, content []byte, a Args) ([]ops.Edit, any, error) {
	var edits []ops.Edit
	var res any
	var err error
	switch a.Command {
	case CmdInsert:
		edits, err = PlanInsert(path, content, a)
		res = Inserted()
	case CmdDelete:
		edits, err = PlanDelete(path, content, a)
		res = Deleted()
	case CmdReplace:
		edits, err = PlanReplace(path, content, a)
		res = Replaced()
	case CmdReplaceAll:
		var n int
		edits, n, err = PlanReplaceAll(path, content, a.Regexp, a.Replacement)
		res = ReplacedAll(n)
	case CmdSearch:
		if a.Regexp == nil {
			return nil, nil, invalid(`search needs a compiled "pattern"; parse the arguments with Parse`)
		}
		res = Found(Search(content, a.Regexp))
	default:
		return nil, nil, invalid(`unknown command %q; use one of %s`, a.Command, jsonargs.OrList(Commands))
	}
	if err != nil {
		return nil, nil, err
	}
	return edits, res, nil
}

// PlanInsert plans inserting a.Content at a.Position. In a CRLF file the
// content's lone "\n" become "\r\n". Empty content changes nothing and
// returns no edits. path is used in messages only.
//
// Errors wrap ErrPosition: a line, column or offset past the end, an offset
// splitting a "\r\n", or line+column and offset that disagree. Each names
// the value, the valid range and what to give instead.
func PlanInsert(path string, content []byte, a Args) ([]ops.Edit, error) {
	at, err := newLocator(path, content).resolve("", a.Position)
	if err != nil {
		return nil, err
	}
	if a.Content == "" {
		return nil, nil
	}
	return []ops.Edit{{Start: at, End: at, New: ops.ToEOL(a.Content, ops.DetectEOL(content))}}, nil
}

// PlanDelete plans deleting a.Range. An empty range changes nothing and
// returns no edits. path is used in messages only.
//
// Errors wrap ErrPosition: either end invalid as for PlanInsert (the
// message starts "range start: " or "range end: "), or start after end.
func PlanDelete(path string, content []byte, a Args) ([]ops.Edit, error) {
	start, end, err := newLocator(path, content).span(a.Range)
	if err != nil || start == end {
		return nil, err
	}
	return []ops.Edit{{Start: start, End: end}}, nil
}

// PlanReplace plans replacing a.Range with a.Content (in a CRLF file with
// its lone "\n" as "\r\n"). An empty range makes it an insertion; when the
// new text equals the range's text it returns no edits. Errors as for
// PlanDelete. path is used in messages only.
func PlanReplace(path string, content []byte, a Args) ([]ops.Edit, error) {
	start, end, err := newLocator(path, content).span(a.Range)
	if err != nil {
		return nil, err
	}
	repl := ops.ToEOL(a.Content, ops.DetectEOL(content))
	if repl == string(content[start:end]) {
		return nil, nil
	}
	return []ops.Edit{{Start: start, End: end, New: repl}}, nil
}

// PlanReplaceAll plans replacing every match of re in content and returns
// the edits and the number of matches. path is used in messages only.
//
// Matching is Go's regexp over the content as is, after the BOM (which is
// never matched or replaced): every non-overlapping match, leftmost first,
// as (*regexp.Regexp).FindAllSubmatchIndex finds them. An empty match is a
// match too (x* matches "abc" at 0, 1, 2 and 3), except one right after the
// previous match, as Go skips it. Without (?m), ^ and $ anchor at the start
// and end of the file; (?m) makes them per line, and then ^ also matches at
// the very end of a file that ends with "\n" (use (?m)^(.) or similar to
// skip that empty position). In a CRLF file the "\r" is
// part of the text: `.` matches it, and (?m)$ matches between "\r" and
// "\n" (use (?m)(\r?)$ and put $1 back to append at line ends).
//
// Each replacement is re.Expand of the template: $1, ${1}, $name and
// ${name} insert a group (empty if it did not take part), $$ a literal $.
// Beware $1x: Go reads it as the group named "1x", which does not exist, so
// it inserts nothing; write ${1}x. In a CRLF file the expanded text's lone
// "\n" become "\r\n", except a leading "\n" right after a "\r" in the file
// (a match of `\n` alone), which already completes that "\r\n".
//
// The count is the number of matches, including matches whose replacement
// equals the matched text (they produce no edit). No match is no edits,
// count 0 and no error. The only error is a nil re (ErrInvalidArgs).
func PlanReplaceAll(path string, content []byte, re *regexp.Regexp, replacement string) ([]ops.Edit, int, error) {
	if re == nil {
		return nil, 0, invalid(`replaceAll of %s needs a compiled "pattern"; parse the arguments with Parse`, path)
	}
	bom := ops.BOMLen(content)
	body := content[bom:]
	eol := ops.DetectEOL(content)
	tmpl := []byte(replacement)
	matches := re.FindAllSubmatchIndex(body, -1)
	var edits []ops.Edit
	var buf []byte
	for _, m := range matches {
		buf = re.Expand(buf[:0], tmpl, body, m)
		start, end := bom+m[0], bom+m[1]
		repl := toEOLAfter(content, start, string(buf), eol)
		if repl == string(content[start:end]) {
			continue
		}
		edits = append(edits, ops.Edit{Start: start, End: end, New: repl})
	}
	return edits, len(matches), nil
}

// toEOLAfter converts s for insertion at content[at] with ops.ToEOL, but
// keeps a leading "\n" that follows a "\r" in the content: together they are
// already a "\r\n", and converting would make "\r\r\n".
func toEOLAfter(content []byte, at int, s, eol string) string {
	if eol == ops.CRLF && at > 0 && content[at-1] == '\r' && len(s) > 0 && s[0] == '\n' {
		return "\n" + ops.ToEOL(s[1:], eol)
	}
	return ops.ToEOL(s, eol)
}

// Search returns every non-overlapping match of re in content, in order,
// found as PlanReplaceAll finds them (after the BOM, the content as is). It
// never returns nil. Each position gives line and column (1-based) and
// offset (0-based), counting code points after the BOM, as positions are
// given to insert, delete and replace, so a match's range can be passed back
// to them. One exception: a position between the "\r" and "\n" of a "\r\n"
// (a match of `\n` alone) is reported with the column after the "\r", which
// those commands refuse.
func Search(content []byte, re *regexp.Regexp) []Match {
	matches := []Match{}
	if re == nil {
		return matches
	}
	bom := ops.BOMLen(content)
	body := content[bom:]
	cur := newCursor(content)
	for _, m := range re.FindAllSubmatchIndex(body, -1) {
		groups := make([]string, len(m)/2)
		for g := range groups {
			if m[2*g] >= 0 {
				groups[g] = string(body[m[2*g]:m[2*g+1]])
			}
		}
		start := cur.at(bom + m[0])
		end := cur.at(bom + m[1])
		matches = append(matches, Match{Range: Range{Start: start, End: end}, Groups: groups})
	}
	return matches
}
