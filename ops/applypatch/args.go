package applypatch

import (
	"github.com/git-edit/git-edit/ops/jsonargs"
)

// ToolName is the dialect's tool name (CLI and MCP).
const ToolName = "apply_patch"

// Fields lists the accepted argument fields.
var Fields = []string{"input"}

// Args are the decoded arguments of one apply_patch call.
type Args struct {
	// Input is the patch text, from "*** Begin Patch" to "*** End Patch",
	// as sent; Parse reads it.
	Input string
}

// argsExample is a whole valid call, shown when the arguments are wrong.
const argsExample = `{"input": "*** Begin Patch\n*** Add File: hello.txt\n+Hello, world!\n*** End Patch"}`

var argsSpec = jsonargs.Spec{Fields: Fields, Example: argsExample}

// ParseArgs decodes the JSON arguments of an apply_patch call: exactly one
// object with one field, "input", a string (jsonargs's rules: exact field
// names, no unknown or repeated fields, null counts as absent, valid UTF-8).
// The patch text itself is Parse's to check. Every error is a *Failure
// wrapping the jsonargs error, so errors.Is(err, ErrInvalidArgs) holds.
func ParseArgs(raw []byte) (Args, error) {
	fields, err := argsSpec.Decode(raw)
	if err != nil {
		return Args{}, invalidArgs(err)
	}
	if !fields.Has("input") {
		return Args{}, invalidArgs(jsonargs.Invalid(`apply_patch needs "input", the patch text from "*** Begin Patch" to "*** End Patch"; send %s`, argsExample))
	}
	input, err := jsonargs.String("input", fields["input"], `the patch text from "*** Begin Patch" to "*** End Patch"`)
	if err != nil {
		return Args{}, invalidArgs(err)
	}
	return Args{Input: input}, nil
}

// invalidArgs makes a jsonargs refusal a *Failure with the same text.
func invalidArgs(err error) *Failure {
	return &Failure{Message: err.Error(), Err: err}
}
