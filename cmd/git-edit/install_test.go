package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/tailscale/hujson"
)

var update = flag.Bool("update", false, "rewrite the golden files of cmd/git-edit/testdata")

// otherJSON is a host file with the person's own settings: other servers,
// other hooks (of the same events too), tabs, text git-edit must not
// touch (<&> and ü, which an encoder would escape), no final newline.
const otherJSON = "{\n" +
	"\t\"$schema\": \"https://example.invalid/schema.json\",\n" +
	"\t\"mcpServers\": {\"other\": {\"command\": \"other-server\", \"args\": [\"--flag\"]}},\n" +
	"\t\"servers\": {\n\t\t\"other\": {\"type\": \"stdio\", \"command\": \"y\"}\n\t},\n" +
	"\t\"hooks\": {\n" +
	"\t\t\"PreToolUse\": [{\"matcher\": \"Write\", \"hooks\": [{\"type\": \"command\", \"command\": \"echo <&> \\u00fc ü\"}]}],\n" +
	"\t\t\"beforeShellExecution\": [ ]\n" +
	"\t},\n" +
	"\t\"version\": 1,\n" +
	"\t\"permissions\": {\"deny\": [\"Edit\"], \"allow\": []}\n" +
	"}"

// otherTOML is Codex's config.toml with the person's settings: comments,
// other servers, no final newline.
const otherTOML = "# my Codex settings\nmodel = \"o3\"  # the model\n\n[features]\nhooks = true\n\n[mcp_servers.other]\ncommand = \"other\"\nargs = [\"a\", \"b\"]"

// installEnv is a repository and a home directory for install's tests.
type installEnv struct {
	dir, home string
}

func newInstallEnv(t *testing.T) installEnv {
	t.Helper()
	return installEnv{dir: gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"}), home: t.TempDir()}
}

// run runs install (or uninstall) as the command does, with the home and
// configuration directories in e.home.
func (e installEnv) run(t *testing.T, host string, uninstall, user, dryRun bool) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := runInstall(installOptions{Host: host, Uninstall: uninstall, User: user, DryRun: dryRun, Root: e.dir,
		Home: e.home, Config: filepath.Join(e.home, ".config"), Stdout: &out})
	return out.String(), err
}

// files is every file of the host for the scope (the context install
// uses, filled as runInstall fills it).
func (e installEnv) files(h agentHost, user bool) []hostFile {
	return h.Files(hostContext{User: user || h.UserOnly, Top: e.dir, Home: e.home, Config: filepath.Join(e.home, ".config"),
		Codex: filepath.Join(e.home, ".codex"), Session: h.Name})
}

// snapshot is every file under the repository and the home directory,
// and every directory (so that one left behind is seen).
func (e installEnv) snapshot(t *testing.T) map[string]string {
	t.Helper()
	m := snapshotTree(t, e.dir)
	for k, v := range snapshotTree(t, e.home) {
		m[k] = v
	}
	for _, root := range []string{e.dir, e.home} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				m[p+"/"] = "dir"
			}
			return err
		})
	}
	return m
}

// golden compares got with testdata/install/<name>, or writes it with
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "install", filepath.FromSlash(name))
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s:\n%s\nwant\n%s", path, got, want)
	}
}

// norm writes the repository's temporary path as <repo> (Claude Desktop's
// --root names it).
func (e installEnv) norm(b []byte) []byte {
	return bytes.ReplaceAll(b, []byte(e.dir), []byte("<repo>"))
}

// goldenName is where a host file's golden copy lives.
func (e installEnv) goldenName(host, scope string, path string) string {
	if rel, err := filepath.Rel(e.dir, path); err == nil && !strings.HasPrefix(rel, "..") {
		return host + "/" + scope + "/" + filepath.ToSlash(rel)
	}
	rel, _ := filepath.Rel(e.home, path)
	return host + "/" + scope + "/home/" + filepath.ToSlash(rel)
}

