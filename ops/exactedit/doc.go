// Package exactedit is the pure logic of the Edit, MultiEdit and Read dialect
// (seed 002): string replacement with a uniqueness check and replace_all, a
// batch of such replacements applied all or nothing, and the `cat -n` view
// that agents copy old_string from.
//
// Matching is exact first, as the seed asks; only when old_string is found
// nowhere exactly (nor without Read's line-number prefixes) does it climb
// the match package's ladder, and a match found there says what it forgave.
// expected_replacements fixes how many places must match, a line hint picks
// one of several, and an empty old_string fills a file without text. In a
// MultiEdit, an edit may not change text an earlier edit of the same call
// wrote unless the call asks for it ("sequential").
//
// Parse* decode and check a call's JSON arguments; Plan, PlanEdit and
// PlanMultiEdit resolve them against a file's current bytes and compile them
// to text.Edit spans; RenderRead renders lines. Read-before-edit is the
// caller's to enforce: NotRead and ModifiedSinceRead give it the texts.
// Nothing here touches the disk or git.
//
// Every refusal is a *Failure, the seed's {"error": ..., "details": ...}
// object: Message is the seed's error text exactly where the seed has one,
// and Details says what to do next.
package exactedit
