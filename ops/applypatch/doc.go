// Package applypatch is the pure logic of the apply_patch dialect: the patch
// format OpenAI's Codex models are trained to emit (codex-rs/apply-patch in
// openai/codex), a stripped-down, file-oriented diff:
//
//	*** Begin Patch
//	*** Add File: hello.txt
//	+Hello world
//	*** Update File: src/app.py
//	*** Move to: src/main.py
//	@@ def greet():
//	-print("Hi")
//	+print("Hello, world!")
//	*** Delete File: obsolete.txt
//	*** End Patch
//
// ParseArgs decodes a call's JSON arguments; Parse reads the patch text into
// a Patch; Plan resolves it against the current content of every file it
// names and returns each file's new state, all or nothing. An Update is
// compiled to text.Edit spans over the file's bytes and applied with
// text.ApplyEdits, as every dialect is. Nothing here touches the disk or git:
// the caller reads the files (under its lock), resolves and confines paths,
// and writes and commits the changes.
//
// Every refusal is a *Failure: the text an agent reads, worded as Codex
// words it where Codex has a text, followed by what to do next, plus the
// file, hunk and lines it concerns for a structured result.
//
// Where this package departs from Codex, on purpose:
//
//   - All or nothing: Codex applies file operations one by one and stops at
//     the first failure, leaving the earlier ones applied; Plan refuses the
//     whole patch.
//   - Adding an existing file and moving onto an existing file are refused
//     (Codex overwrites); two operations on one path are refused (Codex
//     applies both in turn).
//   - Line endings, a UTF-8 BOM and a missing final newline are kept, as in
//     every dialect (Codex writes "\n" and always ends the file with one).
//   - Context lines (' ') keep the file's bytes: a line matched ignoring
//     whitespace or Unicode punctuation is left as the file has it; only
//     '-' lines are removed and '+' lines written.
//   - A pure addition (a hunk with only '+' lines) under an "@@ header" goes
//     right after the header's line; Codex appends it to the end of the file
//     whatever the header. Without a header it is appended, as in Codex.
//   - Several "@@ header" lines in a row narrow the search one after
//     another, as Codex's instructions describe; Codex's parser refuses them.
//   - An Update with "*** Move to" and no hunk renames the file unchanged.
//   - Blank lines between file operations are skipped, "*** End of File"
//     may carry surrounding whitespace, an "@@ " header of only whitespace is
//     a bare "@@", and paths are trimmed of surrounding whitespace.
//   - A hunk matched with its indentation forgiven has its added lines
//     re-indented the way the match was (one offset, a change of unit such
//     as 2 spaces to 4 or to tabs, or each run's removed line's place);
//     Codex writes them as sent (VS Code Copilot's #267547). An added line
//     that repeats a removed line is written as the file has it.
//   - Where Codex refuses, it forgives, and the result and the Edit-Match
//     trailer say so (Summary.Forgiven): context lines without their
//     leading space; hunks out of file order (unless they overlap); "@@"
//     without its space; "@@ -a,b +c,d @@" headers; shell heredoc wrappers
//     (`bash -lc`, `cat <<'EOF'`, `apply_patch <<"EOF"`); plain unified
//     diffs ("--- a/x", "+++ b/x", "diff --git", /dev/null for add and
//     delete); and, after Codex's ladder, NFC/NFD-equal lines and a literal
//     `\t` for a tab.
//   - A hunk without an "@@" header whose lines occur again further on is
//     applied at the first place after the previous hunk, as Codex does,
//     and the result names the other places.
package applypatch