// git edit install HOST, for every host and both scopes, from nothing:
// each file is created as its golden copy says; a second install changes
// nothing and says so; --dry-run writes nothing and prints the diff;
// uninstall removes every file and directory install created, so the
// repository and the home directory are as they were, byte for byte.
func TestInstallCreatesAndUninstallRemovesEveryHostFile(t *testing.T) {
	for _, h := range agentHosts {
		for _, user := range []bool{false, true} {
			if h.UserOnly && !user {
				continue
			}
			scope := map[bool]string{false: "project", true: "user"}[user]
			t.Run(h.Name+"/"+scope, func(t *testing.T) {
				e := newInstallEnv(t)
				before := e.snapshot(t)
				out, err := e.run(t, h.Name, false, user, true)
				if err != nil || !strings.HasSuffix(out, "(dry run: nothing was written)\n") || strings.Count(out, "--- /dev/null\n") != len(e.files(h, user)) {
					t.Fatalf("install --dry-run: %v\n%s", err, out)
				}
				sameTree(t, "install --dry-run", before, e.snapshot(t))

				if out, err = e.run(t, h.Name, false, user, false); err != nil {
					t.Fatalf("install: %v\n%s", err, out)
				}
				for _, f := range e.files(h, user) {
					b, err := os.ReadFile(f.Path)
					if err != nil {
						t.Fatal(err)
					}
					golden(t, e.goldenName(h.Name, scope+"-created", f.Path), e.norm(b))
					if st, _ := os.Stat(f.Path); st.Mode().Perm() != 0o644 {
						t.Errorf("%s has mode %v", f.Path, st.Mode())
					}
				}
				installed := e.snapshot(t)
				out, err = e.run(t, h.Name, false, user, false)
				if err != nil || strings.Count(out, "already installed in ") != len(e.files(h, user)) {
					t.Fatalf("install again: %v\n%s", err, out)
				}
				sameTree(t, "install again", installed, e.snapshot(t))

				if out, err = e.run(t, h.Name, true, user, false); err != nil || strings.Count(out, "removed ") != len(e.files(h, user)) {
					t.Fatalf("uninstall: %v\n%s", err, out)
				}
				after := e.snapshot(t)
				if h.UserOnly || user {
					// install made the directories under the home; those
					// that are the user's configuration stay.
					delete(after, filepath.Join(e.home, ".config")+"/")
					delete(before, filepath.Join(e.home, ".config")+"/")
				}
				sameTree(t, "uninstall", before, after)
				if out, err = e.run(t, h.Name, true, user, false); err != nil || !strings.Contains(out, "not installed in ") {
					t.Fatalf("uninstall again: %v\n%s", err, out)
				}
			})
		}
	}
}

