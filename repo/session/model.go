package session

import (
	"context"
	"fmt"
)

// Origin is what the agent's host says about who makes a session's
// changes: the model (Edit-Model) and the agent program (Edit-Agent,
// "<name> <version>"). Either may be "" (not known).
type Origin struct {
	Model, Agent string
}

// originKey is the context key of WithOrigin.
type originKey struct{}

// WithOrigin returns ctx carrying o: the session's changes made under it
// (edits, records; not syncs, undos, redos, rollbacks) are recorded with
// Edit-Model and Edit-Agent trailers. Like the turn it is request-scoped:
// one MCP server may serve calls that name different models in their
// _meta. o's fields must be valid (ValidateOrigin) or "".
func WithOrigin(ctx context.Context, o Origin) context.Context {
	return context.WithValue(ctx, originKey{}, o)
}

// OriginOf is the origin ctx carries (WithOrigin), or the zero Origin.
func OriginOf(ctx context.Context) Origin {
	o, _ := ctx.Value(originKey{}).(Origin)
	return o
}

// ValidateOrigin checks o's model id and agent name as ValidateTurn checks
// a turn id: each, when given, 1 to 128 bytes of UTF-8 text on one line,
// no control characters, no leading or trailing space, so that it is one
// trailer and reads back unchanged. The error wraps ErrBadLabel.
func ValidateOrigin(o Origin) error {
	if o.Model != "" {
		if err := validateLabel(o.Model); err != nil {
			return fmt.Errorf("%w: model %q %s; give the model's id as its provider names it, such as claude-sonnet-4-5", ErrBadLabel, o.Model, err.Error())
		}
	}
	if o.Agent != "" {
		if err := validateLabel(o.Agent); err != nil {
			return fmt.Errorf("%w: agent %q %s; give the agent program's name and version, such as \"claude-code 2.1.3\"", ErrBadLabel, o.Agent, err.Error())
		}
	}
	return nil
}
