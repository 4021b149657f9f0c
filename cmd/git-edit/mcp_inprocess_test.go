package main

import (
	"context"
	"io"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/cmd/internal/mcpserver"
	"github.com/git-edit/git-edit/ops"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The tests run `git-edit mcp` in process: the server git-edit-mcp would
// run (mcpserver.Run), on the streams run was given, instead of replacing
// the test binary with the companion. The companion itself is tested
// through the built binaries (binDir).
func init() {
	runMCP = func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
		if code := mcpserver.Run(ctx, append([]string{"git-edit", "mcp"}, args...), stdin, stdout, stderr); code != 0 {
			return clikit.ExitStatus(code)
		}
		return nil
	}
}

// newMCPServer and newRootsMCPServer are the server's constructors under
// the names these tests have always used.
func newMCPServer(e *ops.Engine, tools []string, obs *ops.Observer) (*mcpserver.Server, error) {
	return mcpserver.New(e, tools, obs)
}

func newRootsMCPServer(opts ops.Options, dir string, tools []string, obs *ops.Observer, notes io.Writer) (*mcpserver.Server, error) {
	return mcpserver.NewFromRoots(opts, dir, tools, obs, notes)
}

// tokenPrefix starts every id the server's line guard hands the SDK; no
// reply may show one.
const tokenPrefix = mcpserver.TokenPrefix

// The JSON-RPC error codes the server's line guard answers with.
const (
	codeParseError     = jsonrpc.CodeParseError
	codeInvalidRequest = jsonrpc.CodeInvalidRequest
)

// maxLineBytes is the longest line the server reads on stdin.
const maxLineBytes = mcpserver.MaxLineBytes

// The keys, in a tools/call request's _meta, of the model and agent that
// make the call's edit: the names hosts send.
const (
	metaModel = "git-edit/model"
	metaAgent = "git-edit/agent"
)
