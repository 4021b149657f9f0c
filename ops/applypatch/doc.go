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
package applypatch
