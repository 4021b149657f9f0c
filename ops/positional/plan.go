package positional

import (
	"github.com/git-edit/git-edit/ops/jsonargs"
	"github.com/git-edit/git-edit/ops/text"
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
//
// Matches holds at most MaxSearchMatches matches. When the file has more,
// Truncated is true and Total is the number of all of them; otherwise both
// are zero and omitted from the JSON, so a result that is not truncated is
// the seed's object exactly.
type SearchResult struct {
	Matches   []Match `json:"matches"`
	Truncated bool    `json:"truncated,omitempty"`
	Total     int     `json:"total,omitempty"`
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

// Found returns search's result for matches that are all the matches (not
// truncated); a nil matches becomes an empty list.
func Found(matches []Match) SearchResult {
	if matches == nil {
		matches = []Match{}
	}
	return SearchResult{Matches: matches}
}

// Planned is what Plan decided: the spans and the seed's result object.
type Planned struct {
	// Edits are spans over the content, for text.ApplyEdits (always nil
	// for search).
	Edits []text.Edit
	// Response is the seed's result object: MessageResult,
	// ReplaceAllResult or SearchResult.
	Response any
}

// Plan runs the planner of a.Command against content and returns its edits
// and its seed result. path is used in messages only. Errors are those of
// the planner, with a zero Planned; an unknown command, or a pattern
// command without a.Regexp, wraps ErrInvalidArgs.
func Plan(path string, content []byte, a Args) (Planned, error) {
	var edits []text.Edit
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
			return Planned{}, invalid(`search needs a compiled "pattern"; parse the arguments with Parse`)
		}
		res = Search(content, a.Regexp)
	default:
		return Planned{}, invalid(`unknown command %q; use one of %s`, a.Command, jsonargs.OrList(Commands))
	}
	if err != nil {
		return Planned{}, err
	}
	return Planned{Edits: edits, Response: res}, nil
}

// PlanInsert plans inserting a.Content at a.Position. In a CRLF file the
// content's lone "\n" become "\r\n". Empty content changes nothing and
// returns no edits. path is used in messages only.
//
// Errors wrap ErrPosition: a line, column or offset past the end, an offset
// splitting a "\r\n", or line+column and offset that disagree. Each names
// the value, the valid range and what to give instead.
func PlanInsert(path string, content []byte, a Args) ([]text.Edit, error) {
	at, err := newLocator(path, content).resolve("", a.Position)
	if err != nil {
		return nil, err
	}
	if a.Content == "" {
		return nil, nil
	}
	return []text.Edit{{Start: at, End: at, New: text.ToEOL(a.Content, text.DetectEOL(content))}}, nil
}

// PlanDelete plans deleting a.Range. An empty range changes nothing and
// returns no edits. path is used in messages only.
//
// Errors wrap ErrPosition: either end invalid as for PlanInsert (the
// message starts "range start: " or "range end: "), or start after end.
func PlanDelete(path string, content []byte, a Args) ([]text.Edit, error) {
	start, end, err := newLocator(path, content).span(a.Range)
	if err != nil || start == end {
		return nil, err
	}
	return []text.Edit{{Start: start, End: end}}, nil
}

// PlanReplace plans replacing a.Range with a.Content (in a CRLF file with
// its lone "\n" as "\r\n"). An empty range makes it an insertion; when the
// new text equals the range's text it returns no edits. Errors as for
// PlanDelete. path is used in messages only.
func PlanReplace(path string, content []byte, a Args) ([]text.Edit, error) {
	start, end, err := newLocator(path, content).span(a.Range)
	if err != nil {
		return nil, err
	}
	repl := text.ToEOL(a.Content, text.DetectEOL(content))
	if repl == string(content[start:end]) {
		return nil, nil
	}
	return []text.Edit{{Start: start, End: end, New: repl}}, nil
}
