// Package positional is the pure logic of the positional `edit` dialect
// (seed 000): insert, delete and replace at positions given as line+column
// or as a character offset, and replaceAll and search with Go regular
// expressions. It parses and validates the JSON arguments, resolves positions
// against a file's bytes, plans the change as text.Edit spans and builds the
// seed's result objects. It never touches the disk or git.
//
// # Positions
//
// A position counts Unicode code points, never bytes: "line" and "column"
// are 1-based, "offset" is 0-based from the start of the file. An invalid
// UTF-8 byte counts as one character (as Go's utf8 package decodes it). A
// leading UTF-8 BOM is not a character: offset 0 and line 1, column 1 are
// both the first character after it, and no edit ever touches it.
//
// Lines follow package ops: a line ends at "\n", and "\r\n" is one line
// ending that belongs to no column. Line L's valid columns are 1 to its
// character count + 1; the last one is the end of the line, before its line
// ending. The end of the file is line LineCount+1, column 1 when the file
// ends with a newline (the empty position after it; for an empty file that
// is line 1, column 1), and otherwise the last line's end-of-line column.
// Offsets range from 0 to the file's character count (its end). An offset
// between the "\r" and "\n" of a "\r\n" would split that line ending and is
// refused, whatever line ending the file mostly uses.
//
// A position may give "offset", or "line" and "column", or all three; then
// they must name the same place.
//
// # Ranges
//
// A range's start is inclusive and its end exclusive; start must not be
// after end. An empty range (start == end) is allowed: replacing it is an
// insertion there, deleting it changes nothing.
//
// # Line endings
//
// In a CRLF file (text.DetectEOL) the lone "\n" of inserted or replacement
// text become "\r\n", so new lines match the file; in an LF file the text is
// written as given. "\r\n" written by the agent is never changed.
//
// # Patterns
//
// replaceAll and search use Go's regexp (RE2 syntax: no lookarounds or
// backreferences) over the file's bytes after the BOM, as they are: in a
// CRLF file "\r" is text that `.` matches, and (?m) is needed for per-line
// ^ and $. See PlanReplaceAll and Search.
//
// # Bounds
//
// A pattern may match at every character (x*). search returns at most
// MaxSearchMatches matches and then says "truncated": true and the "total"
// count, which it counts without building the rest; replaceAll builds the
// new content in one pass and plans one edit. Memory is linear in the file,
// not in the number of matches. Time is what Go's regexp takes to find the
// matches: linear for x* and the like, but a pattern whose empty match waits
// for a longer alternative to fail (`.*z|` in a file without z) rescans the
// rest of the file at every position, as regexp.ReplaceAll does.
//
// # No-op plans
//
// A plan that would not change the file (empty insert content, an empty
// range deleted, a replacement equal to the text it replaces, no match)
// returns no edits and no error; the caller decides how to report it.
package positional
