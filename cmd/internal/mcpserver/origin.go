package mcpserver

import (
	"context"
	"strconv"

	gesession "github.com/git-edit/git-edit/repo/session"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Keys, in a tools/call request's _meta, of the model and the agent
// program that make the call's edit: a host that knows its model sends it
// with every call. They win over the server's --model and --agent.
const (
	metaModel = "git-edit/model"
	metaAgent = "git-edit/agent"
)

// withOrigin is ctx carrying the origin of a call's edit: per field, the
// request's _meta (metaModel, metaAgent), else the server's --model and
// --agent (base), else, for the agent, the client's name and version from
// its initialize request. The engine validates what _meta and the flags
// give (a bad value is the call's refusal); a client name that cannot be
// one trailer is left out instead, since the client cannot be told to
// change it.
func withOrigin(ctx context.Context, req *mcp.CallToolRequest, base gesession.Origin) context.Context {
	o := base
	meta := req.Params.GetMeta()
	if v, ok := metaString(meta[metaModel]); ok {
		o.Model = v
	}
	if v, ok := metaString(meta[metaAgent]); ok {
		o.Agent = v
	}
	if o.Agent == "" && req.Session != nil {
		if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil && p.ClientInfo.Name != "" {
			agent := p.ClientInfo.Name
			if p.ClientInfo.Version != "" {
				agent += " " + p.ClientInfo.Version
			}
			if gesession.ValidateOrigin(gesession.Origin{Agent: agent}) == nil {
				o.Agent = agent
			}
		}
	}
	if o == (gesession.Origin{}) {
		return ctx
	}
	return gesession.WithOrigin(ctx, o)
}

// metaString is a _meta value as text: a string, or a number's decimal
// text; ok is false for anything else.
func metaString(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), true
	}
	return "", false
}
