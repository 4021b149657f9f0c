// Package diffview renders unified diffs of file changes, in the exact form
// that git diff writes and git apply and patch accept, bounded in time and
// memory for any input.
//
// The bound comes from never handing a large input to a quadratic
// algorithm: the common prefix and suffix of whole lines are trimmed with
// linear byte comparisons, and only the changed window in between is diffed
// with Myers' algorithm (github.com/hexops/gotextdiff), and only if its
// cost there, known before calling it, is within a fixed budget. A window
// over that budget but with few changes (two one-line changes far apart in
// a large file) is diffed by Myers' linear-space refinement (linear.go),
// within a budget of its own. Only a window over both (a rewrite of
// thousands of lines, or thousands of changes spread over a large file)
// is shown as one replacement: all its old lines removed, all its new
// lines added. That diff is larger than a minimal one but just as correct.
//
// Lines end at "\n". A "\r" before it is part of the line's content, so
// CRLF files diff and apply like any other; bytes are never interpreted
// otherwise (there is no binary detection).
package diffview

import "bytes"

// This file holds the entry points. The rest reads in the order the work
// is done: runs.go, the runs of equal, removed and added lines that every
// step passes on; window.go, the split of two files into an equal prefix,
// a changed window and an equal suffix; guard.go, the cost guard that
// decides whether a window may go to Myers; myers.go, the call to
// gotextdiff and the check of its result; hunks.go, the grouping of runs
// into hunks and their text; quote.go, the file names in the headers.

// maxContext caps the requested context so that 2·context cannot overflow
// even a 32-bit int; it is more lines than any file given here can have.
const maxContext = 1 << 29

// Unified returns a git-style unified diff turning old into new, with
// context lines of unchanged text around each change (a negative context
// counts as 0). It starts with the header lines "--- a/<oldName>" and
// "+++ b/<newName>"; an empty oldName stands for a created file and is
// written "--- /dev/null", an empty newName for a deleted file, written
// "+++ /dev/null". Names needing it are C-quoted as git does. The names are
// labels only: a renamed file is not marked as a rename. Unified returns ""
// when old and new are equal.
func Unified(oldName, newName string, old, new []byte, context int) string {
	header := "--- " + headerPath("a/", oldName) + "\n+++ " + headerPath("b/", newName) + "\n"
	return render(header, old, new, context, maxMyersLines, false)
}

// A Side is one side of a change of one file: the file's path and content,
// or Exists false where the file does not exist (before it was created, or
// after it was deleted), in which case Path and Content are not read. The
// Path of an existing side must not be empty: Unified, which FileChange
// calls, reads an empty name as an absent file.
type Side struct {
	Path    string
	Content []byte
	Exists  bool
}

// FileChange is Unified for a change where either side may be absent: an
// absent side is written "/dev/null" in its header and diffed as empty, so
// a created file shows all its lines added and a deleted one all its lines
// removed. Like Unified it returns "" when there is nothing to show: equal
// contents, both sides absent, or an empty file created or deleted (git
// diff would show a header and no hunk).
func FileChange(old, new Side, context int) string {
	oldName, oldContent := sideOrNull(old)
	newName, newContent := sideOrNull(new)
	return Unified(oldName, newName, oldContent, newContent, context)
}

// FileChangeNumbered is FileChange with each hunk's header line followed
// by its number in the file (HunkLabel: " hunk 1", " hunk 2"...), as
// `git edit diff` prints it: the numbers `git edit reject --hunk` takes,
// the same as the indexes of FileHunks plus one. git apply and patch
// ignore text after a header's second "@@", so the diff still applies.
func FileChangeNumbered(old, new Side, context int) string {
	oldName, oldContent := sideOrNull(old)
	newName, newContent := sideOrNull(new)
	header := "--- " + headerPath("a/", oldName) + "\n+++ " + headerPath("b/", newName) + "\n"
	return render(header, oldContent, newContent, context, maxMyersLines, true)
}

// Hunks is Unified without the two header lines: only the
// "@@ -l,s +l,s @@" hunks, numbered by the lines of the full old and new
// files. It is the snippet shown after an edit. Hunks returns "" when old
// and new are equal.
func Hunks(old, new []byte, context int) string {
	return render("", old, new, context, maxMyersLines, false)
}

// Stat counts the lines a diff of old to new adds and removes, as
// `git diff --numstat` does, with Unified's bounds: a window too costly for
// Myers counts as all of its old lines removed and new lines added.
func Stat(old, new []byte) (added, removed int) {
	if bytes.Equal(old, new) {
		return 0, 0
	}
	for _, r := range changeRuns(old, new, maxMyersLines) {
		switch r.sign {
		case '+':
			added += r.lines
		case '-':
			removed += r.lines
		}
	}
	return added, removed
}

// render writes header and the hunks turning old into new. Windows of more
// than myersLimit lines never go to gotextdiff (see appendWindow); with a
// myersLimit of 0 every window is shown as a single replacement.
func render(header string, old, new []byte, context, myersLimit int, numbered bool) string {
	if bytes.Equal(old, new) {
		return ""
	}
	return write(header, plan(old, new, context, myersLimit), old, new, numbered)
}

// plan is the hunks of the diff of old to new: the one grouping that
// render writes and FileHunks returns, so that the numbers `git edit diff`
// prints name the hunks reject takes back.
func plan(old, new []byte, context, myersLimit int) []hunk {
	context = min(max(context, 0), maxContext)
	return planHunks(changeRuns(old, new, myersLimit), old, context)
}

// sideOrNull returns s's path and content as Unified takes them: "" and no
// content for an absent side.
func sideOrNull(s Side) (name string, content []byte) {
	if !s.Exists {
		return "", nil
	}
	return s.Path, s.Content
}
