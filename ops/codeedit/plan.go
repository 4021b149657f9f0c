package codeedit

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-edit/git-edit/ops/jsonargs"
	ladder "github.com/git-edit/git-edit/ops/match"
	"github.com/git-edit/git-edit/ops/text"
)

// Plan resolves one edit against the current bytes of its file: content
// (ignored when !exists). Several edits to one file are planned one after
// another, each against the bytes the previous one produced.
//
// First it strips what agents paste around the texts (stripSearch and
// stripReplace): a filename line naming e.FilePath, ``` fences, and Aider's
// `<<<<<<< SEARCH` / `=======` / `>>>>>>> REPLACE` lines. When something was
// stripped from search but the search as written matches the file exactly
// or up to trailing whitespace, the stripped lines were file content (a
// fenced block in a Markdown file): the texts are then used as written. In
// a Markdown file a ``` fence pair is stripped from replace only if search
// had one too, since there fences are usually content.
//
// Then an empty or blank search appends replace to the file, or creates the
// file (Append; Stage StageAppend or StageCreate); any other search is
// matched with Match. A non-empty search on a missing file is refused with
// ErrFileNotFound. A *NoMatch gets e.FilePath as its Path; other Match
// errors are prefixed with it. Planned.Message ends with what was stripped.
func Plan(e Edit, content []byte, exists bool) (Planned, error) {
	if !exists {
		content = nil
	}
	worded := hasWordedMarker(e.Search) || hasWordedMarker(e.Replace)
	search, sw := stripSearch(e.FilePath, e.Search, worded)

	if exists && len(sw.notes) > 0 && !allBlank(splitLines(e.Search)) {
		f := newFile(content)
		S, R := splitLines(strings.TrimPrefix(e.Search, text.BOM)), splitLines(e.Replace)
		if blk := newBlock(S, R); blk.anchor >= 0 {
			if m, others, ok := f.find(blk, stTrailing); ok {
				r := f.result(m, others, S, R, stageNames[m.stage], "")
				r.Message += " The lines of search that look like " + jsonargs.AndList(sw.notes) + " are in the file at that place, so they were matched as file content, not stripped."
				return r, nil
			}
		}
	}

	replace, rw := stripReplace(e.FilePath, e.Replace, worded, !isMarkdown(e.FilePath) || sw.fenced)
	notes := strippedNote("search", sw) + strippedNote("replace", rw)

	if allBlank(splitLines(search)) {
		r := appendResult(e.FilePath, content, exists, replace)
		r.Message += notes
		return r, nil
	}
	if !exists {
		return Planned{}, fmt.Errorf("%w: %s does not exist, so search cannot be found in it; to create the file, send an empty search with the file's whole content in replace",
			ErrFileNotFound, e.FilePath)
	}
	// A placeholder in replace ("// ... rest of the method ...") where
	// search's code was would delete that code (a bare "..." line is this
	// format's elision, never a placeholder).
	if err := ladder.CheckOmission("replace", search, replace); err != nil {
		return Planned{}, fmt.Errorf("%s: %w", e.FilePath, err)
	}
	r, err := Match(content, search, replace)
	if err != nil {
		var nm *NoMatch
		if errors.As(err, &nm) {
			nm.Path = e.FilePath
			if notes != "" {
				nm.Hints = append(nm.Hints, strings.TrimSpace(notes))
			}
			return Planned{}, nm
		}
		return Planned{}, fmt.Errorf("%s: %w", e.FilePath, err)
	}
	r.Message += notes
	return r, nil
}

// strippedNote says what was stripped from one text, for the message.
func strippedNote(which string, w wrapping) string {
	if len(w.notes) == 0 {
		return ""
	}
	return fmt.Sprintf(" Stripped from %s: %s.", which, jsonargs.AndList(w.notes))
}

// Append returns the edits that add replace to a file: when !exists, one
// edit that makes the file's content replace, byte for byte (the caller
// creates the file, even when replace is empty); otherwise replace appended
// at the end, its lone "\n" converted to the file's line ending
// (text.DetectEOL), after a line ending when the file's last line lacks one
// (so the appended text starts on a line of its own). A BOM stays first.
// Appending "" returns no edits. replace's own final newline, or its
// absence, is kept.
func Append(content []byte, exists bool, replace string) []text.Edit {
	if !exists {
		return []text.Edit{{Start: 0, End: len(content), New: replace}}
	}
	if replace == "" {
		return nil
	}
	eol := text.DetectEOL(content)
	appended := text.ToEOL(replace, eol)
	if len(content) > text.BOMLen(content) && !text.EndsWithNewline(content) {
		appended = eol + appended
	}
	return []text.Edit{{Start: len(content), End: len(content), New: appended}}
}

// appendResult plans an empty search.
func appendResult(filePath string, content []byte, exists bool, replace string) Planned {
	edits := Append(content, exists, replace)
	n := text.LineCount([]byte(replace))
	if !exists {
		r := Planned{Edits: edits, Stage: StageCreate, Line: 1, EndLine: n}
		r.Message = fmt.Sprintf("Created %s with %s.", filePath, plural(n, "line"))
		if n == 0 {
			r.Line = 0
			r.Message = fmt.Sprintf("Created %s, empty.", filePath)
		}
		return r
	}
	if len(edits) == 0 {
		return Planned{Stage: StageAppend, Message: "Nothing was appended: search and replace are both empty."}
	}
	first := text.LineCount(content) + 1
	r := Planned{Edits: edits, Stage: StageAppend, Line: first, EndLine: first + n - 1}
	r.Message = fmt.Sprintf("Appended %s to the end of %s (%s).", plural(n, "line"), filePath, lineRange(first, first+n-1))
	return r
}
