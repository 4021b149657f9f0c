package dialect

import (
	"github.com/git-edit/git-edit/diffview"
	"github.com/git-edit/git-edit/ops/text"
)

// SnippetContext is how many unchanged lines surround a change in a
// snippet.
const SnippetContext = 3

// Snippet renders a change for an agent: unified hunks with context. A BOM
// both versions share is left out: it is not text an agent reads or writes.
func Snippet(before, after []byte) string {
	if n := text.BOMLen(before); n > 0 && text.BOMLen(after) == n {
		before, after = before[n:], after[n:]
	}
	return diffview.Hunks(before, after, SnippetContext)
}
