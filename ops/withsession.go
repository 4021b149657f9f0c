package ops

// WithSession opens an engine like e (the same repository, root, working
// directory and options) for session name instead: what an MCP call that
// names its session in _meta runs in. The caller closes it. Errors are
// Open's (a name git-edit does not accept wraps session.ErrBadName).
func (e *Engine) WithSession(name string) (*Engine, error) {
	opts := e.opts
	opts.Session = name
	return Open(opts)
}
