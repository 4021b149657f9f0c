// Package exactedit is the pure logic of the Edit, MultiEdit and Read dialect
// (seed 002): exact, case- and whitespace-sensitive string replacement with a
// uniqueness check and replace_all, a batch of such replacements applied all
// or nothing, and the `cat -n` view that agents copy old_string from.
//
// Parse* decode and check a call's JSON arguments; PlanEdit and
// PlanMultiEdit resolve them against a file's current bytes and compile them
// to text.Edit spans; RenderRead renders lines. Read-before-edit is the
// caller's to enforce: NotRead and ModifiedSinceRead give it the texts.
// Nothing here touches the disk or git.
//
// Every refusal is a *Failure, the seed's {"error": ..., "details": ...}
// object: Message is the seed's error text exactly where the seed has one,
// and Details says what to do next.
package exactedit
