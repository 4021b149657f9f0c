package main

import (
	"path/filepath"
	"strings"

	"github.com/git-edit/git-edit/repo/session"
)

// An agent host that `git edit install` configures: its name on the
// command line, the files it reads, and what git-edit adds to each. The
// list below is the one place hosts are named: install's help, its checks
// and the tests all derive from it.
type agentHost struct {
	Name, Title string
	// UserOnly: the host reads no project file (Claude Desktop).
	UserOnly bool
	// Files are the files to write, for the scope and session in c.
	Files func(c hostContext) []hostFile
}

// hostContext is where install writes and what it writes there.
type hostContext struct {
	User    bool   // --user: the user's files, else the project's
	Top     string // the top of the worktree (the project)
	Home    string // the user's home directory
	Config  string // the user's configuration directory (os.UserConfigDir)
	Codex   string // $CODEX_HOME, else ~/.codex
	Session string // the session the MCP server and the hooks share
}

// hostFile is one file a host reads and the entries git-edit adds to it.
type hostFile struct {
	Path string // absolute
	TOML bool   // a TOML file (Codex's config.toml); else JSON
	// Comments: the host reads this JSON file with comments and trailing
	// commas (JSONC), so install keeps them; else a file holding either
	// is refused, as the host would refuse it.
	Comments bool
	// Skeleton is the file install creates before adding the entries
	// when there is none; uninstall removes a file left as Skeleton.
	Skeleton string
	Entries  []hostEntry
}

// hostEntry is one value git-edit adds: the member Key of the object at
// Path (from the top of the file), or, with Key "", an element of the
// array at Path. Containers on Path that are missing are created.
type hostEntry struct {
	Path  []string
	Key   string
	Value any
}