// install merges git-edit's entries into files that hold the person's
// own settings (tabs, other servers, other hooks of the same events, no
// final newline): the result is the golden copy, a second install changes
// nothing, and uninstall gives back the original bytes. --dry-run prints
// the diff and writes nothing.
func TestInstallMergesIntoThePersonsFilesAndUninstallRestoresTheirBytes(t *testing.T) {
	for _, h := range agentHosts {
		t.Run(h.Name, func(t *testing.T) {
			e := newInstallEnv(t)
			files := e.files(h, false)
			for _, f := range files {
				content := otherJSON
				if f.TOML {
					content = otherTOML
				}
				if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(f.Path, []byte(content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			before := e.snapshot(t)
			out, err := e.run(t, h.Name, false, false, true)
			if err != nil || strings.Count(out, "\n--- a/") != len(files)-1 || !strings.HasPrefix(out, "--- a/") {
				t.Fatalf("install --dry-run: %v\n%s", err, out)
			}
			golden(t, h.Name+"/merged.diff", e.norm([]byte(out)))
			sameTree(t, "install --dry-run", before, e.snapshot(t))

			if out, err = e.run(t, h.Name, false, false, false); err != nil || strings.Count(out, "updated ") != len(files) {
				t.Fatalf("install: %v\n%s", err, out)
			}
			for _, f := range files {
				b, _ := os.ReadFile(f.Path)
				golden(t, e.goldenName(h.Name, "merged", f.Path), e.norm(b))
				if st, _ := os.Stat(f.Path); st.Mode().Perm() != 0o600 {
					t.Errorf("%s: mode %v, want the file's own 0600", f.Path, st.Mode())
				}
			}
			installed := e.snapshot(t)
			if out, err = e.run(t, h.Name, false, false, false); err != nil || strings.Count(out, "already installed in ") != len(files) {
				t.Fatalf("install again: %v\n%s", err, out)
			}
			sameTree(t, "install again", installed, e.snapshot(t))
			if out, err = e.run(t, h.Name, true, false, false); err != nil || strings.Count(out, "updated ") != len(files) {
				t.Fatalf("uninstall: %v\n%s", err, out)
			}
			sameTree(t, "uninstall", before, e.snapshot(t))
		})
	}
}

// A host file that does not parse is refused, naming the file and where
// it fails, and nothing is written: not that file, not the host's others.
// So is an entry named git-edit that install did not write (another
// session's): install leaves it, uninstall too.
func TestInstallRefusesMalformedFilesAndForeignEntries(t *testing.T) {
	for _, h := range agentHosts {
		t.Run(h.Name, func(t *testing.T) {
			e := newInstallEnv(t)
			files := e.files(h, false)
			bad := files[len(files)-1]
			content, wantErr := "{\n  \"mcpServers\": {,\n}\n", "not JSON: line 2, column 18"
			if bad.TOML {
				content, wantErr = "[mcp_servers\ncommand = 1\n", "not TOML: line 1"
			}
			if err := os.MkdirAll(filepath.Dir(bad.Path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(bad.Path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			before := e.snapshot(t)
			for _, uninstall := range []bool{false, true} {
				out, err := e.run(t, h.Name, uninstall, false, false)
				if err == nil || !clikit.IsRefusal(err) || !strings.Contains(err.Error(), e.showPath(h, bad.Path)+": "+wantErr) || !strings.Contains(err.Error(), "nothing was written") {
					t.Fatalf("uninstall=%v: %v\n%s", uninstall, err, out)
				}
				sameTree(t, "a refused install", before, e.snapshot(t))
			}
			if err := os.Remove(bad.Path); err != nil {
				t.Fatal(err)
			}

			// Installed for another session first: the entries differ.
			var out bytes.Buffer
			if err := runInstall(installOptions{Host: h.Name, Session: "other", Root: e.dir, Home: e.home, Config: filepath.Join(e.home, ".config"), Stdout: &out}); err != nil {
				t.Fatal(err)
			}
			before = e.snapshot(t)
			for _, uninstall := range []bool{false, true} {
				_, err := e.run(t, h.Name, uninstall, false, false)
				if h.Name == "claude-desktop" || (len(files) == 1 && !hasKeyed(files)) {
					continue
				}
				if err == nil || !clikit.IsRefusal(err) || !strings.Contains(err.Error(), "not what install writes") && !strings.Contains(err.Error(), "not as install writes it") {
					t.Fatalf("uninstall=%v over another session's entry: %v", uninstall, err)
				}
				sameTree(t, "a refused install", before, e.snapshot(t))
			}
		})
	}
}

// hasKeyed reports whether a file has a keyed entry (an MCP server).
func hasKeyed(files []hostFile) bool {
	return slices.ContainsFunc(files, func(f hostFile) bool {
		return slices.ContainsFunc(f.Entries, func(e hostEntry) bool { return e.Key != "" })
	})
}

func (e installEnv) showPath(h agentHost, path string) string {
	return showPath(hostContext{User: h.UserOnly, Top: e.dir, Home: e.home}, path)
}

// The command line: the hosts are named in the help, an unknown one is
// refused naming them, and `git edit install claude-code` writes the
// project's files.
func TestInstallCommandLine(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	r := runCLI(t, "", "install", "--help")
	for _, h := range agentHosts {
		if !strings.Contains(r.stdout, h.Name) {
			t.Errorf("install --help does not name %s:\n%s", h.Name, r.stdout)
		}
	}
	if r := runCLI(t, "", "install", "--root", dir, "nosuch"); r.code != clikit.ExitMisuse || !strings.Contains(r.stderr, `no host "nosuch"; the hosts are `+hostNames()) {
		t.Fatalf("install nosuch: %+v", r)
	}
	if r := runCLI(t, "", "install", "--root", dir, "--session", "a/../b", "codex"); r.code != clikit.ExitMisuse {
		t.Fatalf("install with a bad session name: %+v", r)
	}
	if r := runCLI(t, "", "install", "--root", dir, "claude-code"); r.code != 0 || r.stdout != "created .mcp.json\ncreated .claude/settings.json\n" {
		t.Fatalf("install claude-code: %+v", r)
	}
	if r := runCLI(t, "", "uninstall", "--root", dir, "claude-code"); r.code != 0 || r.stdout != "removed .mcp.json\nremoved .claude/settings.json\n" {
		t.Fatalf("uninstall claude-code: %+v", r)
	}
	if got := gittest.Git(t, dir, "status", "--porcelain", "--untracked-files=all"); got != "" {
		t.Fatalf("left behind: %s", got)
	}
}

// Cursor's shell hooks (beforeShellExecution, afterShellExecution), which
// `install cursor` writes, give the command at the top of their input, not
// in tool_input: record --hook-input takes it from there (on main it took
// none, and recorded with the default message).
func TestHookInputReadsCursorsShellCommand(t *testing.T) {
	in := `{"hook_event_name":"afterShellExecution","conversation_id":"c","workspace_roots":["/w"],"command":"sed -i 's/a/b/' a.txt","cwd":"/w","output":"","duration":5}`
	got, err := hookCommand(strings.NewReader(in))
	if err != nil || got != "sed -i 's/a/b/' a.txt" {
		t.Fatalf("hookCommand(Cursor's input) = %q, %v", got, err)
	}
}

// A session name may hold what a shell reads ($, ;, quotes, #): the hooks
// install writes run through the host's shell, so the name is quoted
// there. Unquoted, `--session 'x;touch${IFS}PWNED;#'` made every hook run
// `touch PWNED`, and a name like a$b split the session: the server wrote
// a$b, the hooks recorded into a.
func TestAttackInstalledHooksQuoteTheSession(t *testing.T) {
	bin := binDir(t)
	for _, name := range []string{"x;touch${IFS}PWNED;#", "a$b", `q'u"o`} {
		t.Run(name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
			if r := runCLI(t, "", "install", "--root", dir, "--session", name, "claude-code"); r.code != 0 {
				t.Fatalf("install: %+v", r)
			}
			var settings struct {
				Hooks map[string][]struct {
					Hooks []struct{ Command string } `json:"hooks"`
				} `json:"hooks"`
			}
			if err := json.Unmarshal([]byte(gittest.ReadFile(t, dir, ".claude/settings.json")), &settings); err != nil {
				t.Fatal(err)
			}
			post := settings.Hooks["PostToolUse"]
			if len(post) != 1 || len(post[0].Hooks) != 1 {
				t.Fatalf("PostToolUse hooks: %+v", post)
			}
			gittest.WriteFile(t, dir, "a.txt", "b\n")
			cmd := exec.Command("sh", "-c", post[0].Hooks[0].Command)
			cmd.Dir = dir
			cmd.Env = append(gittest.Env(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "CLAUDE_PROJECT_DIR="+dir, "GIT_EDIT_SESSION=")
			cmd.Stdin = strings.NewReader(`{"tool_name":"Bash","tool_input":{"command":"echo b > a.txt"}}`)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("the hook %q: %v\n%s", post[0].Hooks[0].Command, err, out)
			}
			if _, err := os.Lstat(filepath.Join(dir, "PWNED")); err == nil {
				t.Fatalf("the hook ran what the session name said: %q", post[0].Hooks[0].Command)
			}
			if got := gittest.Git(t, dir, "log", "-1", "--format=%s", "refs/edits/"+name); got != "echo b > a.txt\n" {
				t.Errorf("the hook's record in session %q: %q", name, got)
			}
		})
	}
}

// A key the person added under git-edit's Codex table (startup_timeout_sec,
// env) is theirs: uninstall refuses and leaves the file byte for byte.
// Before, it cut only the lines install wrote, and the person's key went
// to the table above it (another server's) without a word.
func TestUninstallCodexKeepsThePersonsKeysWhereTheyWere(t *testing.T) {
	e := newInstallEnv(t)
	path := filepath.Join(e.dir, ".codex", "config.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(otherTOML+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := e.run(t, "codex", false, false, false); err != nil {
		t.Fatal(err)
	}
	withKey := gittest.ReadFile(t, e.dir, ".codex/config.toml") + "startup_timeout_sec = 30\n"
	if err := os.WriteFile(path, []byte(withKey), 0o644); err != nil {
		t.Fatal(err)
	}
	before := e.snapshot(t)
	if out, err := e.run(t, "codex", true, false, false); err == nil || !strings.Contains(err.Error(), "is not as install writes it (a key was added or changed); it is left; remove it by hand") {
		t.Fatalf("uninstall with the person's key under git-edit's table: %q %v", out, err)
	}
	if after := e.snapshot(t); !maps.Equal(after, before) {
		t.Fatalf("a refused uninstall changed files:\n%v\nwas\n%v", after, before)
	}
}

// A host file that is a symbolic link (dotfiles) is written through on
// install, and uninstall writes the target back without git-edit's
// entries: it never deletes the link and leaves the entries in the target.
func TestUninstallWritesThroughASymlinkedConfig(t *testing.T) {
	e := newInstallEnv(t)
	target := filepath.Join(e.home, "dotfiles", "gemini.json")
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(e.home, ".gemini", "settings.json")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := e.run(t, "gemini", false, true, false); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), "git-edit") {
		t.Fatalf("install did not write through the link: %q", b)
	}
	if _, err := e.run(t, "gemini", true, true, false); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("uninstall removed or replaced the person's link: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(target); string(b) != "{}\n" {
		t.Fatalf("the link's target after uninstall: %q, want %q", b, "{}\n")
	}
}

// A repository may commit a symbolic link where a host's project folder
// goes (`.claude -> ../../.claude`): a project's install refuses to write
// through it, leaving every file as it was; before, it wrote hooks into
// the person's global settings, where they run in every project.
func TestAttackProjectInstallNeverWritesThroughALinkOutOfTheRepository(t *testing.T) {
	e := newInstallEnv(t)
	global := filepath.Join(e.home, ".claude")
	if err := os.MkdirAll(global, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(global, filepath.Join(e.dir, ".claude")); err != nil {
		t.Fatal(err)
	}
	before := e.snapshot(t)
	out, err := e.run(t, "claude-code", false, false, false)
	if err == nil || !strings.Contains(err.Error(), "outside the repository; install writes a project's files only inside it") {
		t.Fatalf("install through a link out of the repository: %q %v", out, err)
	}
	if after := e.snapshot(t); !maps.Equal(after, before) {
		t.Fatalf("a refused install changed files:\n%v\nwas\n%v", after, before)
	}
	if _, err := os.Stat(filepath.Join(global, "settings.json")); err == nil {
		t.Fatal("install wrote the person's global settings")
	}
}

// Host files with comments and trailing commas (JSONC), which VS Code's
// mcp.json and Gemini CLI's settings.json accept: install keeps every
// comment and byte outside git-edit's entry (the result is the golden
// copy), a second install changes nothing, the result read as the host
// reads it (hujson.Standardize, then encoding/json) holds git-edit's
// entries, and uninstall gives back the original bytes.
func TestInstallKeepsCommentsAndTrailingCommasInJSONCFiles(t *testing.T) {
	for _, tc := range []struct{ name, host, content string }{
		{"vscode-mcp", "vscode", "// Servers for this workspace.\n" +
			"{\n" +
			"  /* inputs first */\n" +
			"  \"inputs\": [],\n" +
			"  \"servers\": {\n" +
			"    // the linter\n" +
			"    \"lint\": {\"type\": \"stdio\", \"command\": \"lint\", /* no args */},\n" +
			"  },\n" +
			"  // last comment, right before the closing brace\n" +
			"}\n"},
		{"vscode-same-line", "vscode", "{\n" +
			"  \"servers\": {\n" +
			"    \"lint\": {\"command\": \"lint\"} // keep me on lint's line\n" +
			"  }\n" +
			"}"},
		{"gemini-settings", "gemini", "{\n" +
			"\t// Gemini CLI settings\n" +
			"\t\"theme\": \"GitHub\", /* dark later */\n" +
			"\t\"mcpServers\": {\n" +
			"\t\t\"other\": {\"command\": \"other\", \"args\": [\"a\",],}, // trailing commas\n" +
			"\t},\n" +
			"\t\"hooks\": {\n" +
			"\t\t\"BeforeTool\": [\n" +
			"\t\t\t{\"matcher\": \"write_file\", \"hooks\": [{\"type\": \"command\", \"command\": \"echo\"}]}, // mine\n" +
			"\t\t],\n" +
			"\t\t/* AfterTool comes later */\n" +
			"\t},\n" +
			"\t/* closing comment */ }\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := *findHost(tc.host)
			e := newInstallEnv(t)
			files := e.files(h, false)
			if len(files) != 1 {
				t.Fatalf("%s has %d files", h.Name, len(files))
			}
			f := files[0]
			if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f.Path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			before := e.snapshot(t)
			if out, err := e.run(t, h.Name, false, false, false); err != nil || !strings.Contains(out, "updated ") {
				t.Fatalf("install: %v\n%s", err, out)
			}
			got, err := os.ReadFile(f.Path)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "jsonc/"+tc.name+".json", got)
			for _, c := range []string{"//", "/*"} {
				if strings.Count(string(got), c) != strings.Count(tc.content, c) {
					t.Errorf("%q comments: %d, want %d", c, strings.Count(string(got), c), strings.Count(tc.content, c))
				}
			}

			// Read as the host reads it: git-edit's entries are there.
			std, err := hujson.Standardize(got)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(std, &m); err != nil {
				t.Fatalf("%v\n%s", err, std)
			}
			for _, en := range f.Entries {
				var want any
				raw, _ := json.Marshal(en.Value)
				json.Unmarshal(raw, &want)
				var cur any = m
				for _, k := range en.Path {
					cur = cur.(map[string]any)[k]
				}
				if en.Key != "" {
					if !reflect.DeepEqual(cur.(map[string]any)[en.Key], want) {
						t.Errorf("%v.%s = %v, want %v", en.Path, en.Key, cur.(map[string]any)[en.Key], want)
					}
				} else if !slices.ContainsFunc(cur.([]any), func(x any) bool { return reflect.DeepEqual(x, want) }) {
					t.Errorf("%v holds no %v: %v", en.Path, want, cur)
				}
			}

			installed := e.snapshot(t)
			if out, err := e.run(t, h.Name, false, false, false); err != nil || !strings.Contains(out, "already installed in ") {
				t.Fatalf("install again: %v\n%s", err, out)
			}
			sameTree(t, "install again", installed, e.snapshot(t))
			if out, err := e.run(t, h.Name, true, false, false); err != nil || !strings.Contains(out, "updated ") {
				t.Fatalf("uninstall: %v\n%s", err, out)
			}
			sameTree(t, "uninstall", before, e.snapshot(t))
		})
	}
}

// A file of a host that reads strict JSON (Claude Code, Claude Desktop,
// Codex's and Cursor's hooks.json) holding a comment or a trailing comma
// is refused, naming the file, the line and column and what to do, and
// nothing is written: the host would refuse the file itself, and
// git-edit's entry in it would do nothing.
func TestInstallRefusesCommentsWhereTheHostReadsStrictJSON(t *testing.T) {
	for _, tc := range []struct{ host, content, want string }{
		{"claude-code", "{\n  // mine\n  \"mcpServers\": {}\n}\n", "line 2, column 3: a comment"},
		{"claude-code", "{\n  \"mcpServers\": {},\n}\n", "line 2, column 19: a trailing comma"},
		{"claude-desktop", "{\"mcpServers\": {} /* x */}", "line 1, column 19: a comment"},
		{"codex", "{\"hooks\": {},}", "line 1, column 13: a trailing comma"},
		{"cursor", "{\"version\": 1 // v\n}", "line 1, column 15: a comment"},
	} {
		t.Run(tc.host, func(t *testing.T) {
			h := *findHost(tc.host)
			e := newInstallEnv(t)
			files := e.files(h, false)
			bad := files[len(files)-1]
			if err := os.MkdirAll(filepath.Dir(bad.Path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(bad.Path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			before := e.snapshot(t)
			for _, uninstall := range []bool{false, true} {
				out, err := e.run(t, h.Name, uninstall, false, false)
				if err == nil || !clikit.IsRefusal(err) || !strings.Contains(err.Error(), e.showPath(h, bad.Path)+": "+tc.want) ||
					!strings.Contains(err.Error(), "remove it, then run again") || !strings.Contains(err.Error(), "nothing was written") {
					t.Fatalf("uninstall=%v: %v\n%s", uninstall, err, out)
				}
				sameTree(t, "a refused install", before, e.snapshot(t))
			}
		})
	}
}

// setInstallPause sets install's test pause hook until the test ends.
func setInstallPause(t *testing.T, hook func(point, path string)) {
	t.Helper()
	installPause.Store(&hook)
	t.Cleanup(func() { installPause.Store(nil) })
}

// A host writing its file between install's read and its rename (Claude
// Code rewrites ~/.claude.json often) keeps its write: install sees the
// file changed, computes its change again from the host's bytes and
// writes that; if the host writes again, install refuses and the file
// holds the host's last write, byte for byte, with no temporary file left.
// Uninstall's removal of a file it would leave empty is checked the same
// way.
func TestAttackInstallKeepsAHostsWriteBetweenReadAndRename(t *testing.T) {
	h := *findHost("claude-code")
	t.Run("install, host writes once", func(t *testing.T) {
		e := newInstallEnv(t)
		f := e.files(h, true)[0] // ~/.claude.json
		if err := os.WriteFile(f.Path, []byte("{\"numStartups\": 1}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		host := []byte("{\"numStartups\": 2, \"projects\": {\"/p\": {\"allowedTools\": []}}}\n")
		writes := 0
		setInstallPause(t, func(point, path string) {
			if point == "before-rename" && filepath.Base(path) == ".claude.json" && writes == 0 {
				writes++
				if err := os.WriteFile(f.Path, host, 0o600); err != nil {
					t.Error(err)
				}
			}
		})
		out, err := e.run(t, h.Name, false, true, false)
		if err != nil || !strings.Contains(out, "updated ~/.claude.json") {
			t.Fatalf("install: %v\n%s", err, out)
		}
		want, err := installFile(f, host)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(f.Path); !bytes.Equal(got, want) || writes != 1 {
			t.Fatalf("writes %d; ~/.claude.json:\n%s\nwant the host's write plus git-edit's entry:\n%s", writes, got, want)
		}
		noTemporaryFiles(t, filepath.Dir(f.Path))
	})
	t.Run("install, host keeps writing", func(t *testing.T) {
		e := newInstallEnv(t)
		f := e.files(h, true)[0]
		if err := os.WriteFile(f.Path, []byte("{\"numStartups\": 1}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		writes := 0
		var last []byte
		setInstallPause(t, func(point, path string) {
			if point == "before-rename" && filepath.Base(path) == ".claude.json" {
				writes++
				last = []byte("{\"numStartups\": " + strings.Repeat("9", writes) + "}\n")
				if err := os.WriteFile(f.Path, last, 0o600); err != nil {
					t.Error(err)
				}
			}
		})
		out, err := e.run(t, h.Name, false, true, false)
		if err == nil || !clikit.IsRefusal(err) || !strings.Contains(err.Error(), "~/.claude.json: another program wrote the file while git-edit was changing it, twice") ||
			!strings.Contains(err.Error(), "run install again") {
			t.Fatalf("install: %v\n%s", err, out)
		}
		if got, _ := os.ReadFile(f.Path); !bytes.Equal(got, last) || writes != 2 {
			t.Fatalf("writes %d; ~/.claude.json:\n%s\nwant the host's last write:\n%s", writes, got, last)
		}
		noTemporaryFiles(t, filepath.Dir(f.Path))
	})
	t.Run("uninstall removing the file, host writes once", func(t *testing.T) {
		e := newInstallEnv(t)
		f := e.files(h, false)[0] // .mcp.json, created by install
		if out, err := e.run(t, h.Name, false, false, false); err != nil {
			t.Fatalf("install: %v\n%s", err, out)
		}
		installed, _ := os.ReadFile(f.Path)
		// The person adds a server of their own while uninstall runs.
		host := bytes.Replace(installed, []byte("\"mcpServers\": {"), []byte("\"mcpServers\": {\n    \"mine\": {\"command\": \"mine\", \"args\": []},"), 1)
		writes := 0
		setInstallPause(t, func(point, path string) {
			if point == "before-rename" && filepath.Base(path) == ".mcp.json" && writes == 0 {
				writes++
				if err := os.WriteFile(f.Path, host, 0o644); err != nil {
					t.Error(err)
				}
			}
		})
		out, err := e.run(t, h.Name, true, false, false)
		if err != nil || !strings.Contains(out, "updated .mcp.json") {
			t.Fatalf("uninstall: %v\n%s", err, out)
		}
		want, err := uninstallFile(f, host)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(f.Path); err != nil || !bytes.Equal(got, want) || !bytes.Contains(got, []byte("\"mine\"")) || writes != 1 {
			t.Fatalf("writes %d; .mcp.json (%v):\n%s\nwant the person's server kept:\n%s", writes, err, got, want)
		}
	})
}

// noTemporaryFiles fails if install left a temporary file in dir.
func noTemporaryFiles(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range ents {
		if strings.Contains(en.Name(), ".git-edit-") {
			t.Errorf("temporary file left: %s", filepath.Join(dir, en.Name()))
		}
	}
}

// Install and uninstall run while another program keeps rewriting the
// file (in place, as a host does): each run either succeeds or is refused
// (the file changed twice, or was read half-written), and the file is
// always one of the program's writes, or one of them with git-edit's
// entry added (install) or removed (uninstall), never a mix; no temporary
// file is left. (A write landing between install's last check and its
// rename is lost: that window is not closed; see the README.)
func TestAttackInstallWhileAHostKeepsWriting(t *testing.T) {
	rounds := 12
	if testing.Short() {
		rounds = 3
	}
	h := *findHost("claude-code")
	e := newInstallEnv(t)
	f := e.files(h, true)[0] // ~/.claude.json
	hostWrite := func(n int) []byte { return []byte("{\"numStartups\": " + strings.Repeat("1", n%40+1) + "}\n") }
	if err := os.WriteFile(f.Path, hostWrite(0), 0o600); err != nil {
		t.Fatal(err)
	}
	for r := range rounds {
		stop, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			for n := 1; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				// A host's write, sometimes over git-edit's entry.
				b := hostWrite(n)
				if cur, err := os.ReadFile(f.Path); err == nil && bytes.Contains(cur, []byte("git-edit")) && n%2 == 0 {
					b, _ = installFile(f, b)
				}
				os.WriteFile(f.Path, b, 0o600)
			}
		}()
		out, err := e.run(t, h.Name, r%2 == 1, true, false)
		close(stop)
		<-done
		if err != nil && !(clikit.IsRefusal(err) && (strings.Contains(err.Error(), "changing it, twice") || strings.Contains(err.Error(), "not JSON"))) {
			t.Fatalf("round %d: %v\n%s", r, err, out)
		}
		got, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		ok := false
		for n := 0; n < 40 && !ok; n++ {
			with, _ := installFile(f, hostWrite(n))
			ok = bytes.Equal(got, hostWrite(n)) || bytes.Equal(got, with)
		}
		if !ok {
			t.Fatalf("round %d: ~/.claude.json is neither a host's write nor one with git-edit's entry:\n%s", r, got)
		}
		noTemporaryFiles(t, filepath.Dir(f.Path))
	}
}
