// Package text is the pure text engine shared by every edit-tool dialect.
//
// Every dialect compiles a request into byte spans ([Edit]) over the current
// content of a file; [ApplyEdits] applies them. The helpers here describe the
// line model (lines, line endings, the UTF-8 BOM) and find occurrences of text,
// so that all dialects agree on what "line 3" or "exactly once" means.
//
// Nothing in this package touches the disk or git: every function is a pure
// function over bytes, never modifies its inputs, and never panics on any
// input.
package text