// mcpEntry is an MCP server entry as the hosts' JSON files take it.
type mcpEntry struct {
	Type    string   `json:"type,omitempty"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// matcherHooks is a hook group in Claude Code's shape (Codex and Gemini
// CLI take the same): the tools it matches and the commands to run.
type matcherHooks struct {
	Matcher string        `json:"matcher"`
	Hooks   []commandHook `json:"hooks"`
}

type commandHook struct {
	Name    string `json:"name,omitempty"` // Gemini CLI names its hooks
	Type    string `json:"type"`
	Command string `json:"command"`
}

// cursorHook is a command in Cursor's hooks.json.
type cursorHook struct {
	Command string `json:"command"`
}

// mcpArgs are the server's arguments: `git-edit mcp`, with --root where
// the host starts servers outside the project, and the session.
func mcpArgs(root, session string) []string {
	args := []string{"mcp"}
	if root != "" {
		args = append(args, "--root", root)
	}
	return append(args, "--session", session)
}

// recordCommands are the hook commands before and after an agent's shell
// (or patch) tool: `git edit record --before --hook-input` and `git edit
// record --hook-input` for session name, in dir (a variable the host sets
// to the project; "": the hook's working directory), with extra after them.
func recordCommands(dir, name, extra string) (before, after string) {
	git := "git edit"
	if dir != "" {
		git = `git -C "` + dir + `" edit`
	}
	// The hosts run a hook's command through a shell: the session name is
	// quoted for it (a name may hold $, ; or quotes: unquoted, the hook would
	// run what the name says, or record into another session).
	s := " --session " + session.ShellQuote(name) + extra
	return git + " record --before --hook-input" + s, git + " record --hook-input" + s
}

// pick is project or user, by the scope.
func (c hostContext) pick(project, user string) string {
	if c.User {
		return user
	}
	return project
}

var agentHosts = []agentHost{
	{
		Name: "claude-code", Title: "Claude Code",
		Files: func(c hostContext) []hostFile {
			before, after := recordCommands("$CLAUDE_PROJECT_DIR", c.Session, "")
			return []hostFile{{
				// claude mcp add --scope project writes .mcp.json; the
				// user scope is ~/.claude.json's mcpServers.
				Path: c.pick(filepath.Join(c.Top, ".mcp.json"), filepath.Join(c.Home, ".claude.json")),
				Entries: []hostEntry{{Path: []string{"mcpServers"}, Key: "git-edit",
					Value: mcpEntry{Command: "git-edit", Args: mcpArgs("", c.Session)}}},
			}, {
				Path: c.pick(filepath.Join(c.Top, ".claude", "settings.json"), filepath.Join(c.Home, ".claude", "settings.json")),
				Entries: []hostEntry{
					{Path: []string{"hooks", "PreToolUse"}, Value: matcherHooks{"Bash", []commandHook{{Type: "command", Command: before}}}},
					{Path: []string{"hooks", "PostToolUse"}, Value: matcherHooks{"Bash", []commandHook{{Type: "command", Command: after}}}},
				},
			}}
		},
	},
	{
		Name: "codex", Title: "Codex CLI",
		Files: func(c hostContext) []hostFile {
			// Codex runs hooks in the session's working directory; its
			// PreToolUse and PostToolUse match Bash and apply_patch.
			before, after := recordCommands("", c.Session, "")
			dir := c.pick(filepath.Join(c.Top, ".codex"), c.Codex)
			return []hostFile{{
				Path: filepath.Join(dir, "config.toml"), TOML: true,
				Entries: []hostEntry{{Path: []string{"mcp_servers"}, Key: "git-edit",
					Value: mcpEntry{Command: "git-edit", Args: mcpArgs("", c.Session)}}},
			}, {
				Path: filepath.Join(dir, "hooks.json"),
				Entries: []hostEntry{
					{Path: []string{"hooks", "PreToolUse"}, Value: matcherHooks{"Bash|apply_patch", []commandHook{{Type: "command", Command: before}}}},
					{Path: []string{"hooks", "PostToolUse"}, Value: matcherHooks{"Bash|apply_patch", []commandHook{{Type: "command", Command: after}}}},
				},
			}}
		},
	},
	{
		Name: "gemini", Title: "Gemini CLI",
		Files: func(c hostContext) []hostFile {
			// Gemini CLI reads a hook's stdout as its JSON answer: record's
			// report goes to stderr.
			before, after := recordCommands("$GEMINI_PROJECT_DIR", c.Session, " >&2")
			return []hostFile{{
				// Gemini CLI strips comments from settings.json.
				Path: c.pick(filepath.Join(c.Top, ".gemini", "settings.json"), filepath.Join(c.Home, ".gemini", "settings.json")), Comments: true,
				Entries: []hostEntry{
					{Path: []string{"mcpServers"}, Key: "git-edit", Value: mcpEntry{Command: "git-edit", Args: mcpArgs("", c.Session)}},
					{Path: []string{"hooks", "BeforeTool"}, Value: matcherHooks{"run_shell_command", []commandHook{{Name: "git-edit-record-before", Type: "command", Command: before}}}},
					{Path: []string{"hooks", "AfterTool"}, Value: matcherHooks{"run_shell_command", []commandHook{{Name: "git-edit-record", Type: "command", Command: after}}}},
				},
			}}
		},
	},
	{
		Name: "cursor", Title: "Cursor",
		Files: func(c hostContext) []hostFile {
			// Cursor expands ${workspaceFolder} in the project's mcp.json;
			// from the user's, the server takes the roots Cursor offers.
			// Its shell hooks get the command as "command"; their stdout
			// is Cursor's answer, so record's report goes to stderr.
			root := c.pick("${workspaceFolder}", "")
			before, after := recordCommands("", c.Session, " >&2")
			dir := c.pick(filepath.Join(c.Top, ".cursor"), filepath.Join(c.Home, ".cursor"))
			return []hostFile{{
				// Cursor reads mcp.json as VS Code reads JSONC.
				Path: filepath.Join(dir, "mcp.json"), Comments: true,
				Entries: []hostEntry{{Path: []string{"mcpServers"}, Key: "git-edit",
					Value: mcpEntry{Command: "git-edit", Args: mcpArgs(root, c.Session)}}},
			}, {
				Path: filepath.Join(dir, "hooks.json"), Skeleton: "{\n  \"version\": 1\n}\n",
				Entries: []hostEntry{
					{Path: []string{"hooks", "beforeShellExecution"}, Value: cursorHook{before}},
					{Path: []string{"hooks", "afterShellExecution"}, Value: cursorHook{after}},
				},
			}}
		},
	},
	{
		Name: "vscode", Title: "VS Code",
		Files: func(c hostContext) []hostFile {
			// VS Code expands ${workspaceFolder} in .vscode/mcp.json; the
			// user's mcp.json serves every window, so there the server
			// takes the roots VS Code offers.
			root := c.pick("${workspaceFolder}", "")
			return []hostFile{{
				// VS Code reads mcp.json as JSON with comments.
				Path: c.pick(filepath.Join(c.Top, ".vscode", "mcp.json"), filepath.Join(c.Config, "Code", "User", "mcp.json")), Comments: true,
				Entries: []hostEntry{{Path: []string{"servers"}, Key: "git-edit",
					Value: mcpEntry{Type: "stdio", Command: "git-edit", Args: mcpArgs(root, c.Session)}}},
			}}
		},
	},
	{
		Name: "claude-desktop", Title: "Claude Desktop", UserOnly: true,
		Files: func(c hostContext) []hostFile {
			// Claude Desktop has no project: the server edits the
			// repository install ran in.
			return []hostFile{{
				Path: filepath.Join(c.Config, "Claude", "claude_desktop_config.json"),
				Entries: []hostEntry{{Path: []string{"mcpServers"}, Key: "git-edit",
					Value: mcpEntry{Command: "git-edit", Args: mcpArgs(c.Top, c.Session)}}},
			}}
		},
	},
}

// hostNames lists the hosts for help and messages: "claude-code, codex, …".
func hostNames() string {
	names := make([]string, len(agentHosts))
	for i, h := range agentHosts {
		names[i] = h.Name
	}
	return strings.Join(names, ", ")
}

// findHost returns the host named name, or nil.
func findHost(name string) *agentHost {
	for i := range agentHosts {
		if agentHosts[i].Name == name {
			return &agentHosts[i]
		}
	}
	return nil
}
